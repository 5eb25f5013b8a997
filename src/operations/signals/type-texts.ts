/**
 * What an integrity type says of every signal of it — why it matters, the next step, the article of law it rests on —
 * held once, in the type's methodology (src/integrity/checks/), and given to each signal as it is read
 * (docs/signals.md, "Held once per type"): not a copy in each of the hundreds of thousands of rows detection
 * writes, which would also have to be rewritten each time a type's wording is mended. A signal that carries texts of
 * its own (an imported one, or one written before integrity signals stopped storing them) keeps them.
 */
import { clip } from '../../lib/clip.js';
import { findSignalType, INTEGRITY } from '../../signals/catalogue.js';
import type { SignalEvidenceRecord, SignalRecord } from '../../store/signal-records.js';

/** The law's excerpt, as long as an evidence excerpt of a contract's object. */
const LAW_EXCERPT = 300;

type TypeTexts = Pick<SignalRecord, 'why_it_matters_pt' | 'why_it_matters_en' | 'next_step_pt' | 'evidence'>;

export function withTypeTexts(s: SignalRecord): TypeTexts {
  const type = s.family === INTEGRITY ? findSignalType(s.type)?.methodology : undefined;
  if (!type) return s;
  const law = type.legal_basis;
  const cited = law && s.evidence.some((e) => e.source_type === 'document' && e.source_title === law.reference_pt);
  const lawEvidence: SignalEvidenceRecord[] =
    law && !cited
      ? [
          {
            source_type: 'document',
            source_url: null,
            source_title: law.reference_pt,
            source_date: null,
            excerpt_pt: clip(law.text_pt, LAW_EXCERPT),
            confidence: null,
          },
        ]
      : [];
  return {
    why_it_matters_pt: s.why_it_matters_pt ?? type.why_it_matters_pt,
    why_it_matters_en: s.why_it_matters_en ?? type.why_it_matters_en,
    next_step_pt: s.next_step_pt ?? type.next_step_pt,
    evidence: [...s.evidence, ...lawEvidence],
  };
}
