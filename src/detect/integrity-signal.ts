/**
 * The integrity signal of a contract and type (docs/signals.md, "Integrity"): one per flagged contract and type,
 * keyed `integrity:<type>:<source>:<source id>`, withdrawn when the contract no longer flags. It says what was
 * found and why it matters, written for a journalist: an indicator for a closer look, never an accusation. Its
 * summary holds only what changes with the contract's own record or its buyer's other contracts, which detection
 * judges again whenever they change; the corpus statistics of R025, R048 and PT-R003-FENCE move with every import,
 * so their signals name the method and point to the contract's red flags, which give the figures of the moment.
 */
import type { Assessment } from '../integrity/assessment.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS } from '../integrity/checks/excessive-unsuccessful-bids.js';
import { HETEROGENEOUS_SUPPLIER } from '../integrity/checks/heterogeneous-supplier.js';
import type { IntegrityType } from '../integrity/methodology.js';
import { CORPUS_TYPE_KEYS } from '../integrity/standing.js';
import { clip } from '../lib/clip.js';
import { ofName, toName, withArticle } from '../lib/portuguese-articles.js';
import { INTEGRITY, INTEGRITY_HEDGE_PT } from '../signals/catalogue.js';
import { valueTier } from '../signals/derive.js';
import type { ContractDetailRecord, ContractRecord, PartyRecord } from '../store/procurement-records.js';
import type { SignalCaseRef, SignalEvidenceRecord, SignalInput } from '../store/signal-records.js';
import { changesPrice } from './amendment-signals.js';
import { confidence, procurementReliability } from './confidence.js';
import { contractFacts, contractSignalTypes } from './contract-signals.js';
import { DETECTOR_ORIGIN, type DetectionContext } from './detection-context.js';
import { contractEvidence, subjectOf } from './evidence.js';
import { euros, parenthesised, UNNAMED_BUYER_PT, withoutNote } from './format.js';
import { contractCaseKey, PROCUREMENT } from './procedure-case.js';

/**
 * How integrity signals are written, a part of the rules (detection-rules.ts): raised with any change to what
 * `integritySignal` writes for the same assessment. 1: until 2026-11-30. 2: a flag about one party of the contract
 * (R048's supplier, R025's losing tenderer) names it, and every summary names the contract's suppliers. 3 (2026-11-30
 * evening): summary_pt and the law's evidence cite the legal basis in Portuguese words (`reference_pt`), summary_en
 * in English. 4: the reasons summary_en quotes (splitting, art. 113.º, concentration) write euros as English text does
 * (`€3,405.67`, not `3 405.67 €`) and counts in words (`1 contract`, `2 direct awards`, not `contract(s)`). 5
 * (2026-12-01): summary_pt names bodies with their article ("do Município de Lisboa", "à Câmara Municipal…":
 * lib/portuguese-articles.ts), title_en says an unnamed buyer in English, and R048's why_it_matters says what the
 * variety can mean without naming a front company. 6 (2026-12-01): the summaries set a label that cites a law in
 * one pair of parentheses with the code ("Indicador PT-ART113 (Convites repetidos à mesma entidade, CCP art. 113.º
 * n.º 2)", not "(… (CCP art. 113.º n.º 2))"), R018's summary_en says "an open procedure", not "a open", and
 * possible splitting's why_it_matters hedges the law as its legal basis does (wording in force unconfirmed); an
 * object clipped inside a parenthesis closes it (lib/clip.ts). 7 (2026-12-02): the type's own texts
 * (`why_it_matters_*`, `next_step_pt`) and its law's evidence are no longer stored in each signal but given to it as
 * it is read (operations/signals/type-texts.ts): a third of an integrity signal's bytes, written once per type.
 */
export const INTEGRITY_SIGNALS = 7;

/**
 * The types whose flag is about one party of the contract rather than the contract itself: the value that holds its
 * tax number, the list it is named in, and its role. A reader must not take the buyer in the title for it.
 */
