/**
 * What the console's records need from a SQL driver: statements with `?` parameters, their rows, and a
 * transaction. Both stores hand one over (sqlite-store.ts, postgres-store.ts); the console's SQL is written once
 * against it (console-sql-store.ts), in the subset both dialects share.
 */
export type SqlRow = Record<string, unknown>;

export interface ConsoleSql {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs one statement (`?` placeholders) and gives its rows (none for a statement without RETURNING). */
  rows(text: string, params?: readonly unknown[]): Promise<SqlRow[]>;
  /** Runs `work` in one transaction: all of it or (on any error) none of it. */
  transaction<T>(work: (sql: ConsoleSql) => Promise<T>): Promise<T>;
}

/** `?` → `$1`, `$2`, … for PostgreSQL (the console's SQL has no `?` inside string literals). */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}
