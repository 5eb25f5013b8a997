/**
 * Keyset lists over ordered sources. A list is ordered by (date, id) — descending or ascending — and each filter
 * that has an index in that order (a municipality, a party, a CPV division, …) is a *source*: an index range read
 * in list order and stopped after one page. A filter with several values (three municipalities) is several
 * sources; their pages are merged here. Whatever a source does not narrow is checked on each row it yields.
 */
import type { DatePosition, KeysetPage } from '../../procurement-queries.js';
import { dateBounds } from '../../shared/date-ranges.js';
import type { Params, Row, Sql } from './sql.js';

export type Direction = 'desc' | 'asc';

export interface OrderedSource {
  /** FROM clause; the list's main table must be reachable under the alias the caller's conditions use. */
  from: string;
  /** The source's ordering columns (the date and the id, as stored in its index). */
  date: string;
  id: string;
  /** The conditions that make it this source (`s.municipality_id = @m0`). */
  where: string[];
  params: Params;
}

export interface KeysetQuery {
  /** Select list; must yield `id` and `date` (the ordering values). */
  select: string;
  direction: Direction;
  /** Conditions every row must meet, on top of each source's own. */
  where: (source: OrderedSource) => string[];
  params: Params;
  page: KeysetPage<DatePosition>;
}

/** The SQL of one source's page, for running and for EXPLAIN in tests. */
export function sourceSql(source: OrderedSource, query: KeysetQuery): { text: string; params: Params } {
  const conditions = [...source.where, ...query.where(source)];
  const params: Params = { ...query.params, ...source.params, limit: query.page.limit };
  if (query.page.after) {
    conditions.push(`(${source.date}, ${source.id}) ${query.direction === 'desc' ? '<' : '>'} (@afterDate, @afterId)`);
    params.afterDate = query.page.after.date ?? '';
    params.afterId = query.page.after.id;
  }
  const order = query.direction === 'desc' ? 'DESC' : 'ASC';
  const text =
    `SELECT ${query.select} FROM ${source.from}` +
    (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
    ` ORDER BY ${source.date} ${order}, ${source.id} ${order} LIMIT @limit`;
  return { text, params };
}

/** One page over several sources: each source's page, merged in list order, a row met twice kept once. */
export function readKeyset(sql: Sql, sources: readonly OrderedSource[], query: KeysetQuery): Row[] {
  const pages = sources.map((source) => {
    const { text, params } = sourceSql(source, query);
    return sql(text).all(params) as Row[];
  });
  if (pages.length === 1) return pages[0];
  const sign = query.direction === 'desc' ? -1 : 1;
  const seen = new Set<unknown>();
  return pages
    .flat()
    .sort((a, b) => sign * (compare(a.date, b.date) || compare(a.id, b.id)))
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .slice(0, query.page.limit);
}

function compare(a: unknown, b: unknown): number {
  return (a as string | number) < (b as string | number) ? -1 : (a as string | number) > (b as string | number) ? 1 : 0;
}

/**
 * Inclusive date bounds, as parameters and as conditions on whichever column a source orders by. A bounded range
 * never includes unknown dates (stored as '').
 */
export function dateRange(from: string | undefined, to: string | undefined, name: string) {
  const { lower, upper } = dateBounds(from, to);
  const params: Params = {};
  if (lower !== undefined) params[`${name}From`] = lower;
  if (upper !== undefined) params[`${name}To`] = upper;
  return {
    params,
    on(column: string): string[] {
      const conditions: string[] = [];
      if (params[`${name}From`] !== undefined) conditions.push(`${column} >= @${name}From`);
      if (params[`${name}To`] !== undefined) conditions.push(`${column} <= @${name}To`);
      return conditions;
    },
  };
}
