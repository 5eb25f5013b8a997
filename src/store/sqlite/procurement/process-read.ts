/**
 * Reads for the OCDS view: the amendments of a page of contracts (one query, never one per contract) and the
 * contracts of one contracting process.
 */
import type { ProcessKey } from '../../procurement-queries.js';
import type { AmendmentRecord, ContractRecord } from '../../procurement-records.js';
import { toAmendment } from '../../shared/procurement-rows.js';
import { amendmentSelect } from './amendment-rows.js';
import { loadContracts } from './contract-rows.js';
import { jsonList, type Row, type Sql } from './sql.js';

/** The amendments of these contracts, by contract (in the order of `contractIds`), then date, then id. */
export function loadContractAmendments(sql: Sql, contractIds: readonly number[]): AmendmentRecord[] {
  if (contractIds.length === 0) return [];
  const rows = sql(
    `SELECT ${amendmentSelect} WHERE a.contract_id IN (SELECT value FROM json_each(@ids)) ORDER BY a.contract_id, a.date, a.id`,
  ).all({ ids: jsonList(contractIds) }) as Row[];
  const order = new Map(contractIds.map((id, i) => [id, i]));
  return rows.map(toAmendment).sort((a, b) => (order.get(a.contract_id) ?? 0) - (order.get(b.contract_id) ?? 0)); // stable: date, id kept
}

/** The contracts of one process, by id, through the (source, procedure_id) or the (source, source_id) index. */
export function loadProcessContracts(sql: Sql, source: string, process: ProcessKey): ContractRecord[] {
  const rows = (
    'procedureId' in process
      ? sql('SELECT id FROM contracts INDEXED BY contracts_by_procedure_id WHERE source = ? AND procedure_id = ? ORDER BY id').all(
          source,
          process.procedureId,
        )
      : sql('SELECT id FROM contracts WHERE source = ? AND source_id = ? AND procedure_id IS NULL').all(source, process.contractSourceId)
  ) as Row[];
  return loadContracts(
    sql,
    rows.map((r) => Number(r.id)),
  );
}
