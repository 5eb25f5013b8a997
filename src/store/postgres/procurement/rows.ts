/**
 * What the procurement modules share: the value conversions of the SQLite store (dialect-neutral, reused so that
 * both stores shape records alike) and the PostgreSQL-specific ones.
 */
export { dateOrNull, euros, groupRows, numberOrNull, textOrNull } from '../../sqlite/procurement/sql.js';

export function booleanOrNull(value: unknown): boolean | null {
  return value === null || value === undefined ? null : Boolean(value);
}
