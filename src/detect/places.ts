/**
 * Where a signal is: the municipality it is filed under (one id, or none) and the place it names in words.
 * Records give the municipality codes of their execution places; buyers that are municipalities are known by
 * their tax number.
 */
import { fold } from '../lib/text-match.js';
import type { MunicipalityRecord } from '../store/records.js';
import { type Regime, regimeOfMunicipality } from './direct-award-regime.js';
import { list } from './format.js';

export interface Placed {
  municipality_id: number | null;
  /** The municipality names (at most five, then "e mais N"), or the record's own place text. */
  location_text: string | null;
  /** Municipality names of the record, in its order. */
  names: string[];
}

export class Places {
  readonly #byCode: Map<string, MunicipalityRecord>;
  readonly #byNif: Map<string, MunicipalityRecord>;
  readonly #byId: Map<number, MunicipalityRecord>;
  /** District keys (see districtKey) → the regime of their municipalities; the regions also by their short names. */
  readonly #regimeByDistrict: Map<string, Regime>;

  constructor(municipalities: readonly MunicipalityRecord[]) {
    this.#byCode = new Map(municipalities.map((m) => [m.code, m]));
    this.#byNif = new Map(municipalities.filter((m) => m.nif).map((m) => [m.nif, m]));
    this.#byId = new Map(municipalities.map((m) => [m.id, m]));
    this.#regimeByDistrict = new Map(municipalities.map((m) => [districtKey(m.district), regimeOfMunicipality(m)]));
    this.#regimeByDistrict.set('acores', 'azores');
    this.#regimeByDistrict.set('madeira', 'madeira');
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
      names: names.length > 0 ? names : filed ? [filed.name] : [],
    };
  }

  /**
   * The legal regime of a record's buyer (docs/signals.md, direct-award ceilings): a municipal buyer's own
   * municipality; else the record's places when they all lie in one region — its municipalities, and the places it
   * names only down to a district or autonomous region ("Portugal, Região Autónoma dos Açores"); else null (unknown).
   * "Portugal" alone, and a place no district of ours fits, tell nothing.
   */
  regionOf(
    codes: readonly string[],
    buyerNifs: readonly (string | null)[],
    placesText: string | null = null,
  ): Regime | null {
    const buyer = buyerNifs.map((n) => (n ? this.#byNif.get(n) : undefined)).find((m) => m !== undefined);
    if (buyer) return regimeOfMunicipality(buyer);
    const regimes = new Set(codes.map((c) => this.#byCode.get(c)).flatMap((m) => (m ? [regimeOfMunicipality(m)] : [])));
    for (const place of placesText?.split(';') ?? []) {
      const regime = this.#regimeOfPlace(place);
      if (regime) regimes.add(regime);
    }
    return regimes.size === 1 ? ([...regimes][0] as Regime) : null;
  }

  /** The regime of the district a place text names ("Portugal, <district>[, <municipality>]"), or null. */
  #regimeOfPlace(place: string): Regime | null {
    const parts = place.split(',').map(districtKey).filter(Boolean);
    if (parts[0] === 'portugal') parts.shift();
    return parts.length > 0 ? (this.#regimeByDistrict.get(parts[0]) ?? null) : null;
  }
}

/**
 * A district name reduced for comparison: folded, words only, the little words dropped, "R. A." and "Reg. Aut."
 * spelled out — so "Região Autónoma dos Açores", "Regiao Autonoma Acores", "R.A. Açores" and "Açores" agree.
 */
function districtKey(name: string): string {
  return fold(name)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^(r a|reg aut|ra)\b/, 'regiao autonoma')
    .split(' ')
    .filter((w) => w && !['de', 'da', 'do', 'das', 'dos'].includes(w))
    .join(' ');
}