const ABOUT_A_PARTY: Record<string, { nif: string; among: 'suppliers' | 'competitors'; pt: string; en: string }> = {
  [HETEROGENEOUS_SUPPLIER.key]: {
    nif: 'supplier_nif',
    among: 'suppliers',
    pt: 'adjudicatário do contrato',
    en: 'supplier',
  },
  [EXCESSIVE_UNSUCCESSFUL_BIDS.key]: {
    nif: 'tenderer_nif',
    among: 'competitors',
    pt: 'concorrente preterido no contrato',
    en: 'losing tenderer',
  },
};

/** At most this many contracts an assessment cites are given as evidence beside the contract itself. */
const CITED_EVIDENCE = 5;
const TITLE_OBJECT = 100;

export function integritySignalKey(type: string, c: Pick<ContractRecord, 'source' | 'source_id'>): string {
  return `${INTEGRITY}:${type}:${c.source}:${c.source_id}`;
}

/**
 * The procurement signal a contract's case is named after, when it has one: its notice's `tender_open`, its own first
 * signal, a price-changing amendment's `contract_amended`; null when its flags open the case.
 */
export function procurementOpening(c: ContractDetailRecord, ctx: DetectionContext): string | null {
  if (contractCaseKey(c).announced) return 'tender_open';
  const contractTypes = contractSignalTypes(c, ctx);
  if (contractTypes.length > 0) return contractTypes[0];
  return c.amendments.some(changesPrice) ? 'contract_amended' : null;
}

/**
 * The case each integrity signal of a contract joins: its contract's (procedure-case.ts), named as the contract's
 * procurement signals name it when the contract has any; otherwise the contract's first flag (in the catalogue's
 * order, `flagged`) opens it. What the contract alone decides is worked out once for all its types.
 */
export function integrityCases(
  c: ContractDetailRecord,
  flagged: readonly string[],
  ctx: DetectionContext,
): (type: string) => SignalCaseRef {
  const key = contractCaseKey(c).key;
  const named = procurementOpening(c, ctx);
  if (named !== null) return () => ({ key, type: named, family: PROCUREMENT, relationship: 'update' });
  return (type) => {
    const opening = flagged[0] ?? type;
    return { key, type: opening, family: INTEGRITY, relationship: type === opening ? 'origin' : 'update' };
  };
}

