/**
 * The days a notice gives to submit proposals, by procedure and kind of contract (docs/data.md, "The demo dataset"),
 * and the days of a notice cut short (the shortPeriod pattern, docs/integrity.md "On the demo data"). Tenders of one
 * kind cluster, as a buyer's usual periods do, so that a period far under its kind's stands out to PT-R003-FENCE.
 */
import { NOTICE_DAYS, SHORT_NOTICE_DAYS } from './integrity-patterns.js';
import type { ContractKind, Procedure } from './procedures.js';

/** A whole number in [lo, hi] from a uniform u in [0, 1), as Rng.int draws it. */
export const evenly = ([lo, hi]: readonly [number, number], u: number): number => lo + Math.floor(u * (hi - lo + 1));

/** The days of a notice of this procedure, from one uniform draw. */
export function noticeDays(u: number, procedure: Procedure, kind: ContractKind): number {
  if (procedure.key === 'cpub_urgent') return evenly(NOTICE_DAYS.urgent, u);
  if (procedure.method === 'selective') return evenly(NOTICE_DAYS.restricted, u);
  return evenly(kind === 'works' ? NOTICE_DAYS.tenderWorks : NOTICE_DAYS.tender, u);
}

/** The days of a concurso público's notice cut short, from one uniform draw. */
export function shortNoticeDays(u: number, kind: ContractKind): number {
  return evenly(kind === 'works' ? SHORT_NOTICE_DAYS.works : SHORT_NOTICE_DAYS.other, u);
}
