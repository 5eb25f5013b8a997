/**
 * What is left of SQLite's keyset module: the date bounds that ./aggregate.ts still takes as named parameters.
 * The keyset lists themselves are written once (../../procurement/keyset.ts); this file goes when the aggregate
 * is written once over the port too (it can then take `dateRange` from there).
 */
import { dateBounds } from '../../shared/date-ranges.js';
import type { Params } from './sql.js';

/**
 * Inclusive date bounds, as parameters and as conditions on a column. A bounded range never includes unknown
 * dates (stored as '').
 */
export function dateRange(from: string | undefined, to: string | undefined, name: string) {
  const { lower, upper } = dateBounds(from, to);
  const params: Params = {};
  if (lower !== undefined) params[`${name}From`] = lower;
  if (upper !== undefined) params[`${name}To`] = upper;
  return {
    params,
    on(column: string): string[] {
      const conditions: string[] = [];
      if (params[`${name}From`] !== undefined) conditions.push(`${column} >= @${name}From`);
      if (params[`${name}To`] !== undefined) conditions.push(`${column} <= @${name}To`);
      return conditions;
    },
  };
}
