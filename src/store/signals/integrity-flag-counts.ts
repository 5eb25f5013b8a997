/**
 * How many contracts of one procurement source each municipality holds, and how many of them detection flagged per
 * integrity type (Store.integrityFlagCounts; the explorer's integrity map, docs/explorer.md). Both sides count a
 * contract where a contract's signals are filed (detect/places.ts): the municipality of its first buyer that is a
 * municipality (by tax number), when the contract is executed there or names no place of execution; else the first
 * municipality it is executed in, by code; else none (null). A flag is an `integrity` signal whose key is
 * `integrity:<type>:<source>:<contract source id>`, counted unless detection withdrew it (the data no longer
 * support it).
 */
import type { IntegrityPlaceCount } from '../signal-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function integrityFlagCounts(port: SqlPort, source: string): Promise<IntegrityPlaceCount[]> {
  // Per contract: its first municipal buyer and its first place by code, each one index lookup.
  const placed = await port.query(
    `WITH firsts AS (
       SELECT c.id,
              (SELECT m.id FROM contract_parties b JOIN municipalities m ON m.nif = b.nif
                WHERE b.contract_id = c.id AND b.role = 'buyer' ORDER BY b.position LIMIT 1) AS buyer_place,
              (SELECT m.id FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
                WHERE x.contract_id = c.id ORDER BY m.code LIMIT 1) AS first_place
         FROM contracts c WHERE c.source = $1
     )
     SELECT CASE WHEN buyer_place IS NOT NULL AND (first_place IS NULL OR EXISTS (
                   SELECT 1 FROM contract_municipalities x
                    WHERE x.contract_id = firsts.id AND x.municipality_id = firsts.buyer_place))
                 THEN buyer_place ELSE first_place END AS municipality_id,
            count(*) AS n
       FROM firsts GROUP BY 1`,
    [source],
  );
  const flags = await port.query(
    `SELECT s.municipality_id, s.type, count(*) AS n
       FROM signals s
      WHERE s.family = 'integrity' AND s.status <> 'withdrawn'
        AND s.key LIKE 'integrity:' || s.type || ':' || $1 || ':%'
      GROUP BY s.municipality_id, s.type`,
    [source],
  );
  const byPlace = new Map<number | null, IntegrityPlaceCount>();
  const at = (id: unknown) => {
    const key = id === null ? null : Number(id);
    let count = byPlace.get(key);
    if (!count) {
      count = { municipality_id: key, contracts: 0, flagged: {} };
      byPlace.set(key, count);
    }
    return count;
  };
  for (const r of placed) at(r.municipality_id).contracts = Number(r.n);
  for (const r of flags) at(r.municipality_id).flagged[String(r.type)] = Number(r.n);
  return [...byPlace.values()];
}
