/**
 * The contract a procurement record belongs to, by the record's (source, source id) (Store.contractIdOfRecord): a
 * contract is its own, an amendment's is the contract it amends. A signal names its record so (its key), and
 * signals_get serves the contract's id (docs/explorer.md, a signal's page). The unique (source, source_id) index
 * serves it.
 */
import type { ProcurementRecordRef } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function contractIdOfRecord(port: SqlPort, record: ProcurementRecordRef): Promise<number | undefined> {
  const column = record.kind === 'contract' ? 'id' : 'contract_id';
  const table = record.kind === 'contract' ? 'contracts' : 'amendments';
  const rows = await port.query(`SELECT ${column} AS id FROM ${table} WHERE source = $1 AND source_id = $2`, [
    record.source,
    record.sourceId,
  ]);
  return rows.length > 0 ? Number(rows[0].id) : undefined;
}
