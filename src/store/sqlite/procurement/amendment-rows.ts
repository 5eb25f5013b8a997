/** The amendment list's keyset page (records are read by ../../procurement/amendment-rows.ts). */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import { dateRange, type OrderedSource, readKeyset } from './keyset.js';
import { jsonList, type Params, type Sql } from './sql.js';

/** Amendments by date descending then id: one contract's through its index, otherwise through the date index. */
export function listAmendmentIds(sql: Sql, filter: AmendmentFilter, page: KeysetPage<DatePosition>): number[] {
  const source: OrderedSource =
    filter.contractId === undefined
      ? { from: 'amendments a INDEXED BY amendments_by_date', date: 'a.date', id: 'a.id', where: [], params: {} }
      : {
          from: 'amendments a INDEXED BY amendments_by_contract',
          date: 'a.date',
          id: 'a.id',
          where: ['a.contract_id = @contractId'],
          params: { contractId: filter.contractId },
        };
  const range = dateRange(filter.from, filter.to, 'date');
  const conditions = range.on('a.date');
  const params: Params = { ...range.params };
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    conditions.push(
      'EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = a.contract_id AND x.municipality_id IN (SELECT value FROM json_each(@municipalities)))',
    );
    params.municipalities = jsonList(filter.municipalityIds);
  }
  if (filter.source !== undefined) {
    conditions.push('a.source = @source');
    params.source = filter.source;
  }
  return readKeyset(sql, [source], {
    select: 'a.id AS id, a.date AS date',
    direction: 'desc',
    where: () => conditions,
    params,
    page,
  }).map((r) => Number(r.id));
}
