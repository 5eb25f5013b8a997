/**
 * What an entity write decides before any SQL, the same in every store: the entity a batch's list gives, the one
 * a party creates on first sight, whether a stored entity would change, and the stored columns.
 */

import { countryFromNif, kindFromNif } from '../../lib/nif.js';
import { nameKey } from '../../lib/text-match.js';
import type { EntityInput, EntityKind, Party } from '../procurement-records.js';
import { entityNif, searchText } from './procurement-keys.js';

export const ENTITY_COLUMNS = ['nif', 'name', 'kind', 'country', 'municipality_id', 'name_key', 'search_text'] as const;

/** An entity of the batch's list as it is stored; a tax number that identifies nobody fails the batch. */
export function listedEntity(input: EntityInput): EntityInput {
  const nif = entityNif(input.nif);
  if (nif === null) throw new Error(`Entity "${input.name}": "${input.nif}" is not a tax number`);
  return {
    nif,
    name: input.name.trim(),
    kind: input.kind,
    country: input.country ?? null,
    municipality_id: input.municipality_id ?? null,
  };
}

/** The entity a party with tax number `nif` creates: a municipality's own number makes it that municipality. */
export function partyEntity(nif: string, party: Party, municipalityByNif: ReadonlyMap<string, number>): EntityInput {
  const municipalityId = municipalityByNif.get(nif) ?? null;
  const kind: EntityKind = municipalityId !== null ? 'municipality' : kindFromNif(nif, party.name);
  return { nif, name: party.name.trim(), kind, country: countryFromNif(nif), municipality_id: municipalityId };
}

/** Whether the stored (or already written) entity has the same fields as `row`: then the write changes nothing. */
export function sameEntity(
  current: { name?: unknown; kind?: unknown; country?: unknown; municipality_id?: unknown },
  row: EntityInput,
): boolean {
  return (
    current.name === row.name &&
    current.kind === row.kind &&
    (current.country ?? null) === row.country &&
    (current.municipality_id ?? null) === row.municipality_id
  );
}

/** The stored columns: the fields and the keys it is found by (folded name, search text). */
export function entityColumns(row: EntityInput) {
  const { nif, name, kind, country, municipality_id } = row;
  return {
    nif,
    name,
    kind,
    country,
    municipality_id,
    name_key: nameKey(name),
    search_text: searchText(name, nif),
  } satisfies Record<(typeof ENTITY_COLUMNS)[number], unknown>;
}
