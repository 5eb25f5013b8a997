/**
 * Amendments, with the previous price derived on read where the source gave none (see the SQLite store): the new
 * price of the latest earlier amendment of the same contract, or else the contract price.
 */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import type { AmendmentRecord } from '../../procurement-records.js';
import { toAmendment } from '../../shared/procurement-rows.js';
import type { Sql } from '../db.js';
import { dateRange, readKeyset } from './keyset.js';

/** Select list and FROM clause of an amendment with its derived previous price (alias `a`). */
export const AMENDMENT_SELECT = `a.*, coalesce(
    a.previous_price_eur,
    (SELECT p.new_price_eur FROM amendments p
      WHERE p.contract_id = a.contract_id AND p.new_price_eur IS NOT NULL AND (p.date, p.id) < (a.date, a.id)
      ORDER BY p.date DESC, p.id DESC LIMIT 1),
    (SELECT c.price_eur FROM contracts c WHERE c.id = a.contract_id)
  ) AS derived_previous_price_eur
  FROM amendments a`;

/** Amendments by date descending then id: one contract's through its index, otherwise through the date index. */
export async function listAmendments(sql: Sql, filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<AmendmentRecord[]> {
  const ids = await readKeyset(sql, {
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
  return getAmendments(sql, ids);
}

/** The amendments with these ids, in the order of `ids`. */
export async function getAmendments(sql: Sql, ids: readonly number[]): Promise<AmendmentRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql(`SELECT ${AMENDMENT_SELECT} WHERE a.id = ANY($1::integer[])`, [ids]);
  const byId = new Map(rows.map((row) => [Number(row.id), toAmendment(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
