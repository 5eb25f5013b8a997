/**
 * What an announcement write decides before any SQL, the same in every store: the stored columns and their values,
 * and the districts it is filed under.
 */
import { fold } from '../../lib/text-match.js';
import type { AnnouncementInput } from '../procurement-records.js';
import { searchText } from './procurement-keys.js';

/**
 * The stored row, with the list of contract types as a JavaScript array (a store without list columns encodes it).
 * `buyerNif` is the entity the buyer was filed under (the batch's entity writer decides it).
 */
export function announcementRow(input: AnnouncementInput, fingerprint: string, buyerNif: string | null) {
  return {
    source: input.source,
    source_id: input.source_id,
    fingerprint,
    published_on: input.published_on ?? '',
    deadline_on: input.deadline_on ?? null,
    buyer_nif: buyerNif,
    buyer_name: input.buyer.name.trim(),
    object: input.object,
    base_price_eur: input.base_price_eur ?? null,
    contract_types: input.contract_types,
    procedure_type: input.procedure_type ?? null,
    district: input.district ?? null,
    link: input.link ?? null,
    search_text: searchText(input.object),
    imported_at: input.imported_at,
  };
}

/**
 * The districts an announcement is in (folded): the one it names and those of its municipalities, so that a
 * district filter is one index range.
 */
export function announcementDistricts(
  input: AnnouncementInput,
  municipalityIds: readonly number[],
  districtOf: ReadonlyMap<number, string>,
): Set<string> {
  const districts = new Set(municipalityIds.flatMap((m) => districtOf.get(m) ?? []));
  if (input.district) districts.add(fold(input.district.trim()));
  return districts;
}
