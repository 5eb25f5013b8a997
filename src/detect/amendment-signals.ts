/**
 * contract_amended: an amendment that changes its contract's price (stage `amended`, amount = the new price),
 * with the change in euros and in percent of the price before it. Amendments that leave the price alone (a
 * longer term at no cost) or whose prices are unknown signal nothing. Active while the contract is being
 * executed, expired once it is closed.
 */

import { clip } from '../lib/clip.js';
import { ofName, withArticle } from '../lib/portuguese-articles.js';
import { valueTier } from '../signals/derive.js';
import type { AmendmentRecord, ContractRecord } from '../store/procurement-records.js';
import type { SignalInput } from '../store/signal-records.js';
import { confidence, type Missing, procurementReliability } from './confidence.js';
import { type Candidate, DETECTOR_ORIGIN, type DetectionContext } from './detection-context.js';
import { amendmentEvidence, contractEvidence, subjectOf } from './evidence.js';
import { euros, list, longDate, signedEuros, signedPercent, UNNAMED_BUYER_PT } from './format.js';
import { amendmentCase, PROCUREMENT, procurementSignalKey } from './procedure-case.js';

const TITLE_OBJECT = 120;

/** Whether an amendment changes the price (and both prices are known). */
export function changesPrice(m: AmendmentRecord): boolean {
  return m.new_price_eur !== null && m.previous_price_eur !== null && m.change_eur !== null && m.change_eur !== 0;
}

/**
 * @param contractTypes the types the amendment's contract signals (it decides the case's origin)
 * @param firstAmendment the id of the contract's first price-changing amendment
 */
export function amendmentCandidates(
  m: AmendmentRecord,
  c: ContractRecord,
  ctx: DetectionContext,
  contractTypes: readonly string[],
  firstAmendment: number | undefined,
): Candidate[] {
  const caseRef = amendmentCase(c, m, contractTypes, firstAmendment);
  const key = procurementSignalKey('contract_amended', m.source, m.source_id);
  return [
    { key, signal: changesPrice(m) ? { ...amendmentSignal(m, c, ctx), key, case: caseRef } : null, case: caseRef },
  ];
}

function amendmentSignal(
  m: AmendmentRecord,
  c: ContractRecord,
  ctx: DetectionContext,
): Omit<SignalInput, 'key' | 'case'> {
  const placed = ctx.places.place(
    c.municipalities,
    c.buyers.map((b) => b.nif),
    c.execution_places_text,
  );
  const previous = m.previous_price_eur as number;
  const next = m.new_price_eur as number;
  const change = m.change_eur as number;
  const percent = previous === 0 ? null : (change / previous) * 100;
  const missing: Missing[] = [];
  if (placed.municipality_id === null) missing.push('municipality');
  if (m.date === null) missing.push('date');
  if (m.link === null && c.link === null) missing.push('link');
  const buyer = c.buyers[0]?.name ?? null;
  const suppliers = c.suppliers.map((s) => s.name);
  const closed = c.closed_on !== null;
  const object = clip(c.object, TITLE_OBJECT);
  const pct = (lang: 'pt' | 'en') => (percent === null ? '' : `, ${signedPercent(percent, lang)}`);
  const reason = m.reason ? { pt: ` Fundamento: ${m.reason}.`, en: ` Reason given: ${m.reason}.` } : { pt: '', en: '' };
  const up = change > 0;
  return {
    origin: DETECTOR_ORIGIN,
    type: 'contract_amended',
    family: PROCUREMENT,
    municipality_id: placed.municipality_id,
    title_pt: `Contrato modificado (${signedPercent(percent ?? 0, 'pt')}): ${object}`,
    title_en: `Contract amended (${signedPercent(percent ?? 0, 'en')}): ${object}`,
    summary_pt:
      `O contrato «${clip(c.object, 300)}» ${ofName(buyer ?? UNNAMED_BUYER_PT)}` +
      `${suppliers.length ? ` com ${withArticle(list(suppliers, 'pt', 3))}` : ''} ` +
      `foi modificado` +
      `${m.date ? ` a ${longDate(m.date, 'pt')}` : ''}: o preço passou de ${euros(previous, 'pt')} ` +
      `para ${euros(next, 'pt')}` +
      ` (${signedEuros(change, 'pt')}${pct('pt')}).${reason.pt}`,
    summary_en:
      `The contract “${clip(c.object, 300)}” ` +
      `of ${buyer ?? 'an unidentified buyer'}` +
      `${suppliers.length ? ` with ${list(suppliers, 'en', 3)}` : ''} was amended` +
      `${m.date ? ` on ${longDate(m.date, 'en')}` : ''}: its price went from ${euros(previous, 'en')} ` +
      `to ${euros(next, 'en')}` +
      ` (${signedEuros(change, 'en')}${pct('en')}).${reason.en}`,
    why_it_matters_pt: up
      ? 'Os aumentos de preço depois da adjudicação alteram as condições em que o contrato foi posto à concorrência ' +
        'e somam-se à despesa prevista.'
      : 'Uma redução de preço depois da adjudicação mostra que o âmbito ou as condições do contrato mudaram.',
    why_it_matters_en: up
      ? 'Price increases after the award change the terms the contract was put out to competition on and add to the ' +
        'planned spending.'
      : 'A price cut after the award shows that the scope or terms of the contract changed.',
    next_step_pt: 'Consultar o fundamento da modificação e o histórico de modificações do contrato.',
    stage: 'amended',
    status: closed ? 'expired' : 'active',
    value_tier: valueTier(next),
    confidence: confidence(procurementReliability(m.source), missing),
    deadline_date: null,
    event_date: m.date,
    amount_eur: next,
    location_text: placed.location_text,
    actionability: closed ? 'informational' : 'monitor',
    evidence: [amendmentEvidence(m), contractEvidence(c)],
    subject: subjectOf(c.cpv, [...c.buyers, ...c.suppliers]),
  };
}
