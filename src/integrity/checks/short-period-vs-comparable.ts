/**
 * PT-R003-FENCE: a submission period short for its kind of procedure. Cardinal's R003 compares every procedure with
 * one number; an urgent public tender and a works tender are not alike, so this compares the period with those of
 * comparable procedures — notices of the same source, procedure type and contract types, published in the same
 * calendar year — and flags it at or below their lower Tukey fence, computed as Cardinal computes its fences.
 */

import type { NoticePeriodCount } from '../../store/procurement-queries.js';
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { procedureKey } from '../../store/shared/procurement-keys.js';
import { type Finding, finding } from '../assessment.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { periodUnknown, type SubmissionPeriod, submissionPeriod } from '../notice-period.js';
import { lowerFence, roundStat } from '../quartiles.js';
import { counted, decimalPt } from '../said.js';

export const SHORT_PERIOD_VS_COMPARABLE: IntegrityType = {
  key: 'short_submission_period_vs_comparable',
  code: 'PT-R003-FENCE',
  version: 1,
  label_pt: 'Prazo para propostas curto face a procedimentos comparáveis',
  label_en: 'Submission period short for comparable procedures',
  measures_en:
    "The notice's submission period (calendar days from publication to the proposal deadline) against the lower " +
    'fence (Q1 − 1.5 × IQR, Hyndman–Fan type 8 quartiles, as Cardinal) of the periods of comparable procedures: ' +
    'notices of the same source, procedure type and contract types published in the same calendar year.',
  measures_pt:
    'O prazo de apresentação de propostas do anúncio (dias de calendário da publicação ao termo do prazo) ' +
    'face à barreira inferior (Q1 − 1,5 × AIQ, quartis do tipo 8 de Hyndman–Fan, como no Cardinal) dos ' +
    'prazos de procedimentos comparáveis: anúncios da mesma fonte, tipo de procedimento e tipos de ' +
    'contrato publicados no mesmo ano civil.',
  why_it_matters_pt:
    'Um prazo muito mais curto do que o de procedimentos comparáveis pode favorecer quem já conhecia o ' +
    'procedimento; a comparação é estatística, não legal.',
  why_it_matters_en:
    "A period much shorter than comparable procedures' may favour whoever knew of the procedure in " +
    'advance; the comparison is statistical, not legal.',
  next_step_pt:
    'Comparar o prazo com o de outros procedimentos da mesma entidade e do mesmo tipo, e verificar se o ' +
    'anúncio justifica a urgência.',
  reads_beyond_record: true,
  fields: [
    'announcement_id',
    'announcement.published_on',
    'announcement.deadline_on',
    'announcement.procedure_type',
    'announcement.contract_types',
  ],
  thresholds: [
    {
      key: 'fence_iqr_multiplier',
      value: 1.5,
      unit: 'ratio',
      source: "Tukey's fence, as Cardinal's lower fences (Q1 − 1.5 × IQR; open-contracting/cardinal-rs)",
    },
    {
      key: 'min_comparables',
      value: 20,
      unit: 'count',
      source: "munidata's default, as Cardinal's minimum of 20 contracting processes for R048",
    },
  ],
  legal_basis: null,
  caveat_en:
    'A statistical comparison, not the law: a period can be lawful and still short for its kind. Comparable means ' +
    'the same procedure type and the same list of contract types as published, not the same complexity.',
  caveat_pt:
    'Uma comparação estatística, não a lei: um prazo pode ser lícito e ainda assim curto para o seu tipo. Comparável ' +
    'quer dizer o mesmo tipo de procedimento e a mesma lista de tipos de contrato tal como publicados, não a mesma ' +
    'complexidade.',
};

/** The comparable group of a notice: its procedure type (folded) and its list of contract types. */
export const groupKey = (procedure: string, types: readonly string[]) =>
  JSON.stringify([procedureKey(procedure), [...types].sort()]);

/** The fence of a comparable group's ascending periods. */
export const comparableFence = (sorted: readonly number[]) =>
  lowerFence(sorted, threshold(SHORT_PERIOD_VS_COMPARABLE, 'fence_iqr_multiplier'));

/** The check's verdict on a period against its group's fence (a fence not above 0 judges no period short). */
export function isShortAgainst(days: number, fence: { lower_fence: number; q1: number }): boolean {
  return fence.lower_fence > 0 && days <= fence.lower_fence && days < fence.q1;
}

/**
 * The comparable group of a period of the corpus, or null: a notice without a procedure type or with a deadline
 * before its publication compares with nothing.
 */
export const comparableGroup = (row: NoticePeriodCount): string | null =>
  row.procedure_type === null || row.days < 0 ? null : groupKey(row.procedure_type, row.contract_types);

