/**
 * Evidence items pointing at the procurement record behind a signal: its link at the source (null when the
 * source gives none: never a URL of ours), a title naming the record, its date and an excerpt of its text.
 */

import { clip } from '../lib/clip.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import type { SignalEvidenceRecord } from '../store/signal-records.js';
import { procurementReliability } from './confidence.js';
import { euros, parenthesised } from './format.js';

const EXCERPT = 300;

export function announcementEvidence(a: AnnouncementRecord): SignalEvidenceRecord {
  return {
    source_type: 'procurement_announcement',
    source_url: a.link,
    source_title: `Anúncio de procedimento ${a.source_id}${procedureSaid(a)}`,
    source_date: a.published_on,
    excerpt_pt: clip(a.object, EXCERPT),
    confidence: procurementReliability(a.source),
  };
}

export function contractEvidence(c: ContractRecord): SignalEvidenceRecord {
  return {
    source_type: 'procurement_contract',
    source_url: c.link,
    source_title: `Contrato ${c.source_id}${procedureSaid(c)}`,
    source_date: c.signed_on ?? c.published_on,
    excerpt_pt: clip(
      c.description && c.description !== c.object ? `${c.object} — ${c.description}` : c.object,
      EXCERPT,
    ),
    confidence: procurementReliability(c.source),
  };
}

export function amendmentEvidence(m: AmendmentRecord): SignalEvidenceRecord {
  const prices =
    m.previous_price_eur !== null && m.new_price_eur !== null
      ? `Preço: ${euros(m.previous_price_eur, 'pt')} → ${euros(m.new_price_eur, 'pt')}.`
      : null;
  return {
    source_type: 'procurement_amendment',
    source_url: m.link,
    source_title: `Modificação contratual ${m.source_id}`,
    source_date: m.date,
    excerpt_pt: clip([prices, m.reason].filter(Boolean).join(' ') || 'Modificação contratual', EXCERPT),
    confidence: procurementReliability(m.source),
  };
}

/** CPV codes and tax numbers, what entity and CPV alert rules match on. */
export function subjectOf(cpv: readonly { code: string }[], parties: readonly { nif: string | null }[]) {
  const nifs = [...new Set(parties.map((p) => p.nif).filter((n): n is string => !!n))];
  return { cpv: [...new Set(cpv.map((c) => c.code))], nifs, indicator: null, indicator_value: null };
}

/** The record's procedure type after its number, in parentheses; nothing when it has none. */
function procedureSaid(r: { procedure_type: string | null }): string {
  return r.procedure_type ? ` ${parenthesised(r.procedure_type)}` : '';
}
