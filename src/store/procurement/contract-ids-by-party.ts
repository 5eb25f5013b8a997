/**
 * The ids of a source's contracts on which any of these tax numbers has this role (Store.contractIdsByParty):
 * detection re-assesses the contracts of a supplier or a tenderer whose standing against the corpus changed
 * (docs/integrity.md, "Signals"). Ascending ids; the nif index serves it.
 */
import type { SqlPort } from '../sql/port.js';

export async function contractIdsByParty(
  port: SqlPort,
  source: string,
  role: 'buyer' | 'supplier' | 'competitor',
  nifs: readonly string[],
): Promise<number[]> {
  if (nifs.length === 0) return [];
  // The source is checked on each contract found, not searched by: SQLite otherwise walked every contract of the
  // source through its source index and looked for the parties of each (0.55 s for 200 buyers' 13,000 contracts at a
  // million contracts, 0.03 s from the tax numbers).
  const rows = await port.query(
    `SELECT DISTINCT p.contract_id AS id
       FROM contract_parties p JOIN contracts c ON c.id = p.contract_id
      WHERE p.role = $1 AND ${port.dialect.inList('p.nif', '$2')} AND ${port.dialect.unindexed('c.source')} = $3
      ORDER BY 1`,
    [role, [...nifs], source],
  );
  return rows.map((r) => Number(r.id));
}
