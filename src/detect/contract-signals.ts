/**
 * Signals of a contract (stage `contracted`):
 *  - contract_awarded: a price of 75 000 € or more (the medium value tier and above);
 *  - direct_award_high_value: an ajuste direto (OCDS method `direct` and a procedure type "Ajuste direto…": the
 *    other direct methods, call-offs of single-supplier frameworks and excluded contracting, have no such
 *    ceiling) above the ceiling of its legal regime — the CCP on the mainland, the Azores' and Madeira's own
 *    regimes (lib/direct-award-regime.ts) — for goods and services or for public works (chosen under art. 19.º,
 *    else a contract type "Empreitada…"). Above it a direct award needs a material ground, worth a look. A
 *    contract that nothing ties to a region is held to the general law's ceiling, presumed; one whose places lie
 *    in several regions to the highest; either at a lower confidence.
 * Both are active while the contract is being executed and expire once it is closed (`closed_on`).
 */

import { clip } from '../lib/clip.js';
import {
  ceilingFor,
  isAjusteDireto,
  isWorks,
  type RegimeReading,
  readRegime,
  regimeLaw,
  regimeTold,
} from '../lib/direct-award-regime.js';
import { subjectName, toName, withArticle } from '../lib/portuguese-articles.js';
import { valueTier } from '../signals/derive.js';
import type { ContractRecord } from '../store/procurement-records.js';
import type { SignalInput } from '../store/signal-records.js';
import { confidence, type Missing, procurementReliability } from './confidence.js';
import { type Candidate, DETECTOR_ORIGIN, type DetectionContext } from './detection-context.js';
import { contractEvidence, subjectOf } from './evidence.js';
import { euros, list, longDate, parenthesised, UNNAMED_BUYER_PT } from './format.js';
import { contractCase, PROCUREMENT, procurementSignalKey } from './procedure-case.js';

export const AWARD_THRESHOLD_EUR = 75_000;
/** The order in which a contract's signals are considered: the first it has opens its case when no notice did. */
export const CONTRACT_SIGNAL_ORDER = ['contract_awarded', 'direct_award_high_value'] as const;
const TITLE_OBJECT = 120;

/** The contract's legal regime, from its legal basis and its buyer's region. */
export function contractRegime(c: ContractRecord, ctx: DetectionContext): RegimeReading {
  return readRegime(
    c.legal_basis,
    ctx.places.regionOf(
      c.municipalities,
      c.buyers.map((b) => b.nif),
      c.execution_places_text,
    ),
  );
}

export function directAwardCeiling(c: ContractRecord, ctx: DetectionContext): number {
  return ceilingFor(contractRegime(c, ctx), isWorks(c));
}

/** The types a contract signals, in CONTRACT_SIGNAL_ORDER. */
export function contractSignalTypes(c: ContractRecord, ctx: DetectionContext): string[] {
  const types: string[] = [];
  if (c.price_eur === null) return types;
  if (c.price_eur >= AWARD_THRESHOLD_EUR) types.push('contract_awarded');
  if (isAjusteDireto(c) && c.price_eur > directAwardCeiling(c, ctx)) types.push('direct_award_high_value');
  return types;
}

export function contractCandidates(c: ContractRecord, ctx: DetectionContext): Candidate[] {
  const types = contractSignalTypes(c, ctx);
  return CONTRACT_SIGNAL_ORDER.map((type) => ({
    key: procurementSignalKey(type, c.source, c.source_id),
    signal: types.includes(type) ? contractSignal(c, ctx, type, types) : null,
    case: contractCase(c, type, types),
  }));
}

/**
 * Where a contract's signals are filed, their date (signing, else publication) and the key facts the record leaves
 * out (docs/signals.md, "Confidence"): the same for every signal of a contract, procurement or integrity.
 */
export function contractFacts(c: ContractRecord, ctx: DetectionContext) {
  const placed = ctx.places.place(
    c.municipalities,
    c.buyers.map((b) => b.nif),
    c.execution_places_text,
  );
  const date = c.signed_on ?? c.published_on;
  const missing: Missing[] = [];
  if (placed.municipality_id === null) missing.push('municipality');
  if (date === null) missing.push('date');
  if (c.link === null) missing.push('link');
  return { placed, date, missing };
}

