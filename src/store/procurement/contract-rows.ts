/** Contract records read back from their tables: one statement per table for a whole page, never one per contract. */
import type { ContractDetailRecord, ContractRecord } from '../procurement-records.js';
import { toAmendment, toContract } from '../shared/procurement-rows.js';
import { groupRows } from '../shared/row-values.js';
import type { Row, SqlPort } from '../sql/port.js';
import { AMENDMENT_SELECT } from './amendment-rows.js';

/** The contracts with these ids, in the order of `ids`; unknown ids skipped. */
export async function loadContracts(port: SqlPort, ids: readonly number[]): Promise<ContractRecord[]> {
  if (ids.length === 0) return [];
  const inIds = (column: string) => port.dialect.inList(column, '$1');
  const values = [ids];
  const [rows, parties, cpvs, places] = await Promise.all([
    port.query(
      `SELECT c.*, (SELECT a.id FROM announcements a WHERE a.source = c.source AND a.source_id = c.announcement_number) AS announcement_id
       FROM contracts c WHERE ${inIds('c.id')}`,
      values,
    ),
    port.query(
      `SELECT contract_id, role, nif, name FROM contract_parties WHERE ${inIds('contract_id')} ORDER BY contract_id, role, position`,
      values,
    ),
    port.query(
      `SELECT x.contract_id, x.cpv, v.label_pt, v.label_en FROM contract_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
       WHERE ${inIds('x.contract_id')} ORDER BY x.contract_id, x.position`,
      values,
    ),
    port.query(
      `SELECT x.contract_id, m.code FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
       WHERE ${inIds('x.contract_id')} ORDER BY x.contract_id, m.code`,
      values,
    ),
  ]);
  const byContract = (list: Row[]) => groupRows(list, (r) => Number(r.contract_id));
  const partiesOf = byContract(parties);
  const cpvsOf = byContract(cpvs);
  const placesOf = byContract(places);
  const byId = new Map(
    rows.map((row) => {
      const id = Number(row.id);
      return [id, toContract(row, partiesOf.get(id) ?? [], cpvsOf.get(id) ?? [], placesOf.get(id) ?? [], port.dialect.columns)] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadContractDetail(port: SqlPort, id: number): Promise<ContractDetailRecord | undefined> {
  const [[contract], amendments] = await Promise.all([
    loadContracts(port, [id]),
    port.query(`SELECT ${AMENDMENT_SELECT} WHERE a.contract_id = $1 ORDER BY a.date, a.id`, [id]),
  ]);
  if (!contract) return undefined;
  return { ...contract, amendments: amendments.map(toAmendment) };
}
