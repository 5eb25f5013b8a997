/** What the procurement modules share: the store's statement cache, row and parameter types, small helpers. */
import type Database from 'better-sqlite3';
import type { ColumnDecoding } from '../../shared/row-values.js';
import { SQLITE_DIALECT } from '../connection.js';

/** A prepared statement for this SQL text, from the store's cache (preparing is the costly part). */
export type Sql = (text: string) => Database.Statement;

export { dateOrNull, euros, groupRows, numberOrNull, type Row, textOrNull } from '../../shared/row-values.js';
export type Params = Record<string, unknown>;

/** A list of values bound as one JSON parameter and read with `json_each`: the SQL text stays the same for any length. */
export function jsonList(values: readonly unknown[]): string {
  return JSON.stringify(values);
}

/** SQLite's lists are JSON text and its flags 0 or 1 (the dialect's decoding). */
export const SQLITE_COLUMNS: ColumnDecoding = SQLITE_DIALECT.columns;
