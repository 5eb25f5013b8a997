/**
 * The source and buyers' tax numbers of contracts (Store.contractBuyers): all that detection's integrity scope needs
 * to group changed contracts by buyer, without reading whole records (their CPVs, places and suppliers).
 */
import { textOrNull } from '../shared/row-values.js';
import type { SqlPort } from '../sql/port.js';

export interface ContractBuyersRecord {
  id: number;
  source: string;
  /** Each buyer's tax number (null when it has none or it is withheld), in the record's order. */
  buyers: (string | null)[];
}

/** In id order; unknown ids skipped. */
export async function contractBuyers(port: SqlPort, ids: readonly number[]): Promise<ContractBuyersRecord[]> {
  if (ids.length === 0) return [];
  const rows = await port.query(
    `SELECT c.id, c.source, p.nif, p.role
       FROM contracts c LEFT JOIN contract_parties p ON p.contract_id = c.id AND p.role = 'buyer'
      WHERE ${port.dialect.inList('c.id', '$1')}
      ORDER BY c.id, p.position`,
    [ids],
  );
  const out: ContractBuyersRecord[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    let last = out[out.length - 1];
    if (last?.id !== id) {
      last = { id, source: String(r.source), buyers: [] };
      out.push(last);
    }
    if (r.role !== null) last.buyers.push(textOrNull(r.nif));
  }
  return out;
}
