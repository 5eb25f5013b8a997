/** The amendment list's keyset page (the records are read by amendment-rows.ts). */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../procurement-queries.js';
import type { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';
import { dateRange, type OrderedSource, readKeysetIds } from './keyset.js';

/** Amendments by date descending then id: one contract's through its index, otherwise through the date index. */
export function listAmendmentIds(port: SqlPort, filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<number[]> {
  const { indexed, inList } = port.dialect;
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
        `EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = a.contract_id AND ${inList('x.municipality_id', p.add(filter.municipalityIds))})`,
      );
    }
    return conditions;
  };
  return readKeysetIds(port, { sources: [source], residual, direction: 'desc', page });
}
