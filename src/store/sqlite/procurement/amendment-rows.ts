/**
 * Amendments. A previous price the source did not give is derived when read, never stored: the new price of the
 * latest earlier amendment of the same contract, or else the contract price. Deriving it on read keeps it right
 * when an earlier amendment arrives later.
 */
import type { AmendmentFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import type { AmendmentRecord } from '../../procurement-records.js';
import { toAmendment } from '../../shared/procurement-rows.js';
import { dateRange, type OrderedSource, readKeyset } from './keyset.js';
import { jsonList, type Params, type Row, type Sql } from './sql.js';

/** Select list and FROM clause of an amendment with its derived previous price (alias `a`). */
export const amendmentSelect = `a.*, coalesce(
    a.previous_price_eur,
    (SELECT p.new_price_eur FROM amendments p
      WHERE p.contract_id = a.contract_id AND p.new_price_eur IS NOT NULL AND (p.date, p.id) < (a.date, a.id)
      ORDER BY p.date DESC, p.id DESC LIMIT 1),
    (SELECT c.price_eur FROM contracts c WHERE c.id = a.contract_id)
  ) AS derived_previous_price_eur
  FROM amendments a`;

/** Amendments by date descending then id: one contract's through its index, otherwise through the date index. */
export function listAmendments(sql: Sql, filter: AmendmentFilter, page: KeysetPage<DatePosition>): AmendmentRecord[] {
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
  const ids = readKeyset(sql, [source], {
    select: 'a.id AS id, a.date AS date',
    direction: 'desc',
    where: () => conditions,
    params,
    page,
  }).map((r) => Number(r.id));
  return loadAmendments(sql, ids);
}

/** The amendments with these ids (derived previous prices included), in the order of `ids`; unknown ids skipped. */
export function loadAmendments(sql: Sql, ids: readonly number[]): AmendmentRecord[] {
  if (ids.length === 0) return [];
  const rows = sql(`SELECT ${amendmentSelect} WHERE a.id IN (SELECT value FROM json_each(@ids))`).all({ ids: jsonList(ids) }) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), toAmendment(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
