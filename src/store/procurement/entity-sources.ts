/** The sources each entity's records come from (Store.entityRecordSources), in one statement for a page. */

import type { EntityRecordSources } from '../procurement-records.js';
import type { SqlPort } from '../sql/port.js';

export async function entityRecordSources(
  port: SqlPort,
  nifs: readonly string[],
): Promise<Map<string, EntityRecordSources>> {
  const out = new Map<string, EntityRecordSources>();
  if (nifs.length === 0) return out;
  const rows = await port.query(
    `SELECT DISTINCT p.nif AS nif, 'contracts' AS records, c.source AS source
       FROM contract_parties p JOIN contracts c ON c.id = p.contract_id
      WHERE ${port.dialect.inList('p.nif', '$1')} AND p.role IN ('buyer', 'supplier')
     UNION
     SELECT DISTINCT buyer_nif, 'announcements', source FROM announcements
      WHERE ${port.dialect.inList('buyer_nif', '$1')}`,
    [nifs],
  );
  for (const r of rows) {
    const nif = String(r.nif);
    const entry = out.get(nif) ?? { contracts: new Set<string>(), announcements: new Set<string>() };
    entry[r.records === 'contracts' ? 'contracts' : 'announcements'].add(String(r.source));
    out.set(nif, entry);
  }
  return out;
}
