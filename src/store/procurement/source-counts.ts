/** How many procurement records each source holds, and when it was last imported (Store.procurementSources). */
import type { ProcurementSourceCount } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function procurementSourceCounts(port: SqlPort): Promise<ProcurementSourceCount[]> {
  const rows = await port.query(
    `SELECT source, 'contracts' AS records, count(*) AS n, max(imported_at) AS last FROM contracts GROUP BY source
     UNION ALL SELECT source, 'announcements', count(*), max(imported_at) FROM announcements GROUP BY source
     UNION ALL SELECT source, 'amendments', count(*), max(imported_at) FROM amendments GROUP BY source`,
  );
  return rows.map((r) => ({
    source: String(r.source),
    records: r.records as ProcurementSourceCount['records'],
    count: Number(r.n),
    last_imported_at: r.last === null ? null : String(r.last),
  }));
}
