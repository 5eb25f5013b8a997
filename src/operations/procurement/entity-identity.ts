/**
 * What an entity's tax number lets the service say of it, beside its stored kind and country (docs/data.md, "What
 * the importer derives"): whether the number is a Portuguese one, a foreign id or a placeholder that identifies no
 * one, whether its `kind` is only a default, and a note saying so in words where the number tells less than the
 * fields suggest.
 */
import { ASSUMED_KIND, kindIsAssumed, taxNumberKind } from '../../lib/nif.js';
import type { EntityKind, TaxNumberKind } from '../../lib/vocabulary.js';

/** What a tax number says of its holder: carried by every answer that names an entity (entity, lookup, party). */
export interface TaxNumberFacts {
  nif_kind: TaxNumberKind;
  kind_assumed: boolean;
  note: string | null;
}

export interface EntityIdentity extends TaxNumberFacts {
  /** The stored country, but never for a placeholder (a store imported before placeholders were told apart). */
  country: string | null;
}

export function entityIdentity(nif: string, kind: EntityKind, country: string | null): EntityIdentity {
  const facts = taxNumberFacts(nif, kind);
  return { ...facts, country: facts.nif_kind === 'placeholder' ? null : country };
}

export function taxNumberFacts(nif: string, kind: EntityKind): TaxNumberFacts {
  const nifKind = taxNumberKind(nif);
  const kindAssumed = kindIsAssumed(nif, kind);
  return { nif_kind: nifKind, kind_assumed: kindAssumed, note: noteOf(nif, nifKind, kind, kindAssumed) };
}

/**
 * A contract party's: what its entity says of the tax number. All null without a number. The kind matters only to
 * a number that says nothing of its holder, whose entity the importer gives ASSUMED_KIND (kindFromNif); a
 * Portuguese number's facts are the same whatever its kind. So the party's name is not read: this runs for every
 * party of every contract a list serves.
 */
export function partyTaxNumberFacts(nif: string | null): Nullable<TaxNumberFacts> {
  if (nif === null || nif === '') return { nif_kind: null, kind_assumed: null, note: null };
  return taxNumberFacts(nif, ASSUMED_KIND);
}

type Nullable<T> = { [K in keyof T]: T[K] | null };

function noteOf(nif: string, nifKind: TaxNumberKind, kind: EntityKind, kindAssumed: boolean): string | null {
  const assumed = kindAssumed ? ` Its kind (${kind}) is a default, not a finding.` : '';
  if (nifKind === 'placeholder') {
    return (
      `${nif} is not a tax number anyone holds: the portal shows it where none was given. Its holder's country ` +
      'and kind are not known, and every party published with it is counted here, under the first name seen.' +
      assumed
    );
  }
  if (nifKind === 'foreign') {
    return (
      "A foreign tax id, as the portal gives it: it does not say the holder's country, or whether the holder is a " +
      `company or a natural person.${assumed}`
    );
  }
  return null;
}
