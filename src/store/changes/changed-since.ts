/**
 * The change order of a list, for syncing clients (`updated_since`, docs/api.md "Syncing"): the records stamped
 * after an instant (./change-stamp.ts), oldest change first, by (updated_at, id), walked on the table's
 * `…_by_update` index and stopped after a page. Every filter of the list is checked on the rows it yields.
 */
import type { KeysetPage } from '../procurement-queries.js';
import type { InstantPosition } from '../signal-queries.js';
import { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';

export interface ChangedQuery {
  /** The list's table, its alias and the index of its change order. */
  table: string;
  alias: string;
  index: string;
  /** The list's filters, as conditions on the row. */
  where: (p: Params) => string[];
  /** Exclusive: only records stamped after it. */
  since: string;
  page: KeysetPage<InstantPosition>;
}

/** The SQL of one page; exported for the tests that EXPLAIN it. */
export function changedPageSql(dialect: Dialect, query: ChangedQuery): { text: string; values: unknown[] } {
  const { alias: a, page } = query;
  const p = new Params();
  const where = [...query.where(p), `${a}.updated_at > ${p.add(query.since)}`];
  if (page.after) where.push(`(${a}.updated_at, ${a}.id) > (${p.add(page.after.at)}, ${p.add(page.after.id)})`);
  const text =
    `SELECT ${a}.id AS id FROM ${dialect.indexed(query.table, a, query.index)} WHERE ${where.join(' AND ')} ` +
    `ORDER BY ${a}.updated_at, ${a}.id LIMIT ${p.add(page.limit)}`;
  return { text, values: p.values };
}

/** The ids of one page, in change order. */
export async function readChangedIds(port: SqlPort, query: ChangedQuery): Promise<number[]> {
  const { text, values } = changedPageSql(port.dialect, query);
  return (await port.query(text, values)).map((row) => Number(row.id));
}
