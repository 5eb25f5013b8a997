import { Type } from '@sinclair/typebox';
import { DateString } from '../../core/schemas.js';
import type { PlanRecord } from '../../store/records.js';
import { checkRange } from './ranges.js';

/** The ends of a `from`/`to` range as inputs: `what` names the date they bound. */
const dateBound = (description: string) => Type.Optional({ ...DateString, description });
export const FromDate = (what: string) => dateBound(`First ${what} included (YYYY-MM-DD).`);
export const ToDate = (what: string) => dateBound(`Last ${what} included (YYYY-MM-DD).`);

export interface DateRange {
  readonly from?: string;
  readonly to?: string;
}

/**
 * The `from`/`to` of a time series as the caller's plan serves it: 422 when `from` is after `to`, and `from`
 * raised to the start of the plan's `history_years` window, not refused (docs/api.md, "History"). Procurement's
 * `from`/`to` filter records by their own dates and take no window, so they check the order alone (`checkRange`).
 */
export function seriesRange(input: DateRange, plan: PlanRecord, now: Date): DateRange {
  checkRange(input.from, input.to, 'from', 'to');
  const windowStart = historyWindowStart(now, plan.history_years);
  const clamped = windowStart !== undefined && (input.from === undefined || input.from < windowStart);
  return { from: clamped ? windowStart : input.from, to: input.to };
}

/**
 * The earliest reference date a plan's `history_years` lets a caller see: the same calendar day, that many
 * years ago (undefined: no limit). Year 2021 (2021-12-31) is inside a 5-year window on 2026-11-21.
 */
function historyWindowStart(now: Date, historyYears: number | null): string | undefined {
  if (historyYears === null) return undefined;
  const start = new Date(now);
  start.setUTCFullYear(start.getUTCFullYear() - historyYears);
  return start.toISOString().slice(0, 10);
}
