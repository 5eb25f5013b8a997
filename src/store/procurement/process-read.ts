/** The contracts of one contracting process, for the OCDS view. */
import type { ProcessKey } from '../procurement-queries.js';
import type { ContractRecord } from '../procurement-records.js';
import type { SqlPort } from '../sql/port.js';
import { loadContracts } from './contract-rows.js';

/** The contracts of one process, by id, through the (source, procedure_id) or the (source, source_id) index. */
export async function loadProcessContracts(
  port: SqlPort,
  source: string,
  process: ProcessKey,
): Promise<ContractRecord[]> {
  const rows =
    'procedureId' in process
      ? await port.query(
          `SELECT c.id FROM ${port.dialect.indexed('contracts', 'c', 'contracts_by_procedure_id')}
           WHERE c.source = $1 AND c.procedure_id = $2 ORDER BY c.id`,
          [source, process.procedureId],
        )
      : await port.query('SELECT id FROM contracts WHERE source = $1 AND source_id = $2 AND procedure_id IS NULL', [
          source,
          process.contractSourceId,
        ]);
  return loadContracts(
    port,
    rows.map((r) => Number(r.id)),
  );
}