/** Ascending periods per comparable group, of one source and year: read once per data version (corpus.ts). */
function yearPeriods(ctx: CheckContext, source: string, year: string) {
  return ctx.corpus.noticePeriods(source, year, comparableGroup);
}

export async function checkShortPeriodVsComparable(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const answer = await submissionPeriod(c, ctx);
  const notice = answer.period?.notice;
  const values = {
    announcement_id: c.announcement_id,
    period_days: answer.period?.days ?? null,
    procedure_type: notice?.procedure_type ?? null,
    contract_types: notice ? notice.contract_types.join('; ') : null,
    year: answer.period?.published_on.slice(0, 4) ?? null,
  };
  if (!answer.period) return finding('not_assessable', periodUnknown(answer.missing), values);
  if (!notice?.procedure_type) {
    const reason = {
      en: 'The notice gives no procedure type: nothing to compare it with.',
      pt: 'O anúncio não indica o tipo de procedimento: não há com que o comparar.',
    };
    return finding('not_assessable', reason, values);
  }
  return compare(
    answer.period,
    notice.procedure_type,
    await yearPeriods(ctx, notice.source, values.year ?? ''),
    values,
  );
}

function compare(
  period: SubmissionPeriod,
  procedure: string,
  groups: ReadonlyMap<string, readonly number[]>,
  values: Record<string, number | string | null>,
): Finding {
  const { notice, days } = period;
  const comparables = groups.get(groupKey(procedure, notice.contract_types)) ?? [];
  const what = {
    en:
      `notices of a ${procedure} for ${notice.contract_types.join(', ') || 'no stated contract type'} ` +
      `published in ${values.year}`,
    pt:
      `anúncios de ${procedure} para ${notice.contract_types.join(', ') || 'nenhum tipo de contrato indicado'} ` +
      `publicados em ${values.year}`,
  };
  const needed = threshold(SHORT_PERIOD_VS_COMPARABLE, 'min_comparables');
  if (comparables.length < needed) {
    const reason = {
      en: `Only ${comparables.length} ${what.en} give both dates; the comparison needs ${needed}.`,
      pt: `Só ${comparables.length} ${what.pt} indicam as duas datas; a comparação precisa de ${needed}.`,
    };
    return finding('not_assessable', reason, values, { corpus: { comparables: comparables.length } });
  }
  const fence = comparableFence(comparables);
  const corpus = {
    comparables: comparables.length,
    q1: roundStat(fence.q1),
    q3: roundStat(fence.q3),
    lower_fence: roundStat(fence.lower_fence),
  };
  const fenceOf = {
    en: `the lower fence of the ${corpus.comparables} ${what.en} (${corpus.lower_fence} days`,
    pt: `a barreira inferior dos ${corpus.comparables} ${what.pt} (${decimalPt(corpus.lower_fence)} dias`,
  };
  const quartiles = {
    en: `Q1 ${corpus.q1}, Q3 ${corpus.q3}`,
    pt: `Q1 ${decimalPt(corpus.q1)}, Q3 ${decimalPt(corpus.q3)}`,
  };
  // Cardinal's guard: no flag when the fence is not above 0 (its quartiles say nothing of short periods). At or
  // below the fence (inclusive, as Cardinal compares), and under Q1, which only matters when Q1 = Q3: the fence
  // is then the common period itself, and a period equal to it is not unusual.
  const span = { en: `${days} days`, pt: counted(days, 'dia') };
  if (fence.lower_fence <= 0) {
    const reason = {
      en: `${span.en}; ${fenceOf.en}; ${quartiles.en}) is not above 0: no period is short for them.`,
      pt: `${span.pt}; ${fenceOf.pt}; ${quartiles.pt}) não é superior a 0: nenhum prazo é curto para eles.`,
    };
    return finding('not_flagged', reason, values, { corpus });
  }
  if (isShortAgainst(days, fence)) {
    const reason = {
      en: `${span.en}: at or below ${fenceOf.en}; ${quartiles.en}).`,
      pt: `${span.pt}: igual ou abaixo d${fenceOf.pt}; ${quartiles.pt}).`,
    };
    return finding('flagged', reason, values, { corpus });
  }
  const above = days > fence.lower_fence;
  const reason = {
    en: `${span.en}: ${above ? 'above' : 'the common period (Q1 = Q3), at'} ${fenceOf.en}; ${quartiles.en}).`,
    pt: `${span.pt}: ${above ? 'acima d' : 'o prazo comum (Q1 = Q3), n'}${fenceOf.pt}; ${quartiles.pt}).`,
  };
  return finding('not_flagged', reason, values, { corpus });
}

export const SHORT_PERIOD_VS_COMPARABLE_CHECK: IntegrityCheck = {
  type: SHORT_PERIOD_VS_COMPARABLE,
  assess: checkShortPeriodVsComparable,
};
