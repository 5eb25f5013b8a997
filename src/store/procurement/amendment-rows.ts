/**
 * Amendments read back. A previous price the source did not give is derived when read, never stored: the new
 * price of the latest earlier amendment of the same contract, or else the contract price. Deriving it on read
 * keeps it right when an earlier amendment arrives later.
 */
import type { AmendmentRecord } from '../procurement-records.js';
import { toAmendment } from '../shared/procurement-rows.js';
import { inIdOrder } from '../shared/row-values.js';
import type { SqlPort } from '../sql/port.js';

/** Select list and FROM clause of an amendment with its derived previous price (alias `a`). */
export const AMENDMENT_SELECT = `a.*, coalesce(
    a.previous_price_eur,
    (SELECT p.new_price_eur FROM amendments p
      WHERE p.contract_id = a.contract_id AND p.new_price_eur IS NOT NULL AND (p.date, p.id) < (a.date, a.id)
      ORDER BY p.date DESC, p.id DESC LIMIT 1),
    (SELECT c.price_eur FROM contracts c WHERE c.id = a.contract_id)
  ) AS derived_previous_price_eur
  FROM amendments a`;

/** The amendments with these ids (derived previous prices included), in the order of `ids`; unknown ids skipped. */
export async function loadAmendments(port: SqlPort, ids: readonly number[]): Promise<AmendmentRecord[]> {
  if (ids.length === 0) return [];
  const rows = await port.query(`SELECT ${AMENDMENT_SELECT} WHERE ${port.dialect.inList('a.id', '$1')}`, [ids]);
  return inIdOrder(ids, rows, (row) => toAmendment(row));
}

/** The amendments of these contracts, by contract (in the order of `contractIds`), then date, then id. */
export async function loadContractAmendments(
  port: SqlPort,
  contractIds: readonly number[],
): Promise<AmendmentRecord[]> {
  if (contractIds.length === 0) return [];
  const rows = await port.query(
    `SELECT ${AMENDMENT_SELECT} WHERE ${port.dialect.inList('a.contract_id', '$1')}
     ORDER BY a.contract_id, a.date, a.id`,
    [contractIds],
  );
  const order = new Map(contractIds.map((id, i) => [id, i]));
  // stable: date, id kept
  return rows.map(toAmendment).sort((a, b) => (order.get(a.contract_id) ?? 0) - (order.get(b.contract_id) ?? 0));
}
