/**
 * The procedures that the repeated-direct-awards check (CCP art. 113.º n.º 2) and the splitting check (art. 22.º)
 * compare: an ajuste direto or a consulta prévia chosen by the contract's value — not on a material ground (art.
 * 24.º and following), which has no ceiling — and that procedure's ceiling in the buyer's legal regime, read from
 * the one table of ceilings (lib/direct-award-regime.ts) as the direct-award detector reads it.
 */
import {
  ceilingFor,
  consultationCeilingFor,
  isAjusteDireto,
  isConsultaPrevia,
  isWorks,
  type RegimeReading,
  readRegime,
  regimeLaw,
} from '../lib/direct-award-regime.js';
import { citedArticle } from '../lib/legal-basis.js';
import { regionOfLegalText } from '../lib/regional-law.js';
import type { Regions } from '../lib/regions.js';
import { memoByText } from '../lib/text-memo.js';
import type { ContractRecord } from '../store/procurement-records.js';
import { type Compared, type Finding, finding, type Said } from './assessment.js';
import { soleParty, soleSupplierIs } from './buyer-contracts.js';
import type { CheckContext } from './check.js';

export type DirectProcedure = 'ajuste_direto' | 'consulta_previa';

export const PROCEDURE_NAME: Readonly<Record<DirectProcedure, string>> = {
  ajuste_direto: 'ajuste direto',
  consulta_previa: 'consulta prévia',
};

/** The procedure after "of" in a Portuguese reason, with its article's gender: `do ajuste direto`, `da consulta…`. */
export const PROCEDURE_OF_PT: Readonly<Record<DirectProcedure, string>> = {
  ajuste_direto: 'do ajuste direto',
  consulta_previa: 'da consulta prévia',
};

/** The procedure, told from the procedure type as the detectors tell it (lib/direct-award-regime.ts). */
export function directProcedure(c: Pick<ContractRecord, 'ocds_method' | 'procedure_type'>): DirectProcedure | null {
  if (isAjusteDireto(c)) return 'ajuste_direto';
  if (isConsultaPrevia(c)) return 'consulta_previa';
  return null;
}

/**
 * How the legal basis says the procedure was chosen:
 *  - `value`: CCP art. 19.º c) or d) (works) or art. 20.º n.º 1 c) or d) (goods and services) — the alíneas art.
 *    113.º n.º 2 names — also as Madeira's DLR 34/2008/M adapts them; under the Azores' DLR 27/2015/A, its art.
 *    19.º a) and 20.º a), the regional ajuste direto by value (as the real rows cite it: art. 20.º a) awards up to
 *    75 000 €, art. 20.º b) public tenders);
 *  - `other`: any other article — a material criterion (art. 24.º and following), Lei 30/2021's special measures;
 *  - `unknown`: no legal basis, or one whose first article (and, for art. 19.º or 20.º, alínea) cannot be read.
 * The article is read by lib/legal-basis.ts.
 */
export type AwardCriterion = 'value' | 'other' | 'unknown';

/** Read once per text (lib/text-memo.ts): the buyer checks read it for each contract a contract is compared with. */
const criterionOf = memoByText((legalBasis): AwardCriterion => {
  if (legalBasis.trim() === '') return 'unknown';
  const cited = citedArticle(legalBasis);
  if (cited === null) return 'unknown';
  const { article, number, alinea } = cited;
  if (article !== 19 && article !== 20) return 'other';
  if (alinea === undefined) return 'unknown';
  if (regionOfLegalText(legalBasis) === 'azores') return alinea === 'a' && number === undefined ? 'value' : 'other';
  const byValue = (alinea === 'c' || alinea === 'd') && (article === 19 ? number === undefined : number !== '2');
  return byValue ? 'value' : 'other';
});

export function awardCriterion(legalBasis: string | null): AwardCriterion {
  return legalBasis === null ? 'unknown' : criterionOf(legalBasis);
}

/**
 * The contract's procedure when a check on direct procedures applies to it — an ajuste direto or a consulta prévia
 * chosen by value — else the check's answer: `not_flagged` (does not apply, and `why` not) or `not_assessable`.
 */
export function procedureChosenByValue(c: ContractRecord, values: Compared, why: Said): DirectProcedure | Finding {
  const procedure = directProcedure(c);
  if (procedure === null) {
    if (c.procedure_type === null) {
      const reason = { en: 'The record gives no procedure type.', pt: 'O registo não indica o tipo de procedimento.' };
      return finding('not_assessable', reason, values);
    }
    const reason = {
      en: `Does not apply: the procedure "${c.procedure_type}" is neither an ajuste direto nor a consulta prévia.`,
      pt: `Não se aplica: um procedimento «${c.procedure_type}» não é um ajuste direto nem uma consulta prévia.`,
    };
    return finding('not_flagged', reason, values);
  }
  values.procedure = procedure;
  const criterion = awardCriterion(c.legal_basis);
  if (criterion === 'unknown') {
    const reason =
      c.legal_basis === null
        ? {
            en: 'The record gives no legal basis: whether the procedure was chosen by value cannot be told.',
            pt:
              'O registo não indica o fundamento legal: não se pode saber se o procedimento foi escolhido pelo ' +
              'valor.',
          }
        : {
            en: `The legal basis (${c.legal_basis}) does not say by which article and alínea the procedure was chosen.`,
            pt:
              `O fundamento legal (${c.legal_basis}) não diz por que artigo e alínea o procedimento foi ` +
              'escolhido.',
          };
    return finding('not_assessable', reason, values);
  }
  if (criterion === 'other') {
    const reason = {
      en: `Does not apply: the procedure was not chosen by value (legal basis: ${c.legal_basis}); ${why.en}.`,
      pt:
        `Não se aplica: o procedimento não foi escolhido pelo valor (fundamento legal: ${c.legal_basis}); ` +
        `${why.pt}.`,
    };
    return finding('not_flagged', reason, values);
  }
  return procedure;
}

