/**
 * Date ranges, the same for every store: the bounds a date filter applies, and the whole months of a range with
 * the partly covered months at its ends (the rollups answer the first, the contracts themselves the second).
 */
import type { Params } from '../sql/params.js';

/**
 * The whole months of a date range (as `YYYY-MM` bounds for BETWEEN) and the partial months at its ends. No
 * bound at all includes the contracts without a date (month ''); any bound excludes them.
 */
export function splitByMonth(from: string | undefined, to: string | undefined) {
  const lo =
    from === undefined ? (to === undefined ? '' : '0000-00') : isFirstDay(from) ? from.slice(0, 7) : nextMonth(from);
  const hi = to === undefined ? '9999-99' : isLastDay(to) ? to.slice(0, 7) : previousMonth(to);
  const edges: { from: string; to: string }[] = [];
  if (from !== undefined && to !== undefined && from.slice(0, 7) === to.slice(0, 7)) {
    if (!(isFirstDay(from) && isLastDay(to))) edges.push({ from, to });
  } else {
    if (from !== undefined && !isFirstDay(from)) edges.push({ from, to: lastDay(from) });
    if (to !== undefined && !isLastDay(to)) edges.push({ from: `${to.slice(0, 7)}-01`, to });
  }
  return { months: { lo, hi }, edges };
}

const isFirstDay = (date: string) => date.endsWith('-01');
const isLastDay = (date: string) => date === lastDay(date);

function lastDay(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return `${date.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function previousMonth(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * The bounds a date filter applies (`YYYY-MM-DD`, inclusive). Records without a date are stored as '' (they order
 * last): any bound excludes them, so a filter with only an upper bound still has a lower one.
 */
export function dateBounds(from: string | undefined, to: string | undefined): { lower?: string; upper?: string } {
  return from === undefined && to === undefined ? {} : { lower: from ?? '0000-01-01', upper: to };
}

/** The conditions of a date filter on a column, their bounds added to the statement's parameters. */
export function dateRange(from: string | undefined, to: string | undefined) {
  const { lower, upper } = dateBounds(from, to);
  return {
    on(column: string, p: Params): string[] {
      const conditions: string[] = [];
      if (lower !== undefined) conditions.push(`${column} >= ${p.add(lower)}`);
      if (upper !== undefined) conditions.push(`${column} <= ${p.add(upper)}`);
      return conditions;
    },
  };
}