export function integritySignal(
  c: ContractDetailRecord,
  type: IntegrityType,
  a: Assessment,
  context: {
    ctx: DetectionContext;
    cited: ReadonlyMap<number, ContractRecord>;
    /** The signal's case (integrityCases). */
    case: SignalCaseRef;
  },
): SignalInput {
  const { placed, date, missing } = contractFacts(c, context.ctx);
  if (type.reads_beyond_record) missing.push('coverage');
  // A ceiling of the general law presumed, not told by the record (docs/signals.md, "Direct-award ceilings").
  if (a.values.regime_told_by === 'presumed') missing.push('regime');
  const buyers = c.buyers.map((b) => b.name).join(', ');
  const buyer = buyers || UNNAMED_BUYER_PT;
  const object = clip(c.object, TITLE_OBJECT);
  const price = c.price_eur === null ? null : { pt: euros(c.price_eur, 'pt'), en: euros(c.price_eur, 'en') };
  const flags = `GET /v1/procurement/contracts/${c.id}/red-flags`;
  const party = partyConcerned(c, type, a);
  const suppliers = namesOf(c.suppliers);
  const flaggedIn = party
    ? `assinalado ${toName(party.named)}, ${party.role.pt} «${clip(c.object, 300)}» ${ofName(buyer)}`
    : `assinalado no contrato «${clip(c.object, 300)}» ${ofName(buyer)}` +
      `${suppliers ? ` com ${withArticle(suppliers)}` : ''}`;
  const reason = CORPUS_TYPE_KEYS.has(type.key)
    ? `${type.measures_en} Flagged${party ? ` for the ${party.role.en} ${party.named}` : ''}; ` +
      `the figures of now: ${flags}.`
    : a.reason;
  const titled = party ? `${party.name} — ${object}` : object;
  // The label and the code in one pair of parentheses, with the law a label cites: "(…, CCP art. 113.º n.º 2)".
  const en = withoutNote(type.label_en);
  const named = {
    pt: `${type.code} ${parenthesised(type.label_pt)}`,
    en: `${en.text} (${[type.code, en.note].filter(Boolean).join(', ')})`,
  };
  return {
    key: integritySignalKey(type.key, c),
    origin: DETECTOR_ORIGIN,
    type: type.key,
    family: INTEGRITY,
    municipality_id: placed.municipality_id,
    title_pt: `${type.label_pt}: ${titled} (${buyer})`,
    title_en: `${type.label_en}: ${titled} (${buyers || 'unidentified buyer'})`,
    summary_pt:
      `Indicador ${named.pt} ${flaggedIn}${price ? `, de ${price.pt}` : ''}. ` +
      `${INTEGRITY_HEDGE_PT}: o método, os valores comparados e os limiares ` +
      `estão em ${flags}.` +
      (type.legal_basis ? ` Base legal: ${type.legal_basis.reference_pt}.` : ''),
    summary_en:
      `${named.en}: ${reason} An indicator for a closer look, never an accusation.` +
      (type.legal_basis ? ` Legal basis: ${type.legal_basis.reference}.` : ''),
    // The type's own texts and its law are given to the signal as it is read (operations/signals/type-texts.ts).
    why_it_matters_pt: null,
    why_it_matters_en: null,
    next_step_pt: null,
    stage: 'contracted',
    status: 'active',
    value_tier: valueTier(c.price_eur),
    confidence: confidence(procurementReliability(c.source), missing),
    deadline_date: null,
    event_date: date,
    amount_eur: c.price_eur,
    location_text: placed.location_text,
    actionability: 'monitor',
    evidence: evidenceOf(c, a, context.cited),
    // The party a flag is about is a party of the signal too: an entity rule watching a losing tenderer sees R025's.
    subject: subjectOf(c.cpv, [...c.buyers, ...c.suppliers, ...(party ? [{ nif: party.nif }] : [])]),
    case: context.case,
  };
}

/** The party a flag of an ABOUT_A_PARTY type is about, named as the contract names it (its tax number otherwise). */
function partyConcerned(c: ContractDetailRecord, type: IntegrityType, a: Assessment) {
  const about = ABOUT_A_PARTY[type.key];
  const nif = about ? a.values[about.nif] : undefined;
  if (!about || typeof nif !== 'string') return null;
  const name = c[about.among].find((p) => p.nif === nif)?.name;
  return { nif, name: name ?? `NIF ${nif}`, named: name ? `${name} (NIF ${nif})` : `NIF ${nif}`, role: about };
}

function namesOf(parties: readonly PartyRecord[]): string {
  return parties
    .map((p) => p.name ?? (p.nif === null ? null : `NIF ${p.nif}`))
    .filter(Boolean)
    .join(', ');
}

/** The ids of the other contracts a flag gives as evidence: those the assessment cites first. */
export function evidenceCites(c: Pick<ContractRecord, 'id'>, a: Pick<Assessment, 'cites'>): number[] {
  return a.cites.filter((id) => id !== c.id).slice(0, CITED_EVIDENCE);
}

/** The contract and the contracts the assessment cites (the largest first, as cited). */
function evidenceOf(
  c: ContractRecord,
  a: Assessment,
  cited: ReadonlyMap<number, ContractRecord>,
): SignalEvidenceRecord[] {
  const others = evidenceCites(c, a).flatMap((id) => {
    const found = cited.get(id);
    return found ? [contractEvidence(found)] : [];
  });
  return [contractEvidence(c), ...others];
}
