/**
 * What the procurement modules share: the dialect-neutral value conversions (shared/row-values.ts) and the
 * PostgreSQL-specific ones.
 */
import type { ColumnDecoding } from '../../shared/row-values.js';

export { dateOrNull, euros, groupRows, numberOrNull, textOrNull } from '../../shared/row-values.js';

export function booleanOrNull(value: unknown): boolean | null {
  return value === null || value === undefined ? null : Boolean(value);
}

/** PostgreSQL hands back lists as arrays and flags as booleans. */
export const POSTGRES_COLUMNS: ColumnDecoding = { list: (value) => value as string[], flag: booleanOrNull };
