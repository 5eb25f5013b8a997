/**
 * What a contract write decides before any SQL, the same in every store: the stored columns and their values, and
 * which parties are written under which role.
 */
import type { ContractInput, Party } from '../procurement-records.js';
import { entityNif, procedureKey, searchText } from './procurement-keys.js';

/** The party roles a contract lists, with the input field each comes from. */
export const CONTRACT_ROLES = [
  ['buyer', 'buyers'],
  ['supplier', 'suppliers'],
  ['competitor', 'competitors'],
] as const;

/** A party listed twice under one role (same tax number) is one party; parties without a number are kept as listed. */
export function uniqueParties(parties: readonly Party[]): Party[] {
  const seen = new Set<string>();
  return parties.filter((party) => {
    const nif = entityNif(party.nif);
    if (nif === null) return true;
    if (seen.has(nif)) return false;
    seen.add(nif);
    return true;
  });
}

/**
 * The stored row, with lists and flags as JavaScript values (a store without those column types encodes them).
 * Fields a producer left undefined are stored as null rather than failing the batch.
 */
export function contractRow(c: ContractInput, fingerprint: string) {
  const cpvMain = c.cpvs[0] ?? null;
  return {
    source: c.source,
    source_id: c.source_id,
    fingerprint,
    procedure_id: c.procedure_id ?? null,
    announcement_number: c.announcement_number ?? null,
    object: c.object,
    description: c.description ?? null,
    procedure_type: c.procedure_type ?? null,
    procedure_key: c.procedure_type ? procedureKey(c.procedure_type) : null,
    ocds_method: c.ocds_method ?? null,
    contract_types: c.contract_types,
    cpv_main: cpvMain,
    cpv_division: cpvMain === null ? null : cpvMain.slice(0, 2),
    base_price_eur: c.base_price_eur ?? null,
    price_eur: c.price_eur ?? null,
    effective_price_eur: c.effective_price_eur ?? null,
    published_on: c.published_on ?? '',
    awarded_on: c.awarded_on ?? null,
    signed_on: c.signed_on ?? null,
    closed_on: c.closed_on ?? null,
    execution_days: c.execution_days ?? null,
    execution_places_text: c.execution_places_text ?? null,
    framework_agreement: c.framework_agreement ?? null,
    legal_basis: c.legal_basis ?? null,
    green: c.green ?? null,
    centralized: c.centralized ?? null,
    link: c.link ?? null,
    search_text: searchText(c.object, c.description),
    imported_at: c.imported_at,
  };
}

export type ContractRow = ReturnType<typeof contractRow>;
