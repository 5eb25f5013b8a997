/** Contract records read back from their tables: one statement per table for a whole page, run side by side. */
import type { ContractDetailRecord, ContractRecord } from '../../procurement-records.js';
import { toAmendment, toContract } from '../../shared/procurement-rows.js';
import type { Row, Sql } from '../db.js';
import { AMENDMENT_SELECT } from './amendment-rows.js';
import { groupRows, POSTGRES_COLUMNS } from './rows.js';

/** The contracts with these ids, in the order of `ids`. */
export async function loadContracts(sql: Sql, ids: readonly number[]): Promise<ContractRecord[]> {
  if (ids.length === 0) return [];
  const values = [ids];
  const [rows, parties, cpvs, places] = await Promise.all([
    sql(
      `SELECT c.*, (SELECT a.id FROM announcements a WHERE a.source = c.source AND a.source_id = c.announcement_number) AS announcement_id
       FROM contracts c WHERE c.id = ANY($1::integer[])`,
      values,
    ),
    sql(
      'SELECT contract_id, role, nif, name FROM contract_parties WHERE contract_id = ANY($1::integer[]) ORDER BY contract_id, role, position',
      values,
    ),
    sql(
      `SELECT x.contract_id, x.cpv, v.label_pt, v.label_en FROM contract_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
       WHERE x.contract_id = ANY($1::integer[]) ORDER BY x.contract_id, x.position`,
      values,
    ),
    sql(
      `SELECT x.contract_id, m.code FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
       WHERE x.contract_id = ANY($1::integer[]) ORDER BY x.contract_id, m.code`,
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
      return [id, toContract(row, partiesOf.get(id) ?? [], cpvsOf.get(id) ?? [], placesOf.get(id) ?? [], POSTGRES_COLUMNS)] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadContractDetail(sql: Sql, id: number): Promise<ContractDetailRecord | undefined> {
  const [[contract], amendments] = await Promise.all([
    loadContracts(sql, [id]),
    sql(`SELECT ${AMENDMENT_SELECT} WHERE a.contract_id = $1 ORDER BY a.date, a.id`, [id]),
  ]);
  if (!contract) return undefined;
  return { ...contract, amendments: amendments.map(toAmendment) };
}
