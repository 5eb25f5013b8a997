/**
 * Procurement rows as records, the same in every store: each store reads the rows with its own SQL and passes
 * how its driver hands back lists and flags (`ColumnDecoding`).
 */
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractRecord,
  CpvRef,
  OcdsMethod,
  PartyRecord,
} from '../procurement-records.js';
import { partyRecord } from './party-record.js';
import { type ColumnDecoding, dateOrNull, numberOrNull, type Row, textOrNull } from './row-values.js';

/** A contract row with its parties, CPVs and municipalities (each list in its order of position). */
export function toContract(
  row: Row,
  parties: Row[],
  cpvs: Row[],
  places: Row[],
  decode: ColumnDecoding,
): ContractRecord {
  const withRole = (role: string): PartyRecord[] =>
    parties.filter((p) => p.role === role).map((p) => partyRecord(p.nif, p.name));
  return {
    id: Number(row.id),
    source: String(row.source),
    source_id: String(row.source_id),
    imported_at: String(row.imported_at),
    updated_at: String(row.updated_at),
    procedure_id: textOrNull(row.procedure_id),
    announcement_number: textOrNull(row.announcement_number),
    announcement_id: numberOrNull(row.announcement_id),
    object: String(row.object),
    description: textOrNull(row.description),
    procedure_type: textOrNull(row.procedure_type),
    ocds_method: textOrNull(row.ocds_method) as OcdsMethod | null,
    contract_types: decode.list(row.contract_types),
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
    green: decode.flag(row.green),
    centralized: decode.flag(row.centralized),
    link: textOrNull(row.link),
  };
}

/** A CPV code with its labels (null where the vocabulary has none, or does not know the code). */
export function toCpvRef(row: Row): CpvRef {
  return { code: String(row.cpv), label_pt: textOrNull(row.label_pt), label_en: textOrNull(row.label_en) };
}

/** An announcement row with its CPVs and municipalities (each list in its order of position). */
export function toAnnouncement(row: Row, cpvs: Row[], places: Row[], decode: ColumnDecoding): AnnouncementRecord {
  return {
    id: Number(row.id),
    source: String(row.source),
    source_id: String(row.source_id),
    imported_at: String(row.imported_at),
    published_on: dateOrNull(row.published_on),
    deadline_on: textOrNull(row.deadline_on),
    buyer: partyRecord(row.buyer_nif, row.buyer_name),
    object: String(row.object),
    cpv: cpvs.map(toCpvRef),
    base_price_eur: numberOrNull(row.base_price_eur),
    contract_types: decode.list(row.contract_types),
    procedure_type: textOrNull(row.procedure_type),
    municipalities: places.map((p) => String(p.code)),
    district: textOrNull(row.district),
    link: textOrNull(row.link),
  };
}

/**
 * An amendment row read with its derived previous price (`derived_previous_price_eur`); the change follows from both.
 */
export function toAmendment(row: Row): AmendmentRecord {
  const previous = numberOrNull(row.derived_previous_price_eur);
  const next = numberOrNull(row.new_price_eur);
  return {
    id: Number(row.id),
    contract_id: Number(row.contract_id),
    source: String(row.source),
    source_id: String(row.source_id),
    date: dateOrNull(row.date),
    previous_price_eur: previous,
    new_price_eur: next,
    change_eur: previous === null || next === null ? null : Math.round((next - previous) * 100) / 100,
    reason: textOrNull(row.reason),
    link: textOrNull(row.link),
    imported_at: String(row.imported_at),
  };
}
