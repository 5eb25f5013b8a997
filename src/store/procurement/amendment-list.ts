/** The amendment list's keyset page (the records are read by amendment-rows.ts). */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../procurement-queries.js';
import { dateRange } from '../shared/date-ranges.js';
import type { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';
import { type KeysetQuery, type OrderedSource, readKeysetIds } from './keyset.js';

/** Ids (in list order) of one page of amendments. */
export function listAmendmentIds(
  port: SqlPort,
  filter: AmendmentFilter,
  page: KeysetPage<DatePosition>,
): Promise<number[]> {
  return readKeysetIds(port, amendmentQuery(port.dialect, filter, page));
}

/**
 * By date descending then id: one contract's through its index, otherwise through the date index. The query of a
 * page; exported for the tests that EXPLAIN it.
 */
export function amendmentQuery(dialect: Dialect, filter: AmendmentFilter, page: KeysetPage<DatePosition>): KeysetQuery {
  const { indexed, inList } = dialect;
  const { contractId } = filter;
  const source: OrderedSource =
    contractId === undefined
      ? { from: indexed('amendments', 'a', 'amendments_by_date'), date: 'a.date', id: 'a.id', where: () => [] }
      : {
          from: indexed('amendments', 'a', 'amendments_by_contract'),
          date: 'a.date',
          id: 'a.id',
          where: (p) => [`a.contract_id = ${p.add(contractId)}`],
        };
  const range = dateRange(filter.from, filter.to);
  const residual = (p: Params, date: string) => {
    const conditions = range.on(date, p);
    if (filter.source !== undefined) conditions.push(`a.source = ${p.add(filter.source)}`);
    if (filter.municipalityIds && filter.municipalityIds.length > 0) {
      conditions.push(
        `EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = a.contract_id
         AND ${inList('x.municipality_id', p.add(filter.municipalityIds))})`,
      );
    }
    return conditions;
  };
  return { sources: [source], residual, direction: 'desc', page };
}
