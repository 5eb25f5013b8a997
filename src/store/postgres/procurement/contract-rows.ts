/** Contract records read back from their tables: one statement per table for a whole page, run side by side. */
import type { ContractDetailRecord, ContractRecord, CpvRef, OcdsMethod, PartyRecord } from '../../procurement-records.js';
import type { Row, Sql } from '../db.js';
import { AMENDMENT_SELECT, toAmendment } from './amendment-rows.js';
import { booleanOrNull, dateOrNull, groupRows, numberOrNull, textOrNull } from './rows.js';

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
      return [id, toContract(row, partiesOf.get(id) ?? [], cpvsOf.get(id) ?? [], placesOf.get(id) ?? [])] as const;
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
    contract_types: row.contract_types as string[],
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
