/**
 * CCP art. 113.º n.º 2: a supplier invited again to an ajuste direto or a consulta prévia after the buyer had
 * already awarded it, in the current and the two previous economic years, contracts by those procedures (chosen by
 * value) whose prices add up to the ceiling of the procedure used. What the data cannot tell — the exceptions of
 * n.º 3 to 5, the window before the data held — is said, never read as nothing.
 */

import { subjectName, toName, withArticle } from '../../lib/portuguese-articles.js';
import type { ContractDetailRecord, ContractRecord } from '../../store/procurement-records.js';
import { type Compared, type Finding, finding, type Said } from '../assessment.js';
import {
  awardDate,
  cents,
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
  generalLawCeiling,
  type HeldTo,
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

export const REPEATED_DIRECT_AWARDS: IntegrityType = {
  key: 'repeated_direct_awards',
  code: 'PT-ART113',
  version: 2,
  label_pt: 'Convites repetidos à mesma entidade (CCP art. 113.º n.º 2)',
  label_en: 'Repeated direct awards to one supplier (CCP art. 113.º n.º 2)',
  measures_en:
    'For an ajuste direto or a consulta prévia chosen by value: the prices of the contracts the same buyer had ' +
    'already awarded the same supplier by ajuste direto or consulta prévia chosen by value, for the same kind of ' +
    'contract (public works, or goods and services), from 1 January two economic years before to the day before ' +
    "this award, added up and compared with the ceiling of this contract's procedure in the buyer's legal regime.",
  measures_pt:
    'Para um ajuste direto ou consulta prévia escolhidos em função do valor: os preços dos contratos que ' +
    'a mesma entidade já adjudicara ao mesmo fornecedor por esses procedimentos, para o mesmo tipo de ' +
    'contrato, desde 1 de janeiro de dois anos económicos antes até à véspera desta adjudicação, somados ' +
    'e comparados com o limite do procedimento usado no regime da entidade.',
  why_it_matters_pt:
    'O CCP (art. 113.º, n.º 2) impede convidar para ajuste direto ou consulta prévia quem já recebeu, no ' +
    'ano e nos dois anteriores, contratos que somados atinjam o limite do procedimento; o indicador ' +
    'aponta onde essa regra pode não ter sido respeitada, salvo as exceções do mesmo artigo.',
  why_it_matters_en:
    'The CCP (art. 113.º n.º 2) bars inviting to a direct award or prior consultation a supplier already ' +
    "awarded, in the year and the two before, contracts that add up to the procedure's ceiling; the " +
    "indicator points to where that rule may not have been kept, save for the same article's exceptions.",
  next_step_pt:
    'Confirmar o tipo de contrato e o fundamento de cada adjudicação citada, e verificar se se aplica ' +
    'alguma exceção do art. 113.º (por exemplo, contratos de valor muito baixo ou fundamento material).',
  reads_beyond_record: true,
  fields: [
    'procedure_type',
    'ocds_method',
    'legal_basis',
    'contract_types',
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
    {
      key: 'economic_years',
      value: 3,
      unit: 'count',
      source: 'CCP art. 113.º n.º 2: the economic year in course and the two before it',
    },
    {
      key: 'ceiling_share',
      value: 1,
      unit: 'ratio',
      source:
        "CCP art. 113.º n.º 2: the sum «igual ou superior» to the procedure's ceiling (lib/direct-award-regime.ts, " +
        'docs/signals.md)',
    },
  ],
  legal_basis: {
    reference: 'CCP art. 113.º n.º 2 (as amended by DL 111-B/2017)',
    reference_pt: 'CCP art. 113.º n.º 2 (na redação do DL 111-B/2017)',
    text_pt:
      'Não pode ser convidada a entidade a quem a entidade adjudicante «já tenha adjudicado, no ano económico em ' +
      'curso e nos dois anos económicos anteriores, na sequência de consulta prévia ou ajuste direto adotados nos ' +
      'termos do disposto nas alíneas c) e d) do artigo 19.º e alíneas c) e d) do n.º 1 do artigo 20.º, consoante o ' +
      'caso, propostas para a celebração de contratos cujo preço contratual acumulado seja igual ou superior aos ' +
      'limites referidos naquelas alíneas».',
    text_en:
      'An entity may not be invited when the contracting authority has already awarded it, in the current and the ' +
      'two previous economic years, after a consulta prévia or an ajuste direto chosen by value, contracts whose ' +
      'cumulative price equals or exceeds the ceiling of those procedures.',
  },
  caveat_en:
    'What the data cannot tell: n.º 3 (for the State and the regions only the contracts of the same cabinet or ' +
    'service count) and n.º 4 (a municipality’s serviços municipalizados count apart) — the buyer is told by its tax ' +
    'number, which keeps them apart only where each has its own; n.º 5 (entities that worked or supplied free of ' +
    'charge in those years may not be invited either) — free services are not in the data. Unconfirmed: whether ' +
    'the text in force counts only contracts «of the same type or identical» to the one to award (a later ' +
    'amendment, possibly Lei 30/2021), and whether ajuste direto and consulta prévia are summed together (read ' +
    'here) or apart; whether the limit binds a procedure chosen on a material criterion (not assessed here); the ' +
    'Azores regime’s own rule on whom to invite (its ajuste direto ceiling is used). Awards are dated by the award ' +
    'decision, else signing, else publication; those of the same day cannot be ordered and are not counted (when ' +
    'they would reach the ceiling, the answer is not assessable). An ' +
    'indicator for a closer look at the procedure, not a finding of breach.',
  caveat_pt:
    'O que os dados não dizem: o n.º 3 (para o Estado e as regiões só contam os contratos do mesmo gabinete ou ' +
    'serviço) e o n.º 4 (os serviços municipalizados de um município contam à parte) — a entidade é identificada ' +
    'pelo NIF, que só os separa quando cada um tem o seu; o n.º 5 (também não podem ser convidadas entidades que ' +
    'tenham executado obras, fornecido bens ou prestado serviços a título gratuito nesses anos) — as prestações ' +
    'gratuitas não constam dos dados. Por confirmar: se o texto em vigor conta só os contratos «do mesmo tipo ou ' +
    'idênticos» ao que se vai adjudicar (uma alteração posterior, possivelmente a Lei 30/2021), e se o ajuste ' +
    'direto e a consulta prévia se somam em conjunto (como aqui) ou à parte; se o limite vincula um procedimento ' +
    'escolhido por critério material (não avaliado aqui); a regra própria do regime dos Açores sobre quem convidar ' +
    '(usa-se o seu limite do ajuste direto). As adjudicações são datadas pela decisão de adjudicação, senão pela ' +
    'celebração, senão pela publicação; as do mesmo dia não se podem ordenar e não são contadas (quando chegariam ' +
    'ao limite, a resposta é não avaliável). Um indicador para olhar com mais atenção para o procedimento, não uma ' +
    'conclusão de infração.',
};

export async function checkRepeatedDirectAwards(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const values: Compared = {
    procedure: null,
    regime: null,
    regime_told_by: null,
    ceiling_eur: null,
    window_from: null,
    awarded_on: awardDate(c),
    earlier_awards: null,
    earlier_sum_eur: null,
  };
  const procedure = procedureChosenByValue(c, values, {
    en: 'art. 113.º n.º 2 counts and limits the procedures chosen by value',
    pt: 'o art. 113.º, n.º 2, conta e limita os procedimentos escolhidos pelo valor',
  });
  if (typeof procedure !== 'string') return procedure;
  const date = awardDate(c);
  if (date === null) return finding('not_assessable', NO_AWARD_DATE, values);
  const award = pairAward(c, procedure, ctx, values);
  if ('state' in award) return award;
  const { buyer, supplier, held } = award;
  values.ceiling_eur = held.ceiling;
  const windowFrom = awardsCountedFrom(date);
  values.window_from = windowFrom;

  const pair = await pairContracts(ctx, c.source, buyer.nif, supplier.nif);
  if (pair === null) return finding('not_assessable', TOO_MANY, values);
  const pairKey = { source: c.source, buyer: buyer.nif, supplier: supplier.nif };
  const inWindow = await pairAwardedWithin(ctx, pairKey, pair, windowFrom, date);
  const earlier = earlierAwards(c, inWindow, supplier.nif, held, windowFrom, date);
  const sum = earlier.counted.reduce((total, x) => total + (x.price_eur as number), 0);
  values.earlier_awards = earlier.counted.length;
  values.earlier_sum_eur = cents(sum);
  const more = {
    cites: largest([...earlier.counted, ...earlier.unpriced, ...earlier.unreadable]),
    corpus: {
      earlier_awards: earlier.counted.length,
      earlier_without_price: earlier.unpriced.length,
      earlier_unreadable_basis: earlier.unreadable.length,
      same_day_awards: earlier.sameDay,
    },
  };
  const ceiling = held.ceiling;
  const limit = ceiling * threshold(REPEATED_DIRECT_AWARDS, 'ceiling_share');
  const kind = kindWords(held.works);
  const regime = regimeWords(held.reading);
  // None is said as none ("had awarded … no contract", "não tinha adjudicado … nenhum contrato"), not as `0 contracts`.
  const n = earlier.counted.length;
  const total = eurosSaid(sum);
  // What the buyer had awarded, after its name: the name opens a sentence here, and follows a phrase in the flag's.
  const awardedPt =
    `${n === 0 ? 'não ' : ''}tinha adjudicado ${toName(supplier.name)} ` +
    `${n === 0 ? 'nenhum contrato' : counted(n, 'contrato')} de ${kind.pt} por ajuste direto ou consulta prévia ` +
    `${n === 0 ? 'escolhido' : 'escolhidos'} pelo valor de ${dateSaid(windowFrom).pt} até antes de ` +
    `${dateSaid(date).pt}${n === 0 ? ` (${total.pt})` : `: ${total.pt}`}`;
  const what = {
    en:
      `${buyer.name} had awarded ${supplier.name} ${n === 0 ? 'no contract' : counted(n, 'contract')} for ` +
      `${kind.en} by ajuste direto or consulta prévia chosen by value from ${windowFrom} to before ` +
      `${date}${n === 0 ? ` (${total.en})` : `: ${total.en}`}`,
    pt: `${subjectName(buyer.name)} ${awardedPt}`,
  };
  const against = {
    en: `the ${eurosSaid(ceiling).en} ceiling of the ${PROCEDURE_NAME[procedure]} for ${kind.en} under ${regime.en}`,
    pt: `o limite de ${eurosSaid(ceiling).pt} ${PROCEDURE_OF_PT[procedure]} para ${kind.pt} ${regime.pt}`,
  };
  /** `what`, under `against`, then the rest of the sentence in each language. */
  const under = (en: string, pt: string): Said => ({
    en: `${what.en}, under ${against.en}${en}`,
    pt: `${what.pt}, abaixo d${against.pt}${pt}`,
  });
  if (sum >= limit) {
    const reason = {
      en: `In the data held, ${what.en}, reaching ${against.en}.`,
      pt: `Nos dados do serviço, ${withArticle(buyer.name)} ${awardedPt}, o que atinge ${against.pt}.`,
    };
    return finding('flagged', reason, values, more);
  }
  if (held.reading.regime === null) {
    const lowest = generalLawCeiling(procedure, held.works) * threshold(REPEATED_DIRECT_AWARDS, 'ceiling_share');
    if (sum >= lowest) {
      const reason = under(
        `; under the general law's ${eurosSaid(lowest).en} it would reach it.`,
        `; com os ${eurosSaid(lowest).pt} do regime geral chegaria ao limite.`,
      );
      return finding('not_assessable', reason, values, more);
    }
  }
  if (earlier.unpriced.length > 0) {
    const n = earlier.unpriced.length;
    const reason = under(
      `; but ${counted(n, 'earlier award')} give${n === 1 ? 's' : ''} no price.`,
      `; mas ${n === 1 ? 'uma adjudicação anterior não indica' : `${n} adjudicações anteriores não indicam`} preço.`,
    );
    return finding('not_assessable', reason, values, more);
  }
  const unreadable = earlier.unreadable.reduce((total, x) => total + (x.price_eur as number), 0);
  if (sum + unreadable >= limit) {
    const n = earlier.unreadable.length;
    const reason = under(
      `; with ${counted(n, 'earlier award')} whose legal basis does not say whether they were chosen by value, it ` +
        'would reach it.',
      `; com ${n === 1 ? 'uma adjudicação anterior' : `${n} adjudicações anteriores`} cujo fundamento legal não diz ` +
        'se foram escolhidas pelo valor, chegaria ao limite.',
    );
    return finding('not_assessable', reason, values, more);
  }
  if (sum + earlier.sameDayEuros >= limit) {
    const n = earlier.sameDay;
    const reason = under(
      `; with ${counted(n, 'award')} of the same day, whose order the data do not give, it would reach it.`,
      `; com ${n === 1 ? 'uma adjudicação' : `${n} adjudicações`} do mesmo dia, cuja ordem os dados não dão, ` +
        'chegaria ao limite.',
    );
    return finding('not_assessable', reason, values, more);
  }
  if (!(await holdsData(ctx, c.source, windowFrom, 'back'))) {
    const reason = under(
      `; but the data held do not reach back to ${windowFrom}: the awards before them are unknown.`,
      `; mas os dados do serviço não recuam até ${dateSaid(windowFrom).pt}: as adjudicações anteriores são ` +
        'desconhecidas.',
    );
    return finding('not_assessable', reason, values, more);
  }
  return finding('not_flagged', under('.', '.'), values, more);
}

/**
 * The first day whose awards art. 113.º n.º 2 counts against an award of `date`: the economic year in course and the
 * two before it. The detector's scope reads it too, to find the awards a new one counts against (integrity-reach.ts).
 */
export function awardsCountedFrom(date: string): string {
  return `${Number(date.slice(0, 4)) - threshold(REPEATED_DIRECT_AWARDS, 'economic_years') + 1}-01-01`;
}

interface Earlier {
  /** Chosen by value, with a price: summed. */
  counted: ContractRecord[];
  /** Chosen by value (or it cannot be told), without a price: they would make a sum under the ceiling uncertain. */
  unpriced: ContractRecord[];
  /** With a price, but a legal basis that does not say whether by value. */
  unreadable: ContractRecord[];
  sameDay: number;
  /** The prices of those of the same day (chosen by value, or it cannot be told): which came first is unknown. */
  sameDayEuros: number;
}

/**
 * The awards art. 113.º n.º 2 counts before this one: of the same pair (samePairProcedure), dated in the window and
 * before this contract's day.
 */
function earlierAwards(
  c: ContractRecord,
  pair: readonly ContractRecord[],
  supplier: string,
  held: HeldTo,
  windowFrom: string,
  date: string,
): Earlier {
  const out: Earlier = { counted: [], unpriced: [], unreadable: [], sameDay: 0, sameDayEuros: 0 };
  for (const x of pair) {
    const on = awardDate(x);
    if (x.id === c.id || on === null || on < windowFrom || on > date) continue;
    if (samePairProcedure(x, supplier, held) === null) continue;
    const criterion = awardCriterion(x.legal_basis);
    if (criterion === 'other') continue;
    if (on === date) {
      out.sameDay += 1;
      out.sameDayEuros += x.price_eur ?? 0;
    } else if (x.price_eur === null) out.unpriced.push(x);
    else if (criterion === 'unknown') out.unreadable.push(x);
    else out.counted.push(x);
  }
  return out;
}

export const REPEATED_DIRECT_AWARDS_CHECK: IntegrityCheck = {
  type: REPEATED_DIRECT_AWARDS,
  assess: checkRepeatedDirectAwards,
};
