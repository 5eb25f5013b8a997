/**
 * What turning rows into records needs besides the row: the import instant, the place resolver, our
 * municipalities by tax number — and the entities the accepted rows name, collected as they are accepted.
 */

import { countryFromNif, kindFromNif } from '../../lib/nif.js';
import type { EntityInput, Party } from '../../store/procurement-records.js';
import type { MunicipalityRecord } from '../../store/records.js';
import type { ParsedParty } from './parties.js';
import type { Place, PlaceResolver } from './places.js';

export interface RowContext {
  importedAt: string;
  resolvePlace: PlaceResolver;
  municipalityByNif: ReadonlyMap<string, MunicipalityRecord>;
}

/**
 * A party on a record. A party without a tax number — "- - Name", or a natural person the portal anonymised
 * ("RGPD …") — stays on the record with its name and an empty `nif`: the contract did have that supplier, and
 * the name is all the source gives. It never becomes an entity (entities are keyed by tax number).
 */
export function toParty(p: ParsedParty): Party {
  return p.kind === 'identified' ? { nif: p.nif, name: p.name } : { nif: '', name: p.name };
}

/** Parties of one role, without repeats (the same NIF twice, or the same unidentified name twice). */
export function distinctParties(parties: readonly ParsedParty[]): ParsedParty[] {
  const seen = new Set<string>();
  return parties.filter((p) => {
    const key = p.kind === 'identified' ? `nif:${p.nif}` : `name:${p.name.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function entityFor(
  p: Extract<ParsedParty, { kind: 'identified' }>,
  municipalityByNif: ReadonlyMap<string, MunicipalityRecord>,
): EntityInput {
  const municipality = p.foreign ? undefined : municipalityByNif.get(p.nif);
  if (municipality)
    return { nif: p.nif, name: p.name, kind: 'municipality', country: 'PT', municipality_id: municipality.id };
  return {
    nif: p.nif,
    name: p.name,
    kind: kindFromNif(p.nif, p.name),
    country: p.foreign ? null : countryFromNif(p.nif),
    municipality_id: null,
  };
}

/**
 * Entities named by the accepted rows; the first name seen for a NIF wins (buyers and suppliers before competitors).
 */
export class EntityCollector {
  readonly #byNif = new Map<string, EntityInput>();

  constructor(private readonly municipalityByNif: ReadonlyMap<string, MunicipalityRecord>) {}

  add(parties: readonly ParsedParty[]): void {
    for (const p of parties) {
      if (p.kind === 'identified' && !this.#byNif.has(p.nif))
        this.#byNif.set(p.nif, entityFor(p, this.municipalityByNif));
    }
  }

  list(): EntityInput[] {
    return [...this.#byNif.values()];
  }
}

/** Unresolved place texts, for the report: how many, and the first few distinct ones. */
export class UnresolvedPlaces {
  count = 0;
  readonly examples: { text: string; line: number; source_id: string }[] = [];
  readonly #seen = new Set<string>();

  add(text: string, line: number, sourceId: string): void {
    this.count++;
    if (this.#seen.has(text) || this.examples.length >= 20) return;
    this.#seen.add(text);
    this.examples.push({ text, line, source_id: sourceId });
  }
}

export interface PlaceOutcome {
  municipalityIds: number[];
  unresolved: string[];
  places: Place[];
}

export function resolvePlaces(texts: readonly string[], resolvePlace: PlaceResolver): PlaceOutcome {
  const ids: number[] = [];
  const unresolved: string[] = [];
  const places: Place[] = [];
  for (const t of texts) {
    const place = resolvePlace(t);
    places.push(place);
    if (place.kind === 'municipality' && !ids.includes(place.municipality.id)) ids.push(place.municipality.id);
    if (place.kind === 'unresolved') unresolved.push(t);
  }
  return { municipalityIds: ids, unresolved, places };
}