/** The ceiling a contract's procedure is held to, and how the regime was told. */
export interface HeldTo {
  procedure: DirectProcedure;
  works: boolean;
  reading: RegimeReading;
  /** Euros; null when the regime has no such procedure (a consulta prévia under the Azores' regime). */
  ceiling: number | null;
}

export function heldTo(c: ContractRecord, procedure: DirectProcedure, regions: Regions): HeldTo {
  const region = regions.regionOf(
    c.municipalities,
    c.buyers.map((b) => b.nif),
    c.execution_places_text,
  );
  const reading = readRegime(c.legal_basis, region);
  const works = isWorks(c);
  return { procedure, works, reading, ceiling: procedureCeiling(procedure, works, reading) };
}

function procedureCeiling(procedure: DirectProcedure, works: boolean, reading: RegimeReading): number | null {
  return procedure === 'ajuste_direto' ? ceilingFor(reading, works) : consultationCeilingFor(reading, works);
}

const GENERAL_LAW: RegimeReading = { regime: 'national', told_by: null };

/** A direct award's one buyer and one supplier, and the ceiling its procedure is held to (`ceiling` known). */
export interface PairAward {
  buyer: { nif: string; name: string };
  supplier: { nif: string; name: string };
  held: HeldTo & { ceiling: number };
}

/**
 * What the checks that compare a direct award with the others of its buyer and supplier need first: one buyer and one
 * supplier, each with a tax number, and a ceiling its procedure is held to in the regime (noted in `values`); else
 * the finding that says which is missing.
 */
export function pairAward(
  c: ContractRecord,
  procedure: DirectProcedure,
  ctx: CheckContext,
  values: Compared,
): PairAward | Finding {
  const buyer = soleParty(c.buyers, 'buyer');
  if ('missing' in buyer) return finding('not_assessable', buyer.missing, values);
  const supplier = soleParty(c.suppliers, 'supplier');
  if ('missing' in supplier) return finding('not_assessable', supplier.missing, values);
  const held = heldTo(c, procedure, ctx.regions);
  noteRegime(values, held.reading);
  if (held.ceiling === null) {
    const regime = regimeWords(held.reading);
    const reason = {
      en: `No ${PROCEDURE_NAME[procedure]} ceiling can be cited under ${regime.en}.`,
      pt: `Não há limite de ${PROCEDURE_NAME[procedure]} a citar ${regime.pt}.`,
    };
    return finding('not_assessable', reason, values);
  }
  return { buyer, supplier, held: { ...held, ceiling: held.ceiling } };
}

/**
 * The direct procedure of another contract of the pair when it can count with this award: the same buyer alone and
 * the same supplier alone, an ajuste direto or a consulta prévia, for the same kind of contract (the ceilings
 * differ); null otherwise.
 */
export function samePairProcedure(x: ContractRecord, supplier: string, held: HeldTo): DirectProcedure | null {
  if (x.buyers.length !== 1 || !soleSupplierIs(x, supplier) || isWorks(x) !== held.works) return null;
  return directProcedure(x);
}

/**
 * The procedure's ceiling under the general law, the lowest of the three regimes. Where the regime cannot be told
 * (places in several regions) the checks hold a contract to the highest ceiling; a sum under it that reaches this
 * one is then not assessable, not `not_flagged`.
 */
export function generalLawCeiling(procedure: DirectProcedure, works: boolean): number {
  return procedureCeiling(procedure, works, GENERAL_LAW) as number;
}

/**
 * The regime in an assessment's values: which (`unknown` when the places lie in several regions) and how it was told
 * (`presumed`: nothing in the record ties the buyer to a region; a flag resting on it is less certain).
 */
export function noteRegime(values: Compared, reading: RegimeReading): void {
  values.regime = reading.regime ?? 'unknown';
  values.regime_told_by = reading.told_by;
}

/**
 * The regime in a reason's words, after "under" (`en`) and as the Portuguese sentence has it (`pt`, with its
 * preposition: "no regime…"): its law, or that it could not be told.
 */
export function regimeWords(reading: RegimeReading): Said {
  const law = regimeLaw(reading);
  if (law === null) {
    return {
      en: 'the highest ceiling of the three regimes (the regime cannot be told from the legal basis or the region)',
      pt:
        'com o limite mais alto dos três regimes (o regime não se pode saber pelo fundamento legal nem pela ' +
        'região)',
    };
  }
  return { en: `the ${law.en}`, pt: `no ${law.pt}` };
}

/** The kind of contract a ceiling is for, in a reason's words. */
export const kindWords = (works: boolean): Said =>
  works
    ? { en: 'public works', pt: 'empreitadas de obras públicas' }
    : { en: 'goods and services', pt: 'bens e serviços' };
