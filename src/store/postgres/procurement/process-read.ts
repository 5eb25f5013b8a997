/** Reads for the OCDS view: the amendments of a page of contracts, and the contracts of one contracting process. */
import type { ProcessKey } from '../../procurement-queries.js';
import type { AmendmentRecord, ContractRecord } from '../../procurement-records.js';
import { toAmendment } from '../../shared/procurement-rows.js';
import type { Sql } from '../db.js';
import { AMENDMENT_SELECT } from './amendment-rows.js';
import { loadContracts } from './contract-rows.js';

/** The amendments of these contracts, by contract (in the order of `contractIds`), then date, then id. */
export async function loadContractAmendments(sql: Sql, contractIds: readonly number[]): Promise<AmendmentRecord[]> {
  if (contractIds.length === 0) return [];
  const rows = await sql(`SELECT ${AMENDMENT_SELECT} WHERE a.contract_id = ANY($1::integer[]) ORDER BY a.contract_id, a.date, a.id`, [
    contractIds,
  ]);
  const order = new Map(contractIds.map((id, i) => [id, i]));
  return rows.map(toAmendment).sort((a, b) => (order.get(a.contract_id) ?? 0) - (order.get(b.contract_id) ?? 0)); // stable: date, id kept
}

/** The contracts of one process, by id, through the (source, procedure_id) or the (source, source_id) index. */
export async function loadProcessContracts(sql: Sql, source: string, process: ProcessKey): Promise<ContractRecord[]> {
  const rows =
    'procedureId' in process
      ? await sql('SELECT id FROM contracts WHERE source = $1 AND procedure_id = $2 ORDER BY id', [source, process.procedureId])
      : await sql('SELECT id FROM contracts WHERE source = $1 AND source_id = $2 AND procedure_id IS NULL', [
          source,
          process.contractSourceId,
        ]);
  return loadContracts(
    sql,
    rows.map((r) => Number(r.id)),
  );
}
