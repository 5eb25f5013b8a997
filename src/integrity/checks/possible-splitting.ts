/**
 * Possible splitting (fracionamento): several direct awards by one buyer to one supplier for the same CPV class
 * within a few weeks, each under the ceiling of its procedure and together at or over it — one contract of their
 * total could not have been awarded that way. What the law says of it is in docs/integrity.md, its unconfirmed
 * parts marked.
 */

import { ofName, toName } from '../../lib/portuguese-articles.js';
import type { ContractDetailRecord, ContractRecord } from '../../store/procurement-records.js';
import { type Compared, type Finding, finding } from '../assessment.js';
import {
  addDays,
  awardDate,
  cents,
  daysBetween,
  holdsData,
  largest,
  NO_AWARD_DATE,
  pairAwardedWithin,
  pairContracts,
  TOO_MANY,
} from '../buyer-contracts.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import {
  awardCriterion,
  type DirectProcedure,
  generalLawCeiling,
  type HeldTo,
  heldTo,
  kindWords,
  PROCEDURE_NAME,
  PROCEDURE_OF_PT,
  pairAward,
  procedureChosenByValue,
  regimeWords,
  samePairProcedure,
} from '../direct-procedures.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { counted, dateSaid, eurosSaid } from '../said.js';

export const POSSIBLE_SPLITTING: IntegrityType = {
  key: 'possible_splitting',
  code: 'PT-ART22-SPLIT',
  version: 2,
  label_pt: 'Possível fracionamento da despesa',
  label_en: 'Possible splitting',
  measures_en:
    'Ajustes diretos and consultas prévias chosen by value, by the same buyer to the same supplier, for the same ' +
    'CPV class (the first digits of the main CPV code) and the same kind of contract, dated within a window of ' +
    'days that holds this contract: each under the ceiling of its procedure, their prices added up and compared ' +
    "with the ceiling of the most permissive procedure among them, in the buyer's legal regime.",
  measures_pt:
    'Ajustes diretos e consultas prévias escolhidos em função do valor, da mesma entidade ao mesmo ' +
    'fornecedor, para a mesma classe CPV e o mesmo tipo de contrato, numa janela de dias: cada um abaixo ' +
    'do limite do seu procedimento, somados e comparados com o limite do procedimento mais permissivo ' +
    'entre eles.',
  // The law as far as it is confirmed (docs/integrity.md, "Possible splitting"): hedged as the legal basis is.
  why_it_matters_pt:
    'Dividir uma despesa para a subtrair ao procedimento que o seu valor total exigiria não é permitido ' +
    '(CCP art. 22.º e DL 197/99 art. 16.º n.º 2, redação em vigor por confirmar); contratos próximos no tempo, ' +
    'da mesma classe de compra e do mesmo fornecedor, que juntos passam o limite merecem verificação.',
  why_it_matters_en:
    'Splitting a purchase to keep it from the procedure its total value would require is not allowed ' +
    '(CCP art. 22.º and DL 197/99 art. 16.º n.º 2, wording in force unconfirmed); contracts close in time, of ' +
    'the same class of purchase and the same supplier, that together pass the ceiling deserve a check.',
  next_step_pt:
    'Ler o objeto de cada contrato citado: se forem partes de uma mesma necessidade, verificar a ' +
    'fundamentação da divisão.',
  reads_beyond_record: true,
  fields: [
    'procedure_type',
    'ocds_method',
    'legal_basis',
    'contract_types',
    'cpv',
    'buyers',
    'suppliers',
    'price_eur',
    'awarded_on',
    'signed_on',
    'published_on',
    'municipalities',
    'execution_places_text',
  ],
  thresholds: [
    { key: 'window_days', value: 60, unit: 'days', source: "munidata's default (the law sets no window)" },
    {
      key: 'cpv_digits',
      value: 4,
      unit: 'count',
      source:
        "munidata's choice: the CPV class (Regulation (EC) 213/2008 — division 2 digits, group 3, class 4, " +
        'category 5), a proxy for «prestações do mesmo tipo»: the same kind of purchase, not the same article',
    },
    { key: 'min_contracts', value: 2, unit: 'count', source: "munidata's default: «several» awards, at least two" },
  ],
  legal_basis: {
    reference: 'CCP art. 17.º n.º 1 and art. 22.º (wording in force unconfirmed); DL 197/99 art. 16.º n.º 2',
    reference_pt: 'CCP art. 17.º n.º 1 e art. 22.º (redação em vigor por confirmar); DL 197/99 art. 16.º n.º 2',
    text_pt:
      'O valor do contrato é o benefício económico de todas as prestações que o constituem (art. 17.º n.º 1, por ' +
      'confirmar); prestações do mesmo tipo contratadas em lotes ou procedimentos separados escolhem o procedimento ' +
      'pela soma dos seus valores (art. 22.º: assim no texto anterior a 2018; o atual, «Divisão em lotes», por ' +
      'confirmar); «é proibido o fraccionamento da despesa com a intenção de a subtrair ao regime previsto» ' +
      '(DL 197/99 art. 16.º n.º 2; vigência em 2024 por confirmar).',
    text_en:
      'The value of a contract is the economic benefit of all its prestações (art. 17.º n.º 1, unconfirmed); ' +
      'prestações of the same type contracted in separate lots or procedures choose the procedure by their sum ' +
      '(art. 22.º: so in the text before 2018; the current one, «Divisão em lotes», unconfirmed); splitting an ' +
      'expense to take it out of the regime it falls under is forbidden (DL 197/99 art. 16.º n.º 2; whether in ' +
      'force in 2024, unconfirmed).',
  },
  caveat_en:
    'Separate awards of one class can be lawful: needs that arose apart, lots whose procedure was chosen by their ' +
    'total. The window and the CPV class are ours, not the law’s, which speaks of the same type of prestação and ' +
    'the value of the whole. Awards chosen on a material criterion have no ceiling and are left out; so is an ' +
    'award that alone reaches its ceiling (the direct_award_high_value signal’s matter). A window beyond the data ' +
    'held is not read as empty: not assessable, unless the contracts held already reach the ceiling. Awards are ' +
    'dated by the award decision, else signing, else publication. An indicator for a closer look, not a finding.',
  caveat_pt:
    'Adjudicações separadas da mesma classe podem ser lícitas: necessidades surgidas em separado, lotes cujo ' +
    'procedimento foi escolhido pelo total. A janela e a classe CPV são nossas, não da lei, que fala do mesmo tipo ' +
    'de prestação e do valor do conjunto. As adjudicações escolhidas por critério material não têm limite e ficam ' +
    'de fora; tal como uma adjudicação que sozinha atinge o seu limite (matéria do sinal ' +
    'direct_award_high_value). Uma janela para lá dos dados do serviço não é lida como vazia: não é avaliável, a ' +
    'menos que os contratos que o serviço tem já atinjam o limite. As adjudicações são datadas pela decisão de ' +
    'adjudicação, senão pela celebração, senão pela publicação. Um indicador para olhar com mais atenção, não uma ' +
    'conclusão.',
};

