/**
 * Lists ordered by an instant descending then id descending (signals and cases by last_seen_at, alert matches by
 * matched_at), read with the procurement keyset machinery (../procurement/keyset.ts): an RFC 3339 instant in one
 * format sorts as text, like a date. Each filter value with an index in that order is a source; `since` bounds
 * the source's own instant column, so that it and the source's equalities are one index range.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import type { InstantPosition } from '../../signal-queries.js';
import { type KeysetQuery, type OrderedSource, readKeyset } from '../procurement/keyset.js';
import type { Params, Sql } from '../procurement/sql.js';

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

/** The keyset query of a page; exported for the tests that EXPLAIN it. */
export function instantKeysetQuery(query: InstantQuery): KeysetQuery {
  const { after, limit } = query.page;
  const since = query.since === undefined ? [] : [`${query.alias}.${query.column} >= @since`];
  return {
    select: `${query.alias}.id AS id, ${query.alias}.${query.column} AS date`,
    direction: 'desc',
    where: () => [...since, ...query.residual],
    params: query.since === undefined ? query.params : { ...query.params, since: query.since },
    page: { limit, after: after && { date: after.at, id: after.id } },
  };
}

/** The ids of one page, in list order. */
export function readInstantIds(sql: Sql, sources: readonly OrderedSource[], query: InstantQuery): number[] {
  return readKeyset(sql, sources, instantKeysetQuery(query)).map((row) => Number(row.id));
}

/** A source reading `index` (named, so the planner never trades the order for another range) under `alias`. */
export function indexSource(table: string, alias: string, index: string, column: string, where: string[], params: Params): OrderedSource {
  return { from: `${table} ${alias} INDEXED BY ${index}`, date: `${alias}.${column}`, id: `${alias}.id`, where, params };
}

/** Each distinct filter value once: a value given twice is one source, not two. */
export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
