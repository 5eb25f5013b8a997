/** Contract records read back from their tables: one query per table for a whole page, never one per contract. */
import type { ContractDetailRecord, ContractRecord } from '../../procurement-records.js';
import { toAmendment, toContract } from '../../shared/procurement-rows.js';
import { amendmentSelect } from './amendment-rows.js';
import { groupRows, jsonList, type Row, SQLITE_COLUMNS, type Sql } from './sql.js';

/** The contracts with these ids, in the order of `ids`. */
export function loadContracts(sql: Sql, ids: readonly number[]): ContractRecord[] {
  if (ids.length === 0) return [];
  const idList = { ids: jsonList(ids) };
  const rows = sql(
    `SELECT c.*, (SELECT a.id FROM announcements a WHERE a.source = c.source AND a.source_id = c.announcement_number) AS announcement_id
     FROM contracts c WHERE c.id IN (SELECT value FROM json_each(@ids))`,
  ).all(idList) as Row[];
  const parties = groupRows(
    sql(
      'SELECT contract_id, role, nif, name FROM contract_parties WHERE contract_id IN (SELECT value FROM json_each(@ids)) ORDER BY contract_id, role, position',
    ).all(idList) as Row[],
    (r) => Number(r.contract_id),
  );
  const cpvs = groupRows(
    sql(
      `SELECT x.contract_id, x.cpv, v.label_pt, v.label_en FROM contract_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
       WHERE x.contract_id IN (SELECT value FROM json_each(@ids)) ORDER BY x.contract_id, x.position`,
    ).all(idList) as Row[],
    (r) => Number(r.contract_id),
  );
  const places = groupRows(
    sql(
      `SELECT x.contract_id, m.code FROM contract_municipalities x JOIN municipalities m ON m.id = x.municipality_id
       WHERE x.contract_id IN (SELECT value FROM json_each(@ids)) ORDER BY x.contract_id, m.code`,
    ).all(idList) as Row[],
    (r) => Number(r.contract_id),
  );
  const byId = new Map(
    rows.map((row) => {
      const id = Number(row.id);
      return [id, toContract(row, parties.get(id) ?? [], cpvs.get(id) ?? [], places.get(id) ?? [], SQLITE_COLUMNS)] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function loadContractDetail(sql: Sql, id: number): ContractDetailRecord | undefined {
  const [contract] = loadContracts(sql, [id]);
  if (!contract) return undefined;
  const amendments = (sql(`SELECT ${amendmentSelect} WHERE a.contract_id = ? ORDER BY a.date, a.id`).all(id) as Row[]).map(toAmendment);
  return { ...contract, amendments };
}
