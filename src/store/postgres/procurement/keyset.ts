/**
 * Keyset lists over ordered sources, as in the SQLite store (see its keyset.ts): a list is ordered by (date, id)
 * and each filter with an index in that order (a municipality, a party, a CPV division) is a source — an index
 * range read in list order and stopped after one page. Here the pages of several sources are merged by
 * PostgreSQL itself, in one statement: a UNION of each source's page, ordered and cut once more.
 */
import type { DatePosition, KeysetPage } from '../../procurement-queries.js';
import { dateBounds } from '../../shared/date-ranges.js';
import { Params, type Sql } from '../db.js';

export type Direction = 'desc' | 'asc';

export interface OrderedSource {
  /** FROM clause; the list's main table must be reachable under the alias the conditions use. */
  from: string;
  /** The source's ordering columns (the date and the id, as its index holds them). */
  date: string;
  id: string;
  /** Every condition a row of this source must meet (its own and the list's). */
  where: string[];
}

export interface KeysetQuery {
  /** One builder per source; each adds the values its conditions need to the statement's parameters. */
  sources: ((p: Params) => OrderedSource)[];
  direction: Direction;
  page: KeysetPage<DatePosition>;
}

/** The statement of one page over all sources; exported for the tests that EXPLAIN it. */
export function keysetSql(query: KeysetQuery): { text: string; values: unknown[] } {
  const p = new Params();
  const limit = p.add(query.page.limit);
  const after = query.page.after && { date: p.add(query.page.after.date ?? ''), id: p.add(query.page.after.id) };
  const order = query.direction === 'desc' ? 'DESC' : 'ASC';
  const pages = query.sources.map((build) => {
    const source = build(p);
    const conditions = [...source.where];
    if (after) conditions.push(`(${source.date}, ${source.id}) ${query.direction === 'desc' ? '<' : '>'} (${after.date}, ${after.id})`);
    return (
      `SELECT ${source.id} AS id, ${source.date} AS date FROM ${source.from}` +
      (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '') +
      ` ORDER BY ${source.date} ${order}, ${source.id} ${order} LIMIT ${limit}`
    );
  });
  const text =
    pages.length === 1
      ? pages[0]
      : `SELECT id, date FROM (${pages.map((page) => `(${page})`).join(' UNION ')}) AS merged ORDER BY date ${order}, id ${order} LIMIT ${limit}`;
  return { text, values: p.values };
}

/** Ids of one page, in list order. */
export async function readKeyset(sql: Sql, query: KeysetQuery): Promise<number[]> {
  const { text, values } = keysetSql(query);
  return (await sql(text, values)).map((row) => Number(row.id));
}

/** Inclusive date bounds; a bounded range never includes unknown dates (stored as ''). */
export function dateRange(from: string | undefined, to: string | undefined) {
  const { lower, upper } = dateBounds(from, to);
  return {
    bounded: lower !== undefined,
    on(column: string, p: Params): string[] {
      const conditions: string[] = [];
      if (lower !== undefined) conditions.push(`${column} >= ${p.add(lower)}`);
      if (upper !== undefined) conditions.push(`${column} <= ${p.add(upper)}`);
      return conditions;
    },
  };
}
