/**
 * Column values as record fields, the same in every store, and the two kinds of column the stores store differently.
 */

export type Row = Record<string, unknown>;

/**
 * What SQLite has no column type for, read back: a list (JSON text in SQLite, an array in PostgreSQL) and a flag
 * (0/1 in SQLite, a boolean in PostgreSQL). Each store passes its own to the shared record mappers.
 */
export interface ColumnDecoding {
  list(value: unknown): string[];
  flag(value: unknown): boolean | null;
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

/** Records built from their rows (keyed by their `id` column), in the order of `ids`; unknown ids skipped. */
export function inIdOrder<T>(ids: readonly number[], rows: readonly Row[], build: (row: Row, id: number) => T): T[] {
  const byId = new Map(rows.map((row) => [Number(row.id), build(row, Number(row.id))]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as T] : []));
}
