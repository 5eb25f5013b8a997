/**
 * Where a signal is: the municipality it is filed under (one id, or none) and the place it names in words.
 * Records give the municipality codes of their execution places; buyers that are municipalities are known by
 * their tax number.
 */

import { inPlace, inPlaces } from '../lib/portuguese-articles.js';
import { Regions, type RegionTold } from '../lib/regions.js';
import type { MunicipalityRecord } from '../store/records.js';
import { list } from './format.js';

export interface Placed {
  municipality_id: number | null;
  /** The municipality names (at most five, then "e mais N"), or the record's own place text. */
  location_text: string | null;
  /** Municipality names of the record, in its order. */
  names: string[];
  /** The place after `em`, each municipality with its article ("no Porto e na Maia"), or the record's own text. */
  in_pt: string | null;
}

export class Places {
  readonly #byCode: Map<string, MunicipalityRecord>;
  readonly #byNif: Map<string, MunicipalityRecord>;
  readonly #byId: Map<number, MunicipalityRecord>;
  readonly #regions: Regions;

  constructor(municipalities: readonly MunicipalityRecord[]) {
    this.#byCode = new Map(municipalities.map((m) => [m.code, m]));
    this.#byNif = new Map(municipalities.filter((m) => m.nif).map((m) => [m.nif, m]));
    this.#byId = new Map(municipalities.map((m) => [m.id, m]));
    this.#regions = new Regions(municipalities);
  }

  byId(id: number): MunicipalityRecord | undefined {
    return this.#byId.get(id);
  }

  byCode(code: string): MunicipalityRecord | undefined {
    return this.#byCode.get(code);
  }

  /**
   * The municipality a record is filed under: the buyer's own municipality when the buyer is one and the record
   * is executed there (or names no place); else the first municipality of the record; else none.
   */
  place(codes: readonly string[], buyerNifs: readonly (string | null)[], fallbackText: string | null): Placed {
    const own = codes.map((c) => this.#byCode.get(c)).filter((m): m is MunicipalityRecord => m !== undefined);
    const buyerMunicipality = buyerNifs.map((n) => (n ? this.#byNif.get(n) : undefined)).find((m) => m !== undefined);
    let filed: MunicipalityRecord | undefined;
    if (buyerMunicipality && (own.length === 0 || own.some((m) => m.id === buyerMunicipality.id)))
      filed = buyerMunicipality;
    else filed = own[0];
    const names = own.map((m) => m.name);
    const text = names.length > 0 ? list(names, 'pt') : fallbackText?.trim() || (filed ? filed.name : null);
    return {
      municipality_id: filed?.id ?? null,
      location_text: text,
      in_pt: names.length > 0 ? inPlaces(names) : text === null ? null : inPlace(text),
      names: names.length > 0 ? names : filed ? [filed.name] : [],
    };
  }

  /** The legal regime of a record's buyer (lib/regions.ts). */
  regionOf(
    codes: readonly string[],
    buyerNifs: readonly (string | null)[],
    placesText: string | null = null,
  ): RegionTold {
    return this.#regions.regionOf(codes, buyerNifs, placesText);
  }
}
