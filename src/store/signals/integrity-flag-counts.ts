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
import type { Row, SqlPort } from '../sql/port.js';

export async function integrityFlagCounts(port: SqlPort, source: string): Promise<IntegrityPlaceCount[]> {
  // Per contract, three index lookups: the tax number of its first buyer that is a municipality, its first place by
  // code, and whether that buyer's municipality is among its places; then grouped by where it is placed. The 308
  // tax numbers are a bound list (municipalities.nif has no index: a join scanned them per buyer, seconds on
  // PostgreSQL), and each step is materialized, so that PostgreSQL neither repeats the lookups nor joins them.
  const municipalities = await port.query('SELECT id, nif, code FROM municipalities');
  const byNif = new Map(municipalities.map((m) => [String(m.nif), Number(m.id)]));
  const byCode = new Map(municipalities.map((m) => [String(m.code), Number(m.id)]));
  const placed = await port.query(
    `WITH firsts AS MATERIALIZED (
       SELECT c.id,
              (SELECT b.nif FROM contract_parties b
                WHERE b.contract_id = c.id AND b.role = 'buyer' AND ${port.dialect.inList('b.nif', '$2')}
                ORDER BY b.position LIMIT 1) AS buyer_nif,
              (SELECT min(m.code) FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
                WHERE x.contract_id = c.id) AS first_code
         FROM contracts c WHERE c.source = $1
     ), judged AS MATERIALIZED (
       SELECT buyer_nif, first_code,
              CASE WHEN buyer_nif IS NOT NULL AND (first_code IS NULL OR EXISTS (
                     SELECT 1 FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
                      WHERE x.contract_id = firsts.id AND m.nif = firsts.buyer_nif)) THEN 1 ELSE 0 END AS by_buyer
         FROM firsts
     )
     SELECT CASE WHEN by_buyer = 1 THEN buyer_nif END AS nif, CASE WHEN by_buyer = 0 THEN first_code END AS code,
            count(*) AS n
       FROM judged GROUP BY 1, 2`,
    [source, [...byNif.keys()]],
  );
  const placeOf = (r: Row) =>
    r.nif !== null ? (byNif.get(String(r.nif)) ?? null) : r.code !== null ? (byCode.get(String(r.code)) ?? null) : null;
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
  for (const r of placed) at(placeOf(r)).contracts += Number(r.n);
  for (const r of flags) at(r.municipality_id).flagged[String(r.type)] = Number(r.n);
  return [...byPlace.values()];
}
