/**
 * Lists ordered by an instant descending then id descending (signals and cases by last_seen_at, alert matches by
 * matched_at), as in the SQLite store (see its instant-keyset.ts): each filter value with an index in that order
 * is a source, read in list order and stopped after a page. PostgreSQL merges the sources' pages, each
 * parenthesised with its own ORDER BY and LIMIT (a Merge Append), in one statement.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import type { InstantPosition } from '../../signal-queries.js';
import { Params, type Sql } from '../db.js';

export interface InstantQuery {
  /** The list's table, its alias and instant column (`signals`, `s`, `last_seen_at`). */
  table: string;
  alias: string;
  column: string;
  /** Each source's own conditions (one entry per source; at least one). */
  sources: ((p: Params) => string[])[];
  /** Conditions every row must meet besides each source's own. */
  residual: (p: Params) => string[];
  /** Inclusive lower bound on the instant. */
  since?: string;
  page: KeysetPage<InstantPosition>;
}

export function instantPageSql(query: InstantQuery): { text: string; values: unknown[] } {
  const { alias, column, page } = query;
  const p = new Params();
  const limit = p.add(page.limit);
  const common = query.residual(p);
  if (query.since !== undefined) common.push(`${alias}.${column} >= ${p.add(query.since)}`);
  if (page.after) common.push(`(${alias}.${column}, ${alias}.id) < (${p.add(page.after.at)}, ${p.add(page.after.id)})`);
  const arms = query.sources.map((own) => {
    const where = [...own(p), ...common];
    return (
      `SELECT ${alias}.id AS id, ${alias}.${column} AS at FROM ${query.table} ${alias}` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY ${alias}.${column} DESC, ${alias}.id DESC LIMIT ${limit}`
    );
  });
  const text = arms.length === 1 ? arms[0] : `${arms.map((a) => `(${a})`).join(' UNION ALL ')} ORDER BY at DESC, id DESC LIMIT ${limit}`;
  return { text, values: p.values };
}

export async function readInstantIds(sql: Sql, query: InstantQuery): Promise<number[]> {
  const { text, values } = instantPageSql(query);
  return (await sql(text, values)).map((row) => Number(row.id));
}

/** Each distinct filter value once. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
