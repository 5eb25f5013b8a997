/**
 * How many contracts of one procurement source each municipality holds, and how many of them detection flagged per
 * integrity type (Store.integrityFlagCounts; the explorer's integrity map, docs/explorer.md). Both sides count a
 * contract where a contract's signals are filed (detect/places.ts): the municipality of its first buyer that is a
 * municipality (by tax number), when the contract is executed there or names no place of execution; else the first
 * municipality it is executed in, by code; else none (null). A flag is an `integrity` signal whose key is
 * `integrity:<type>:<source>:<contract source id>`, counted unless detection withdrew it (the data no longer
 * support it). With each municipality, the ids of its newest contracts (by id), as many as `sample` asks: the
 * explorer assesses them to tell whether a type can judge that municipality's contracts at all.
 */
import type { IntegrityPlaceCount } from '../signal-queries.js';
import type { Row, SqlPort } from '../sql/port.js';

export async function integrityFlagCounts(port: SqlPort, source: string, sample = 0): Promise<IntegrityPlaceCount[]> {
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
       SELECT id, buyer_nif, first_code,
              CASE WHEN buyer_nif IS NOT NULL AND (first_code IS NULL OR EXISTS (
                     SELECT 1 FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
                      WHERE x.contract_id = firsts.id AND m.nif = firsts.buyer_nif)) THEN 1 ELSE 0 END AS by_buyer
         FROM firsts
     ), placed AS (
       SELECT id, CASE WHEN by_buyer = 1 THEN buyer_nif END AS nif, CASE WHEN by_buyer = 0 THEN first_code END AS code
         FROM judged
     )
     SELECT nif, code, id, n FROM (
       SELECT nif, code, id, count(*) OVER (PARTITION BY nif, code) AS n,
              row_number() OVER (PARTITION BY nif, code ORDER BY id DESC) AS pos
         FROM placed
     ) ranked
      WHERE pos <= $3`,
    [source, [...byNif.keys()], Math.max(1, sample)],
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
      count = { municipality_id: key, contracts: 0, flagged: {}, sample: [] };
      byPlace.set(key, count);
    }
    return count;
  };
  // One row per contract of the sample (at least the newest, which carries the group's count): a group of the query
  // is one (tax number, code) pair, and two pairs can name the same municipality (a tax number that is no council's
  // and a code alike place none), so the counts add up and the samples merge.
  const groups = new Map<string, Row[]>();
  for (const r of placed) {
    const group = `${r.nif}|${r.code}`;
    groups.set(group, [...(groups.get(group) ?? []), r]);
  }
  for (const rows of groups.values()) {
    const count = at(placeOf(rows[0]));
    count.contracts += Number(rows[0].n);
    if (sample > 0) count.sample.push(...rows.map((r) => Number(r.id)));
  }
  for (const count of byPlace.values()) count.sample = count.sample.sort((a, b) => b - a).slice(0, sample);
  for (const r of flags) at(r.municipality_id).flagged[String(r.type)] = Number(r.n);
  return [...byPlace.values()];
}
