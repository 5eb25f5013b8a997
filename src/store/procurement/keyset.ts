/**
 * Keyset lists of procurement records over ordered sources. A list is ordered by (date, id) — descending, or
 * ascending for deadlines — and each filter with an index in that order (a municipality, a party, a CPV division,
 * …) is a *source*: an index range read in list order and stopped after one page. A filter with several values
 * (three municipalities) is several sources, merged by the database as it reads them (`dialect.mergeOrdered`), a
 * row met in two of them kept once. Whatever a source does not narrow is checked on each row it yields.
 *
 * SQLite is told each source's index (`dialect.indexed`) and its outer loop (the source's table comes first, then
 * `CROSS JOIN` the record's table, joined in WHERE: SQLite keeps that order, PostgreSQL plans the join as any other),
 * so that it never trades the list's order for another range and sorts the whole result.
 */
import type { DatePosition, KeysetPage } from '../procurement-queries.js';
import { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';

export type Direction = 'desc' | 'asc';

export interface OrderedSource {
  /** FROM items; the list's table under the alias the conditions use. */
  from: string;
  /** The source's ordering columns, as its index holds them (`s.published_on`, `s.contract_id`). */
  date: string;
  id: string;
  /** The conditions that make it this source (joins included). */
  where: (p: Params) => string[];
}

export interface KeysetQuery {
  /** At least one; all of one kind (the same ordering columns). */
  sources: readonly OrderedSource[];
  /**
   * Conditions every row must meet besides its source's own. `date` is the sources' date column: bounds on the
   * list's date go there, so that with the source's equalities they are one index range. `id` is the sources' id
   * column: a condition on the record's id written on it is checked on the index entry, before the record is read.
   */
  residual: (p: Params, date: string, id: string) => string[];
  direction: Direction;
  page: KeysetPage<DatePosition>;
}

/** The statement of one page over all sources; exported for the tests that EXPLAIN it. */
export function keysetSql(dialect: Dialect, query: KeysetQuery): { text: string; values: unknown[] } {
  const { sources, direction, page } = query;
  const { date, id } = sources[0];
  const p = new Params();
  const limit = p.add(page.limit);
  const common = query.residual(p, date, id);
  if (page.after) {
    common.push(
      `(${date}, ${id}) ${direction === 'desc' ? '<' : '>'} (${p.add(page.after.date ?? '')}, ${p.add(page.after.id)})`,
    );
  }
  const arms = sources.map((source) => {
    const where = [...source.where(p), ...common];
    const select = `SELECT ${source.id} AS id, ${source.date} AS date FROM ${source.from}`;
    return where.length > 0 ? `${select} WHERE ${where.join(' AND ')}` : select;
  });
  const order = direction === 'desc' ? 'DESC' : 'ASC';
  const text = dialect.mergeOrdered(
    arms,
    `${date} ${order}, ${id} ${order}`,
    `date ${order}, id ${order}`,
    limit,
    true,
  );
  return { text, values: p.values };
}

/** The ids of one page, in list order. */
export async function readKeysetIds(port: SqlPort, query: KeysetQuery): Promise<number[]> {
  const { text, values } = keysetSql(port.dialect, query);
  return (await port.query(text, values)).map((row) => Number(row.id));
}

/** Up to this many rows, a bounded set (text matches, a price range) sorted is cheaper than walking a list's order. */
export const SMALL_SET = 1000;

/**
 * Whether at most `SMALL_SET` rows of `from` meet `where`: then a list starts from them. Asked only where the
 * planner does not weigh that itself (`dialect.weighsIndexes`).
 */
export async function isSmallSet(port: SqlPort, from: string, where: (p: Params) => string[]): Promise<boolean> {
  return (await countUpTo(port, from, where)) <= SMALL_SET;
}

/** The rows of `from` that meet `where`, counted up to SMALL_SET + 1: a bounded read, however many there are. */
export async function countUpTo(port: SqlPort, from: string, where: (p: Params) => string[]): Promise<number> {
  const p = new Params();
  const conditions = where(p);
  const [row] = await port.query(
    `SELECT count(*) AS n
     FROM (SELECT 1 FROM ${from} WHERE ${conditions.join(' AND ')} LIMIT ${p.add(SMALL_SET + 1)}) AS t`,
    p.values,
  );
  return Number(row.n);
}
