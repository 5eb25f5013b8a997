/** Contract records read back from their tables: one statement per table for a whole page, never one per contract. */
import type { ContractDetailRecord, ContractRecord } from '../procurement-records.js';
import { toAmendment, toContract } from '../shared/procurement-rows.js';
import { groupRows, inIdOrder } from '../shared/row-values.js';
import type { SqlPort } from '../sql/port.js';
import { AMENDMENT_SELECT } from './amendment-rows.js';
import { cpvsByRecord, placesByRecord } from './record-parts.js';

/** The contracts with these ids, in the order of `ids`; unknown ids skipped. */
export async function loadContracts(port: SqlPort, ids: readonly number[]): Promise<ContractRecord[]> {
  if (ids.length === 0) return [];
  const inIds = (column: string) => port.dialect.inList(column, '$1');
  const values = [ids];
  const [rows, parties, cpvs, places] = await Promise.all([
    port.query(
      `SELECT c.*,
         (SELECT a.id FROM announcements a
          WHERE a.source = c.source AND a.source_id = c.announcement_number) AS announcement_id
       FROM contracts c WHERE ${inIds('c.id')}`,
      values,
    ),
    port.query(
      `SELECT contract_id, role, nif, name FROM contract_parties WHERE ${inIds('contract_id')}
       ORDER BY contract_id, role, position`,
      values,
    ),
    cpvsByRecord(port, 'contract', ids),
    placesByRecord(port, 'contract', ids),
  ]);
  const partiesOf = groupRows(parties, (r) => Number(r.contract_id));
  return inIdOrder(ids, rows, (row, id) =>
    toContract(row, partiesOf.get(id) ?? [], cpvs.get(id) ?? [], places.get(id) ?? [], port.dialect.columns),
  );
}

export async function loadContractDetail(port: SqlPort, id: number): Promise<ContractDetailRecord | undefined> {
  const [[contract], amendments] = await Promise.all([
    loadContracts(port, [id]),
    port.query(`SELECT ${AMENDMENT_SELECT} WHERE a.contract_id = $1 ORDER BY a.date, a.id`, [id]),
  ]);
  if (!contract) return undefined;
  return { ...contract, amendments: amendments.map(toAmendment) };
}
