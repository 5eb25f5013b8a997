/**
 * The prices of a buyer's contracts at a source (Store.buyerPrices): id, price, dates and sole supplier, without the
 * rest of the records. The supplier-concentration check sums a buyer's year from these (docs/integrity.md); reading
 * whole records (parties, CPVs, places) for thousands of contracts made one contract's red flags cost tens of ms.
 */
import type { BuyerPriceRecord } from '../procurement-records.js';
import { dateOrNull, numberOrNull, textOrNull } from '../shared/row-values.js';
import type { SqlPort } from '../sql/port.js';

/**
 * The buyer's contracts published from `from` to `to` (inclusive), or with `undated`, those without a publication
 * date; in the order of the contract list (publication date descending, then id descending).
 */
export async function buyerPrices(
  port: SqlPort,
  source: string,
  buyer: string,
  dates: { from: string; to: string } | 'undated',
): Promise<BuyerPriceRecord[]> {
  const published = dates === 'undated' ? `s.published_on = ''` : 's.published_on >= $3 AND s.published_on <= $4';
  const rows = await port.query(
    `SELECT DISTINCT s.contract_id AS id, c.published_on, c.signed_on, c.price_eur,
       (SELECT CASE WHEN count(*) = 1 THEN max(x.nif) END FROM contract_parties x
         WHERE x.contract_id = s.contract_id AND x.role = 'supplier') AS sole_supplier
       FROM ${port.dialect.indexed('contract_parties', 's', 'contract_parties_by_nif')} CROSS JOIN contracts c
      WHERE s.nif = $1 AND s.role = 'buyer' AND ${published} AND c.id = s.contract_id AND c.source = $2
      ORDER BY c.published_on DESC, s.contract_id DESC`,
    dates === 'undated' ? [buyer, source] : [buyer, source, dates.from, dates.to],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    published_on: dateOrNull(r.published_on),
    signed_on: textOrNull(r.signed_on),
    price_eur: numberOrNull(r.price_eur),
    sole_supplier: textOrNull(r.sole_supplier),
  }));
}
