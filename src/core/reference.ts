/**
 * Reference data every request needs (municipalities, the indicator catalogue, beta gates) held in memory,
 * plus a memo for derived results (snapshots). All of it is dropped when the store's data version moves;
 * the version is read at most once a second, so an import in another process shows within a second.
 */
import { districtNamed } from '../lib/district-names.js';
import { nameKey } from '../lib/text-match.js';
import type { IndicatorRecord, MunicipalityRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { ResponseCache } from './response-cache.js';

const CHECK_EVERY_MS = 1_000;

export class ReferenceData {
  readonly version: number;
  readonly municipalities: readonly MunicipalityRecord[];
  readonly indicators: readonly IndicatorRecord[];
  /** The districts and autonomous regions, as the data names them, in Portuguese alphabetical order. */
  readonly districts: readonly string[];
  readonly betaGates: ReadonlySet<string>;
  readonly #byRef = new Map<string, MunicipalityRecord>();
  /** By name key (case, accents and hyphens folded away): names first, then slugs, the first of a shared name kept. */
  readonly #byName = new Map<string, MunicipalityRecord>();
  readonly #byId = new Map<number, MunicipalityRecord>();
  readonly #indicators = new Map<string, IndicatorRecord>();
  readonly #memo = new Map<string, Promise<unknown>>();
  /** Rendered answers of data operations, valid for this version only. */
  readonly responses = new ResponseCache();

  constructor(init: {
    version: number;
    municipalities: MunicipalityRecord[];
    indicators: IndicatorRecord[];
    betaGates: string[];
  }) {
    this.version = init.version;
    this.municipalities = init.municipalities;
    this.indicators = init.indicators;
    this.districts = [...new Set(init.municipalities.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt'));
    this.betaGates = new Set(init.betaGates);
    for (const m of init.municipalities) {
      this.#byRef.set(m.code, m);
      this.#byRef.set(m.slug, m);
      this.#byId.set(m.id, m);
    }
    for (const m of init.municipalities) if (!this.#byName.has(nameKey(m.name))) this.#byName.set(nameKey(m.name), m);
    for (const m of init.municipalities) if (!this.#byName.has(nameKey(m.slug))) this.#byName.set(nameKey(m.slug), m);
    for (const i of init.indicators) this.#indicators.set(i.key, i);
  }

  /**
   * A municipality by its 4-digit code, its slug or its name, case- and accent-insensitively (`Guimarães`,
   * `guimaraes`, `VILA NOVA DE GAIA`). Two municipalities share a name (Lagoa, in the Algarve and in the Azores):
   * the name is the first one's, as its slug is; the other is reached by its slug or code (docs/api.md).
   */
  municipality(ref: string): MunicipalityRecord | undefined {
    return this.#byRef.get(ref) ?? this.#byRef.get(ref.trim().toLowerCase()) ?? this.#byName.get(nameKey(ref));
  }

  /**
   * The data's name of a district or autonomous region, named as a person writes it: case, accents and hyphens
   * ignored, the regions also by their short names (`Açores`, `Azores`, `Madeira`; lib/district-names.ts).
   */
  district(ref: string): string | undefined {
    return districtNamed(this.districts, ref);
  }

  municipalityById(id: number): MunicipalityRecord | undefined {
    return this.#byId.get(id);
  }

  indicator(key: string): IndicatorRecord | undefined {
    return this.#indicators.get(key);
  }

  /** Computes `key` once per data version; a failed computation is forgotten so the next call retries. */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let value = this.#memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      value.catch(() => this.#memo.delete(key));
      this.#memo.set(key, value);
    }
    return value;
  }
}

export class ReferenceCache {
  readonly #store: Store;
  #current: Promise<ReferenceData> | undefined;
  /** What `#current` resolved to, for `fresh`. */
  #resolved: ReferenceData | undefined;
  #checkedAt = 0;

  constructor(store: Store) {
    this.#store = store;
  }

  /**
   * The reference data without waiting, when it was checked against the store's data version less than a
   * second ago (the common case: the hot path then needs no promise); otherwise undefined, and `current` it is.
   */
  fresh(nowMs: number): ReferenceData | undefined {
    const resolved = this.#resolved;
    return resolved !== undefined && nowMs - this.#checkedAt < CHECK_EVERY_MS ? resolved : undefined;
  }

  async current(nowMs: number): Promise<ReferenceData> {
    if (this.#current && nowMs - this.#checkedAt < CHECK_EVERY_MS) return this.#current;
    this.#checkedAt = nowMs;
    const version = await this.#store.dataVersion();
    const held = this.#current && (await this.#current);
    if (!held || held.version !== version) {
      const loading = this.#load(version);
      this.#current = loading;
      this.#resolved = undefined;
      loading.then(
        (data) => {
          if (this.#current === loading) this.#resolved = data;
        },
        () => {
          if (this.#current === loading) this.#current = undefined;
        },
      );
    } else {
      this.#resolved = held;
    }
    return this.#current as Promise<ReferenceData>;
  }

  async #load(version: number): Promise<ReferenceData> {
    const [municipalities, indicators, betaGates] = await Promise.all([
      this.#store.listMunicipalities(),
      this.#store.listIndicators(),
      this.#store.listBetaGates(),
    ]);
    return new ReferenceData({ version, municipalities, indicators, betaGates });
  }
}
