/**
 * What the procurement modules share: the dialect-neutral value conversions (shared/row-values.ts) and the
 * PostgreSQL-specific ones.
 */
import type { ColumnDecoding } from '../../shared/row-values.js';
import { POSTGRES_DIALECT } from '../db.js';

export { dateOrNull, euros, groupRows, numberOrNull, textOrNull } from '../../shared/row-values.js';

/** PostgreSQL hands back lists as arrays and flags as booleans (the dialect's decoding). */
export const POSTGRES_COLUMNS: ColumnDecoding = POSTGRES_DIALECT.columns;
