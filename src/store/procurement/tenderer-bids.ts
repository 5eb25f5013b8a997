/**
 * Per tenderer of one source, the contracting processes it bid in and those it won (Store.tendererBids; the corpus
 * of R025, excessive unsuccessful bids, docs/integrity.md). A bid is a competitor with a tax number on a contract
 * that names one supplier (Cardinal excludes an award to several); it is won when the competitor is that supplier.
 * A tenderer counts once per process, as Cardinal counts it, and has won the process when it supplied any contract
 * of it that it bid in.
 */
import type { TendererBidsRecord } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';
import { PROCESS_COLUMNS, soleSupplierContracts } from './sole-supplier.js';

export async function tendererBids(port: SqlPort, source: string): Promise<TendererBidsRecord[]> {
  const rows = await port.query(
    `WITH ${soleSupplierContracts('$1')}
     SELECT b.nif, count(*) AS bids, sum(b.won) AS wins
       FROM (SELECT t.nif, ${PROCESS_COLUMNS}, max(CASE WHEN t.nif = sole.nif THEN 1 ELSE 0 END) AS won
               FROM contract_parties t
               JOIN sole ON sole.contract_id = t.contract_id
               JOIN contracts c ON c.id = t.contract_id
              WHERE t.role = 'competitor' AND t.nif IS NOT NULL
              GROUP BY 1, 2, 3) b
      GROUP BY b.nif`,
    [source],
  );
  return rows.map((r) => ({ nif: String(r.nif), bids: Number(r.bids), wins: Number(r.wins) }));
}
