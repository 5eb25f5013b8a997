/** The amendment list's keyset page (records are read by ../../procurement/amendment-rows.ts). */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import type { Sql } from '../db.js';
import { dateRange, readKeyset } from './keyset.js';

/** Amendments by date descending then id: one contract's through its index, otherwise through the date index. */
export function listAmendmentIds(sql: Sql, filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<number[]> {
  return readKeyset(sql, {
    direction: 'desc',
    page,
    sources: [
      (p) => {
        const conditions = dateRange(filter.from, filter.to).on('a.date', p);
        if (filter.contractId !== undefined) conditions.push(`a.contract_id = ${p.add(filter.contractId)}`);
        if (filter.source !== undefined) conditions.push(`a.source = ${p.add(filter.source)}`);
        if (filter.municipalityIds && filter.municipalityIds.length > 0) {
          conditions.push(
            `EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = a.contract_id AND x.municipality_id = ANY(${p.add(filter.municipalityIds)}::integer[]))`,
          );
        }
        return { from: 'amendments a', date: 'a.date', id: 'a.id', where: conditions };
      },
    ],
  });
}
