/**
 * How many procurement records each source holds, the period their dates span, and when it was last imported
 * (Store.procurementSources); and how many municipalities' councils are buyers in each source's records.
 */
import type { ProcurementSourceCount } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function procurementSourceCounts(port: SqlPort): Promise<ProcurementSourceCount[]> {
  // '' is an unknown date (schema/procurement.ts): NULLIF keeps it out of the period.
  const span = (column: string) => `min(NULLIF(${column}, '')) AS first, max(NULLIF(${column}, '')) AS last_on`;
  const rows = await port.query(
    `SELECT source, 'contracts' AS records, count(*) AS n, max(imported_at) AS last, ${span('published_on')}
       FROM contracts GROUP BY source
     UNION ALL SELECT source, 'announcements', count(*), max(imported_at), ${span('published_on')}
       FROM announcements GROUP BY source
     UNION ALL SELECT source, 'amendments', count(*), max(imported_at), ${span('date')}
       FROM amendments GROUP BY source`,
  );
  return rows.map((r) => ({
    source: String(r.source),
    records: r.records as ProcurementSourceCount['records'],
    count: Number(r.n),
    last_imported_at: r.last === null ? null : String(r.last),
    first_date: r.first === null ? null : String(r.first),
    last_date: r.last_on === null ? null : String(r.last_on),
  }));
}

/**
 * Per source, the number of municipalities whose council (by its tax number) is a buyer in its contracts or its
 * notices: the records whose dates the coverage's period spans (a source of notices alone covers their buyers).
 */
export async function municipalBuyersBySource(port: SqlPort): Promise<Map<string, number>> {
  const rows = await port.query(
    `SELECT source, count(DISTINCT id) AS n FROM (
       SELECT c.source AS source, m.id AS id
         FROM contract_parties p
         JOIN contracts c ON c.id = p.contract_id
         JOIN municipalities m ON m.nif = p.nif
        WHERE p.role = 'buyer'
       UNION ALL
       SELECT a.source, m.id FROM announcements a JOIN municipalities m ON m.nif = a.buyer_nif
     ) buyers
     GROUP BY source`,
  );
  return new Map(rows.map((r) => [String(r.source), Number(r.n)]));
}
