/**
 * The legal regime of a record's buyer, told by where it is (docs/signals.md, "Direct-award ceilings by legal
 * regime"): a municipal buyer's own municipality; else the record's places when they all lie in one region. On the
 * ground floor, so that the detectors (detect/places.ts) and the integrity checks read regions the one same way.
 */
import { type Regime, regimeOfMunicipality } from './direct-award-regime.js';
import { fold } from './text-match.js';
import { memoByText } from './text-memo.js';

/** What a record tells of its buyer's region: one regime, places in more than one (`several`), or nothing (null). */
export type RegionTold = Regime | 'several' | null;

/** What a municipality must say of itself for its region to be told. */
export interface RegionalMunicipality {
  code: string;
  nif: string;
  district: string;
}

export class Regions {
  readonly #byCode: Map<string, RegionalMunicipality>;
  readonly #byNif: Map<string, RegionalMunicipality>;
  /** District keys (see districtKey) → the regime of their municipalities; the regions also by their short names. */
  readonly #regimeByDistrict: Map<string, Regime>;
  /**
   * The regime of the district a place text names ("Portugal, <district>[, <municipality>]"), or null. Kept by text:
   * the same few thousand place texts recur on every contract a detection run judges, and folding them each time was
   * a twentieth of judging one.
   */
  readonly #regimeOfPlace = memoByText((place) => this.#readRegimeOfPlace(place));

  constructor(municipalities: readonly RegionalMunicipality[]) {
    this.#byCode = new Map(municipalities.map((m) => [m.code, m]));
    this.#byNif = new Map(municipalities.filter((m) => m.nif).map((m) => [m.nif, m]));
    this.#regimeByDistrict = new Map(municipalities.map((m) => [districtKey(m.district), regimeOfMunicipality(m)]));
    this.#regimeByDistrict.set('acores', 'azores');
    this.#regimeByDistrict.set('madeira', 'madeira');
    this.#regimeByDistrict.set('portugal continental', 'national');
    this.#regimeByDistrict.set('continente', 'national');
  }

  /**
   * The legal regime of a record's buyer: a municipal buyer's own municipality; else the record's places when they
   * all lie in one region — its municipalities, and the places it names only down to a district, the mainland
   * ("Portugal, Portugal Continental") or an autonomous region ("Portugal, Região Autónoma dos Açores");
   * `several` when they lie in more than one; else null: "Portugal" alone, a place abroad and a place no district of
   * ours fits tell nothing.
   */
  regionOf(
    codes: readonly string[],
    buyerNifs: readonly (string | null)[],
    placesText: string | null = null,
  ): RegionTold {
    const buyer = buyerNifs.map((n) => (n ? this.#byNif.get(n) : undefined)).find((m) => m !== undefined);
    if (buyer) return regimeOfMunicipality(buyer);
    const regimes = new Set(codes.map((c) => this.#byCode.get(c)).flatMap((m) => (m ? [regimeOfMunicipality(m)] : [])));
    for (const place of placesText?.split(';') ?? []) {
      const regime = this.#regimeOfPlace(place);
      if (regime) regimes.add(regime);
    }
    if (regimes.size > 1) return 'several';
    return regimes.size === 1 ? ([...regimes][0] as Regime) : null;
  }

  #readRegimeOfPlace(place: string): Regime | null {
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
