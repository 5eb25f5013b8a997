/**
 * Lists ordered by an instant descending then id descending (signals and cases by last_seen_at, alert matches by
 * matched_at). An RFC 3339 instant in one format sorts as text, so a position is (instant, id) as for the
 * procurement lists (../procurement/keyset.ts), and each filter value with an index in that order (a
 * municipality, a type) is a source: one index range read in list order. `since` bounds the instant column, so
 * that it and the source's equalities are one range.
 *
 * Several sources are merged by the database rather than here: one compound query whose arms it reads in step,
 * each from its index, stopping after a page (SQLite: MERGE (UNION ALL) of co-routines). A page over fifty
 * municipalities then reads about a page of rows, not fifty pages. The values a source stands for are disjoint
 * (a signal has one municipality and one type), so no row is met twice.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import type { InstantPosition } from '../../signal-queries.js';
import type { OrderedSource } from '../procurement/keyset.js';
import type { Params, Row, Sql } from '../procurement/sql.js';

export interface InstantQuery {
  /** The list's table alias and instant column, as every source names them (`s`, `last_seen_at`). */
  alias: string;
  column: string;
  /** Conditions every row must meet besides each source's own: the filters no source applies. */
  residual: string[];
  params: Params;
  /** Inclusive lower bound on the instant. */
  since?: string;
  page: KeysetPage<InstantPosition>;
}

/** The SQL of one page over its sources; exported for the tests that EXPLAIN it. */
export function instantPageSql(sources: readonly OrderedSource[], query: InstantQuery): { text: string; params: Params } {
  const { alias, column, page } = query;
  const conditions = [...query.residual];
  const params: Params = { ...query.params, limit: page.limit };
  if (query.since !== undefined) {
    conditions.push(`${alias}.${column} >= @since`);
    params.since = query.since;
  }
  if (page.after) {
    conditions.push(`(${alias}.${column}, ${alias}.id) < (@afterAt, @afterId)`);
    params.afterAt = page.after.at;
    params.afterId = page.after.id;
  }
  const arms = sources.map((source) => {
    Object.assign(params, source.params);
    const where = [...source.where, ...conditions];
    return `SELECT ${alias}.id AS id, ${alias}.${column} AS at FROM ${source.from}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
  });
  return { text: mergeDescending(arms), params };
}

/**
 * Arms (each yielding `id` and `at`, each in the order of its index) as one list, newest first, a page long.
 * Dialect-specific: SQLite pushes the compound's ORDER BY into each arm and merges them lazily; PostgreSQL wants
 * each arm parenthesised with its own ORDER BY and LIMIT to plan a Merge Append.
 */
function mergeDescending(arms: readonly string[]): string {
  return `${arms.join(' UNION ALL ')} ORDER BY at DESC, id DESC LIMIT @limit`;
}

/** The ids of one page, in list order. */
export function readInstantIds(sql: Sql, sources: readonly OrderedSource[], query: InstantQuery): number[] {
  const { text, params } = instantPageSql(sources, query);
  return (sql(text).all(params) as Row[]).map((row) => Number(row.id));
}

/** A source reading `index` (named, so the planner never trades the order for another range) under `alias`. */
export function indexSource(table: string, alias: string, index: string, column: string, where: string[], params: Params): OrderedSource {
  return { from: `${table} ${alias} INDEXED BY ${index}`, date: `${alias}.${column}`, id: `${alias}.id`, where, params };
}

/** Each distinct filter value once: a value given twice is one source, not two. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
