/** Contract records read back from their tables: one query per table for a whole page, never one per contract. */
import type { ContractDetailRecord, ContractRecord, CpvRef, OcdsMethod, PartyRecord } from '../../procurement-records.js';
import { amendmentSelect, toAmendment } from './amendment-rows.js';
import { booleanOrNull, dateOrNull, groupRows, jsonList, numberOrNull, type Row, type Sql, textOrNull } from './sql.js';

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
      return [id, toContract(row, parties.get(id) ?? [], cpvs.get(id) ?? [], places.get(id) ?? [])] as const;
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

function toContract(row: Row, parties: Row[], cpvs: Row[], places: Row[]): ContractRecord {
  const withRole = (role: string): PartyRecord[] =>
    parties.filter((p) => p.role === role).map((p) => ({ nif: textOrNull(p.nif), name: String(p.name) }));
  return {
    id: Number(row.id),
    source: String(row.source),
    source_id: String(row.source_id),
    imported_at: String(row.imported_at),
    procedure_id: textOrNull(row.procedure_id),
    announcement_number: textOrNull(row.announcement_number),
    announcement_id: numberOrNull(row.announcement_id),
    object: String(row.object),
    description: textOrNull(row.description),
    procedure_type: textOrNull(row.procedure_type),
    ocds_method: textOrNull(row.ocds_method) as OcdsMethod | null,
    contract_types: JSON.parse(String(row.contract_types)),
    cpv: cpvs.map(toCpvRef),
    buyers: withRole('buyer'),
    suppliers: withRole('supplier'),
    competitors: withRole('competitor'),
    base_price_eur: numberOrNull(row.base_price_eur),
    price_eur: numberOrNull(row.price_eur),
    effective_price_eur: numberOrNull(row.effective_price_eur),
    published_on: dateOrNull(row.published_on),
    awarded_on: textOrNull(row.awarded_on),
    signed_on: textOrNull(row.signed_on),
    closed_on: textOrNull(row.closed_on),
    execution_days: numberOrNull(row.execution_days),
    execution_places_text: textOrNull(row.execution_places_text),
    municipalities: places.map((p) => String(p.code)),
    framework_agreement: textOrNull(row.framework_agreement),
    legal_basis: textOrNull(row.legal_basis),
    green: booleanOrNull(row.green),
    centralized: booleanOrNull(row.centralized),
    link: textOrNull(row.link),
  };
}

/** A CPV code with its labels (null where the vocabulary has none, or does not know the code). */
export function toCpvRef(row: Row): CpvRef {
  return { code: String(row.cpv), label_pt: textOrNull(row.label_pt), label_en: textOrNull(row.label_en) };
}
