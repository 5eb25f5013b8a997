/** What the procurement modules share: the store's statement cache, row and parameter types, small helpers. */
import type Database from 'better-sqlite3';

/** A prepared statement for this SQL text, from the store's cache (preparing is the costly part). */
export type Sql = (text: string) => Database.Statement;

export type Row = Record<string, unknown>;
export type Params = Record<string, unknown>;

/** A list of values bound as one JSON parameter and read with `json_each`: the SQL text stays the same for any length. */
export function jsonList(values: readonly unknown[]): string {
  return JSON.stringify(values);
}

/** SQLite stores an unknown ordering date as '' (see the migration); records show it as null. */
export function dateOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function booleanOrNull(value: unknown): boolean | null {
  return value === null || value === undefined ? null : value === 1;
}

/** Euros rounded to cents (sums of REAL columns carry binary noise). */
export function euros(value: unknown): number {
  return Math.round(Number(value ?? 0) * 100) / 100;
}

/** Rows grouped by a key, keeping their order. */
export function groupRows<K>(rows: readonly Row[], keyOf: (row: Row) => K): Map<K, Row[]> {
  const groups = new Map<K, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