function contractSignal(c: ContractRecord, ctx: DetectionContext, type: string, types: readonly string[]): SignalInput {
  const { placed, date, missing } = contractFacts(c, ctx);
  const price = c.price_eur as number;
  const buyer = c.buyers[0]?.name ?? null;
  const buyerPt = buyer ?? UNNAMED_BUYER_PT;
  const suppliers = c.suppliers.map((s) => s.name);
  const supplierPt = suppliers.length > 0 ? list(suppliers, 'pt', 3) : 'adjudicatário não identificado';
  const supplierEn = suppliers.length > 0 ? list(suppliers, 'en', 3) : 'an unidentified supplier';
  const where = placed.location_text;
  const closed = c.closed_on !== null;
  const object = clip(c.object, TITLE_OBJECT);
  const procedure = c.procedure_type ? ` ${parenthesised(c.procedure_type.toLowerCase())}` : '';
  const facts = {
    pt:
      `${subjectName(buyerPt)} celebrou${date ? ` a ${longDate(date, 'pt')}` : ''} ` +
      `com ${withArticle(supplierPt)} um contrato ` +
      `de ${euros(price, 'pt')}${procedure}` +
      ` para «${clip(c.object, 300)}»${placed.in_pt ? `, com execução ${placed.in_pt}` : ''}.`,
    en:
      `${buyer ?? 'An unidentified buyer'} signed a ${euros(price, 'en')} contract ` +
      `with ${supplierEn}${date ? ` on ${longDate(date, 'en')}` : ''}${procedure}` +
      ` for “${clip(c.object, 300)}”${where ? `, carried out in ${where}` : ''}.`,
  };
  const closing = closed
    ? {
        pt: ` O contrato foi encerrado a ${longDate(c.closed_on as string, 'pt')}.`,
        en: ` The contract closed on ${longDate(c.closed_on as string, 'en')}.`,
      }
    : { pt: '', en: '' };
  const common = {
    key: procurementSignalKey(type, c.source, c.source_id),
    origin: DETECTOR_ORIGIN,
    type,
    family: PROCUREMENT,
    municipality_id: placed.municipality_id,
    stage: 'contracted' as const,
    status: closed ? ('expired' as const) : ('active' as const),
    value_tier: valueTier(price),
    confidence: confidence(procurementReliability(c.source), missing),
    deadline_date: null,
    event_date: date,
    amount_eur: price,
    location_text: where,
    evidence: [contractEvidence(c)],
    subject: subjectOf(c.cpv, [...c.buyers, ...c.suppliers]),
    case: contractCase(c, type, types),
  };
  if (type === 'contract_awarded') {
    return {
      ...common,
      title_pt: `Contrato de ${euros(price, 'pt')} adjudicado ${toName(supplierPt)}: ${object}`,
      title_en: `${euros(price, 'en')} contract awarded to ${supplierEn}: ${object}`,
      summary_pt: facts.pt + closing.pt,
      summary_en: facts.en + closing.en,
      why_it_matters_pt:
        'Os contratos de valor médio ou superior concentram a maior parte da despesa pública municipal: quem os ' +
        'ganha e a que preço diz muito sobre o mercado local.',
      why_it_matters_en:
        'Contracts of medium value and above make up most municipal public spending: who wins them and at what price ' +
        'says a lot about the local market.',
      next_step_pt: closed
        ? 'Comparar o preço contratual com o preço efetivo e com contratos semelhantes de outros municípios.'
        : 'Acompanhar a execução do contrato e eventuais modificações contratuais.',
      actionability: 'informational',
    };
  }
  const reading = contractRegime(c, ctx);
  const works = isWorks(c);
  const ceiling = ceilingFor(reading, works);
  const legal = c.legal_basis
    ? { pt: ` Fundamento invocado: ${c.legal_basis}.`, en: ` Legal basis cited: ${c.legal_basis}.` }
    : { pt: '', en: '' };
  const law = regimeLaw(reading);
  const regime = law
    ? { pt: `no ${law.pt}`, en: `of the ${law.en}` }
    : {
        pt:
          'no regime mais permissivo (o regime jurídico aplicável não se apura do fundamento nem da região da ' +
          'entidade)',
        en:
          'of the most permissive regime (the applicable legal regime cannot be told from the legal basis or the ' +
          'buyer’s region)',
      };
  return {
    ...common,
    confidence: regimeTold(reading)
      ? common.confidence
      : confidence(procurementReliability(c.source), [...missing, 'regime']),
    title_pt: `Ajuste direto de ${euros(price, 'pt')}: ${object} (${buyerPt})`,
    title_en: `${euros(price, 'en')} direct award: ${object} (${buyer ?? 'unidentified buyer'})`,
    summary_pt:
      `${facts.pt} O valor excede o limite de ${euros(ceiling, 'pt')} do ajuste direto para ` +
      `${works ? 'empreitadas' : 'bens e serviços'} ${regime.pt}.${legal.pt}${closing.pt}`,
    summary_en:
      `${facts.en} The amount exceeds the ${euros(ceiling, 'en')} direct-award ceiling for ` +
      `${works ? 'public works' : 'goods and services'} ${regime.en}.${legal.en}${closing.en}`,
    why_it_matters_pt:
      'Acima deste limite, um ajuste direto só é permitido com um fundamento material (urgência imperiosa, direitos ' +
      'exclusivos, concurso deserto…): vale a pena verificar qual foi invocado.',
    why_it_matters_en:
      'Above this ceiling a direct award is only lawful on a material ground (overriding urgency, exclusive rights, ' +
      'a failed tender…): the ground invoked deserves a check.',
    next_step_pt:
      'Verificar o fundamento legal invocado e o histórico de ajustes diretos da entidade com o mesmo fornecedor.',
    actionability: closed ? 'informational' : 'monitor',
  };
}
