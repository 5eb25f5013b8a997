/** Which entities are party to a source's contracts (Store.entitiesWithContractsFrom), in one statement for a page. */
import type { SqlPort } from '../sql/port.js';

export async function entitiesWithContractsFrom(
  port: SqlPort,
  nifs: readonly string[],
  source: string,
): Promise<Set<string>> {
  if (nifs.length === 0) return new Set();
  const rows = await port.query(
    `SELECT DISTINCT p.nif AS nif FROM contract_parties p JOIN contracts c ON c.id = p.contract_id
     WHERE ${port.dialect.inList('p.nif', '$1')} AND p.role IN ('buyer', 'supplier') AND c.source = $2`,
    [nifs, source],
  );
  return new Set(rows.map((r) => String(r.nif)));
}
