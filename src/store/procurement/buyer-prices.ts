/**
 * The prices of a buyer's contracts at a source (Store.buyerPrices): id, price, dates and sole supplier, without the
 * rest of the records. The supplier-concentration check sums a buyer's year from these (docs/integrity.md); reading
 * whole records (parties, CPVs, places) for thousands of contracts made one contract's red flags cost tens of ms.
 * A buyer's row of contract_parties carries its contract's source and sole supplier, and the index of the buyers'
 * rows holds them (schema/procurement.ts, BUYER_YEARS): a year is read from that index alone, without the contracts.
 */
import type { BuyerPriceRecord } from '../procurement-records.js';
import { dateOrNull, numberOrNull, textOrNull } from '../shared/row-values.js';
import type { SqlPort } from '../sql/port.js';

/**
 * The buyer's contracts published from `from` to `to` (inclusive), or with `undated`, those without a publication
 * date; in the order of the contract list (publication date descending, then id descending). Only the undated ones
 * are read with their signing date (their year is the one they were signed in); a dated one gives null.
 */
export async function buyerPrices(
  port: SqlPort,
  source: string,
  buyer: string,
  dates: { from: string; to: string } | 'undated',
): Promise<BuyerPriceRecord[]> {
  const undated = dates === 'undated';
  const published = undated ? `s.published_on = ''` : 's.published_on >= $3 AND s.published_on <= $4';
  const buyers = port.dialect.indexed('contract_parties', 's', 'contract_parties_buyer_years');
  const rows = await port.query(
    `SELECT DISTINCT s.contract_id AS id, s.published_on, ${undated ? 'c.signed_on' : 'NULL AS signed_on'},
       s.price_eur, s.sole_supplier
       FROM ${undated ? `${buyers} CROSS JOIN contracts c` : buyers}
      WHERE s.nif = $1 AND s.role = 'buyer' AND s.source = $2 AND ${published}
        ${undated ? 'AND c.id = s.contract_id' : ''}
      ORDER BY s.published_on DESC, s.contract_id DESC`,
    undated ? [buyer, source] : [buyer, source, dates.from, dates.to],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    published_on: dateOrNull(r.published_on),
    signed_on: textOrNull(r.signed_on),
    price_eur: numberOrNull(r.price_eur),
    sole_supplier: textOrNull(r.sole_supplier),
  }));
}