/**
 * The days whose awards may be parts of a split with an award of `date`: the window on either side of it. The
 * detector's scope reads it too, to find the awards a new one may be a part with (integrity-reach.ts).
 */
export function splittingWindow(date: string): [from: string, to: string] {
  const days = threshold(POSSIBLE_SPLITTING, 'window_days');
  return [addDays(date, -days), addDays(date, days)];
}

/** A direct award of the group, with its procedure and that procedure's ceiling. */
interface Part {
  contract: ContractRecord;
  date: string;
  price: number;
  procedure: DirectProcedure;
  ceiling: number;
}

export async function checkPossibleSplitting(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const values: Compared = {
    procedure: null,
    cpv_class: null,
    regime: null,
    regime_told_by: null,
    ceiling_eur: null,
    window_from: null,
    window_to: null,
    contracts_in_window: null,
    window_sum_eur: null,
  };
  const procedure = procedureChosenByValue(c, values, {
    en: 'chosen on a material ground, it has no ceiling to split under',
    pt: 'escolhido por critério material, não tem limite abaixo do qual fracionar',
  });
  if (typeof procedure !== 'string') return procedure;
  const date = awardDate(c);
  if (date === null) return finding('not_assessable', NO_AWARD_DATE, values);
  if (c.price_eur === null) {
    const reason = { en: 'The record gives no contract price.', pt: 'O registo não indica o preço contratual.' };
    return finding('not_assessable', reason, values);
  }
  const main = c.cpv[0]?.code;
  if (main === undefined) {
    const reason = { en: 'The record gives no CPV code.', pt: 'O registo não indica nenhum código CPV.' };
    return finding('not_assessable', reason, values);
  }
  const cpvClass = main.slice(0, threshold(POSSIBLE_SPLITTING, 'cpv_digits'));
  values.cpv_class = cpvClass;
  const award = pairAward(c, procedure, ctx, values);
  if ('state' in award) return award;
  const { buyer, supplier, held } = award;
  if (c.price_eur >= held.ceiling) {
    const [price, ceiling, regime] = [eurosSaid(c.price_eur), eurosSaid(held.ceiling), regimeWords(held.reading)];
    const reason = {
      en:
        `Does not apply: the contract alone (${price.en}) reaches the ${ceiling.en} ceiling of its ` +
        `procedure under ${regime.en}; it is no part of a split.`,
      pt:
        `Não se aplica: o contrato sozinho (${price.pt}) atinge o limite de ${ceiling.pt} do seu procedimento ` +
        `${regime.pt}; não é parte de um fracionamento.`,
    };
    return finding('not_flagged', reason, values);
  }

  const days = threshold(POSSIBLE_SPLITTING, 'window_days');
  const [from, to] = splittingWindow(date);
  const pair = await pairContracts(ctx, c.source, buyer.nif, supplier.nif);
  if (pair === null) return finding('not_assessable', TOO_MANY, values);
  const pairKey = { source: c.source, buyer: buyer.nif, supplier: supplier.nif };
  const inWindow = await pairAwardedWithin(ctx, pairKey, pair, from, to);
  const ofClass = inWindow.filter((x) => x.cpv[0]?.code.startsWith(cpvClass));
  const self: Part = { contract: c, date, price: c.price_eur, procedure, ceiling: held.ceiling };
  const near = nearbyAwards(c, ofClass, supplier.nif, held, ctx, from, to);

  const best = bestWindow([self, ...near.parts], date, days);
  const group = best.parts.filter((p) => p.contract.id !== c.id);
  Object.assign(values, {
    ceiling_eur: best.ceiling,
    window_from: best.from,
    window_to: best.to,
    contracts_in_window: best.parts.length,
    window_sum_eur: cents(best.total),
  });
  const more = {
    cites: largest([...group.map((p) => p.contract), ...near.uncertain.map((p) => p.contract), ...near.unpriced]),
    corpus: {
      awards_near: near.parts.length,
      awards_near_without_price: near.unpriced.length,
      awards_near_unreadable_basis: near.uncertain.length,
    },
  };
  const [kind, regime] = [kindWords(held.works), regimeWords(held.reading)];
  const what = {
    en:
      `${counted(best.parts.length, 'direct award')} (ajuste direto or consulta prévia) of ${buyer.name} with ` +
      `${supplier.name} ` +
      `for CPV class ${cpvClass} from ${best.from} to ${best.to}, each under the ceiling of its procedure, add up to ` +
      `${eurosSaid(best.total).en}`,
    pt:
      `${best.parts.length === 1 ? 'Uma adjudicação direta' : `${best.parts.length} adjudicações diretas`} ` +
      `(ajuste direto ou consulta prévia) ${ofName(buyer.name)} ${toName(supplier.name)} ` +
      `da classe CPV ${cpvClass} de ` +
      `${dateSaid(best.from).pt} a ${dateSaid(best.to).pt}, cada uma abaixo do limite do seu procedimento, ` +
      `${best.parts.length === 1 ? 'soma' : 'somam'} ${eurosSaid(best.total).pt}`,
  };
  const against = {
    en:
      `the ${eurosSaid(best.ceiling).en} ceiling of the ${PROCEDURE_NAME[best.procedure]} for ${kind.en} ` +
      `under ${regime.en}`,
    pt: `o limite de ${eurosSaid(best.ceiling).pt} ${PROCEDURE_OF_PT[best.procedure]} para ${kind.pt} ${regime.pt}`,
  };
  if (best.parts.length >= threshold(POSSIBLE_SPLITTING, 'min_contracts') && best.total >= best.ceiling) {
    const reason = {
      en: `${what.en}: at or over ${against.en}.`,
      pt: `${what.pt}: igual ou acima d${against.pt}.`,
    };
    return finding('flagged', reason, values, more);
  }
  const alone =
    best.parts.length === 1
      ? {
          en: 'No other such award lies in a window with it',
          pt: 'Nenhuma outra adjudicação assim cai numa janela com esta',
        }
      : { en: `${what.en}, under ${against.en}`, pt: `${what.pt}, abaixo d${against.pt}` };
  if (held.reading.regime === null) {
    const general = [self, ...near.parts]
      .map((p) => ({ ...p, ceiling: generalLawCeiling(p.procedure, held.works) }))
      .filter((p) => p.price < p.ceiling);
    const lowest = general.some((p) => p.contract.id === c.id) ? bestWindow(general, date, days) : null;
    if (
      lowest &&
      lowest.parts.length >= threshold(POSSIBLE_SPLITTING, 'min_contracts') &&
      lowest.total >= lowest.ceiling
    ) {
      const [total, ceiling] = [eurosSaid(lowest.total), eurosSaid(lowest.ceiling)];
      const reason = {
        en:
          `${alone.en}; under the general law's ceilings ${lowest.parts.length} of them, ${total.en}, would ` +
          `reach the ${ceiling.en} of the ${PROCEDURE_NAME[lowest.procedure]}.`,
        pt:
          `${alone.pt}; com os limites do regime geral, ${lowest.parts.length} delas, ${total.pt}, atingiriam os ` +
          `${ceiling.pt} ${PROCEDURE_OF_PT[lowest.procedure]}.`,
      };
      return finding('not_assessable', reason, values, more);
    }
  }
  if (near.unpriced.length > 0) {
    const n = near.unpriced.length;
    const reason = {
      en: `${alone.en}; but ${counted(n, 'award')} near it ${n === 1 ? 'gives' : 'give'} no price.`,
      pt:
        `${alone.pt}; mas ` +
        `${n === 1 ? 'uma adjudicação próxima não indica' : `${n} adjudicações próximas não indicam`} preço.`,
    };
    return finding('not_assessable', reason, values, more);
  }
  const widest = bestWindow([self, ...near.parts, ...near.uncertain], date, days);
  if (widest.parts.length >= 2 && widest.total >= widest.ceiling) {
    const n = near.uncertain.length;
    const reason = {
      en:
        `${alone.en}; with ${counted(n, 'award')} whose legal basis does not say whether they were ` +
        'chosen by value, it would reach it.',
      pt:
        `${alone.pt}; com ${n === 1 ? 'uma adjudicação' : `${n} adjudicações`} cujo fundamento legal não diz se ` +
        'foram escolhidas pelo valor, atingiria o limite.',
    };
    return finding('not_assessable', reason, values, more);
  }
  const [back, forward] = await Promise.all([
    holdsData(ctx, c.source, from, 'back'),
    holdsData(ctx, c.source, to, 'forward'),
  ]);
  if (!back || !forward) {
    const reason = {
      en: `${alone.en}; but the data held do not reach ${back ? to : from}: the awards beyond are unknown.`,
      pt:
        `${alone.pt}; mas os dados do serviço não chegam a ${dateSaid(back ? to : from).pt}: as adjudicações para ` +
        'lá dessa data são desconhecidas.',
    };
    return finding('not_assessable', reason, values, more);
  }
  return finding('not_flagged', { en: `${alone.en}.`, pt: `${alone.pt}.` }, values, more);
}

