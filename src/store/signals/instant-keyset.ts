/**
 * Lists ordered by an instant descending then id descending (signals and cases by last_seen_at, alert matches by
 * matched_at). An RFC 3339 instant in one format sorts as text, so a position is (instant, id), and each filter
 * value with an index in that order (a municipality, a type) is a source: one index range read in list order.
 * `since` bounds the instant column, so that it and the source's equalities are one range.
 *
 * Several sources are merged by the database (`dialect.mergeOrdered`), reading each arm in step from its index
 * and stopping after a page: a page over fifty municipalities reads about a page of rows, not fifty pages. The
 * values a source stands for are disjoint (a signal has one municipality and one type), so no row is met twice.
 */
import type { KeysetPage } from '../procurement-queries.js';
import type { InstantPosition } from '../signal-queries.js';
import { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';

export interface InstantSource {
  /** The index the source reads, in list order. */
  index: string;
  /** The conditions that make it this source. */
  where: (p: Params) => string[];
}

export interface InstantQuery {
  /** The list's table, its alias and instant column (`signals`, `s`, `last_seen_at`). */
  table: string;
  alias: string;
  column: string;
  /** At least one. */
  sources: InstantSource[];
  /** Conditions every row must meet besides each source's own: the filters no source applies. */
  residual: (p: Params) => string[];
  /** Inclusive lower bound on the instant. */
  since?: string;
  page: KeysetPage<InstantPosition>;
}

/** The SQL of one page over its sources; exported for the tests that EXPLAIN it. */
export function instantPageSql(dialect: Dialect, query: InstantQuery): { text: string; values: unknown[] } {
  const { alias, column, page } = query;
  const p = new Params();
  const limit = p.add(page.limit);
  const common = query.residual(p);
  if (query.since !== undefined) common.push(`${alias}.${column} >= ${p.add(query.since)}`);
  if (page.after) common.push(`(${alias}.${column}, ${alias}.id) < (${p.add(page.after.at)}, ${p.add(page.after.id)})`);
  const arms = query.sources.map((source) => {
    const where = [...source.where(p), ...common];
    return (
      `SELECT ${alias}.id AS id, ${alias}.${column} AS at FROM ${dialect.indexed(query.table, alias, source.index)}` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '')
    );
  });
  const text = dialect.mergeOrdered(arms, `${alias}.${column} DESC, ${alias}.id DESC`, 'at DESC, id DESC', limit);
  return { text, values: p.values };
}

/** The ids of one page, in list order. */
export async function readInstantIds(port: SqlPort, query: InstantQuery): Promise<number[]> {
  const { text, values } = instantPageSql(port.dialect, query);
  return (await port.query(text, values)).map((row) => Number(row.id));
}

/** Each distinct filter value once: a value given twice is one source, not two. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