interface Near {
  /** Chosen by value, priced, each under its procedure's ceiling. */
  parts: Part[];
  /** Priced and under the ceiling, but the legal basis does not say whether by value. */
  uncertain: Part[];
  unpriced: ContractRecord[];
}

/**
 * The other awards that may be parts with this one: of the same pair (samePairProcedure), dated within the window
 * around this one. Each is held to its own procedure's ceiling in this contract's regime (one buyer, one regime).
 */
function nearbyAwards(
  c: ContractRecord,
  pair: readonly ContractRecord[],
  supplier: string,
  held: HeldTo,
  ctx: CheckContext,
  from: string,
  to: string,
): Near {
  const near: Near = { parts: [], uncertain: [], unpriced: [] };
  for (const x of pair) {
    const date = awardDate(x);
    if (x.id === c.id || date === null || date < from || date > to) continue;
    const procedure = samePairProcedure(x, supplier, held);
    if (procedure === null) continue;
    const criterion = awardCriterion(x.legal_basis);
    if (criterion === 'other') continue;
    if (x.price_eur === null) {
      near.unpriced.push(x);
      continue;
    }
    const ceiling = procedure === held.procedure ? held.ceiling : heldTo(c, procedure, ctx.regions).ceiling;
    if (ceiling === null || x.price_eur >= ceiling) continue;
    const part = { contract: x, date, price: x.price_eur, procedure, ceiling };
    (criterion === 'value' ? near.parts : near.uncertain).push(part);
  }
  return near;
}

interface Window {
  from: string;
  to: string;
  parts: Part[];
  total: number;
  /** The most permissive procedure among the parts, and its ceiling. */
  procedure: DirectProcedure;
  ceiling: number;
}

/**
 * Of the windows of `days` that hold the anchor's date, the one whose parts come nearest their ceiling (the sum
 * over the highest ceiling among them): each starts at a part's date on or before the anchor's.
 */
function bestWindow(parts: readonly Part[], anchor: string, days: number): Window {
  let best: Window | undefined;
  for (const start of new Set(parts.map((p) => p.date).filter((d) => d <= anchor && daysBetween(d, anchor) <= days))) {
    const end = addDays(start, days);
    const inside = parts.filter((p) => p.date >= start && p.date <= end);
    const total = inside.reduce((sum, p) => sum + p.price, 0);
    const widest = inside.reduce((most, p) => (p.ceiling > most.ceiling ? p : most));
    const last = inside.reduce((latest, p) => (p.date > latest ? p.date : latest), start);
    const window: Window = {
      from: start,
      to: last,
      parts: inside,
      total,
      procedure: widest.procedure,
      ceiling: widest.ceiling,
    };
    if (!best || total / window.ceiling > best.total / best.ceiling) best = window;
  }
  return best as Window;
}

export const POSSIBLE_SPLITTING_CHECK: IntegrityCheck = { type: POSSIBLE_SPLITTING, assess: checkPossibleSplitting };
