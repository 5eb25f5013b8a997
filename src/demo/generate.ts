/**
 * The deterministic demo data: every catalogue indicator for every municipality, with the imperfections real
 * sources have (missing, null and stale points). Same seed and same year/month of `today` ⇒ identical output;
 * noise is indexed by period, so a later month only appends points. The model: docs/data.md, "The demo dataset".
 */

import type { CatalogueEntry } from '../ingest/catalogue.js';
import type { Frequency, MunicipalityRecord, ObservationInput } from '../store/records.js';
import { MODELS } from './indicator-models.js';
import { type Period, periodsFor } from './periods.js';
import { type Profile, profileOf } from './profile.js';
import { hashSeed, normalAt, Rng, uniformAt } from './random.js';
import { curveAt, fallbackModel, type Model } from './series-model.js';

export interface DemoOptions {
  seed: number;
  today: Date;
}

const MISSING_SHARE = 0.015;
const NULL_SHARE = 0.01;
const STALE_SHARE = 0.05;
/** Share of a stale municipality's indicators that stop early (one at least). */
const STALE_INDICATOR_SHARE = 0.3;

export function generateDemoObservations(
  municipalities: readonly MunicipalityRecord[],
  catalogue: readonly CatalogueEntry[],
  options: DemoOptions,
): Map<string, ObservationInput[]> {
  const { seed, today } = options;
  const profiles = municipalities.map((m) => profileOf(m, seed));
  const lags = staleLags(municipalities, catalogue, seed);
  const underlying = new Underlying(seed, today);
  const out = new Map<string, ObservationInput[]>();
  for (const entry of catalogue) {
    const model = MODELS[entry.key] ?? fallbackModel(entry);
    const periods = periodsFor(entry.frequency, today);
    const provisional = entry.frequency === 'monthly' && entry.treatment === 'raw';
    const rows: ObservationInput[] = [];
    for (const p of profiles) {
      const values = underlying.values(entry.key, model, entry.frequency, p);
      const last = periods.length - 1 - (lags.get(`${p.id}|${entry.key}`) ?? 0);
      const gapSeed = hashSeed(seed, entry.key, p.id, 'gap');
      const nullShare = NULL_SHARE + (model.sparse ? Math.min(0.4, 200 / p.pop) : 0);
      for (let i = 0; i <= last; i++) {
        const u = i === last ? 1 : uniformAt(gapSeed, periods[i].index);
        if (u < MISSING_SHARE) continue;
        rows.push({
          municipality_id: p.id,
          reference_date: periods[i].reference_date,
          value: u < MISSING_SHARE + nullShare ? null : finish(values[i], model, entry, p),
          treatment: provisional && i === periods.length - 1 ? 'estimated' : entry.treatment,
        });
      }
    }
    out.set(entry.key, rows);
  }
  return out;
}

/** Unrounded values per (indicator, frequency, municipality), kept because derived indicators reuse them. */
class Underlying {
  readonly #cache = new Map<string, number[]>();

  constructor(
    readonly seed: number,
    readonly today: Date,
  ) {}

  values(key: string, model: Model, frequency: Frequency, p: Profile): number[] {
    const id = `${key}|${frequency}|${p.id}`;
    let values = this.#cache.get(id);
    if (!values) {
      const periods = periodsFor(frequency, this.today);
      if (model.derive) {
        const inputs = model.derive.from.map((k) => this.values(k, MODELS[k], frequency, p));
        const noiseSeed = hashSeed(this.seed, key, p.id, 'noise');
        const { combine } = model.derive;
        values = periods.map((period, i) =>
          combine(
            inputs.map((v) => v[i]),
            normalAt(noiseSeed, period.index),
            p,
          ),
        );
      } else {
        values = seriesValues(key, model, periods, p, this.seed);
      }
      this.#cache.set(id, values);
    }
    return values;
  }
}

function seriesValues(key: string, model: Model, periods: readonly Period[], p: Profile, seed: number): number[] {
  const rng = new Rng(hashSeed(seed, key, p.id));
  if (model.path) return model.path(p, rng, periods);
  // Draw order is fixed (level, trend, wave), so a series depends only on seed, indicator and municipality.
  const level = model.level(p, () => rng.normal());
  const trend =
    (typeof model.trend === 'function' ? model.trend(p) : (model.trend ?? 0)) + (model.trendSpread ?? 0) * rng.normal();
  const waveAmplitude = (model.wave ?? 0) * (0.5 + rng.next());
  const wavePeriod = 5 + 6 * rng.next();
  const wavePhase = 2 * Math.PI * rng.next();
  const noise = typeof model.noise === 'function' ? model.noise(p, level) : (model.noise ?? 0);
  const seasonal = model.seasonal?.(p);
  const noiseSeed = hashSeed(seed, key, p.id, 'noise');
  const values: number[] = [];
  for (const period of periods) {
    const t = period.time - 2021.5;
    let shift = trend * t + waveAmplitude * Math.sin((2 * Math.PI * t) / wavePeriod + wavePhase);
    if (model.national) shift += curveAt(model.national, period.time);
    if (seasonal && period.month !== null)
      shift += seasonal.amplitude * Math.cos((2 * Math.PI * (period.month - seasonal.peak)) / 12);
    shift += noise * normalAt(noiseSeed, period.index);
    values.push(model.kind === 'mult' ? level * Math.exp(shift) : level + shift);
  }
  return values;
}

/** Clamps to the model's and the unit's range, then rounds (counts to integers, rates to 2 decimals…). */
function finish(value: number, model: Model, entry: CatalogueEntry, p: Profile): number {
  if (!Number.isFinite(value)) throw new Error(`demo data: ${entry.key} for municipality ${p.id} is not a number`);
  const signed = entry.value_domain === 'signed';
  let lo = model.min ?? (signed ? Number.NEGATIVE_INFINITY : 0);
  let hi = model.max ?? Number.POSITIVE_INFINITY;
  if (entry.unit === 'percent' && !signed) [lo, hi] = [Math.max(lo, 0), Math.min(hi, 100)];
  if (entry.unit === 'per_1000') hi = Math.min(hi, 1000);
  if (entry.unit === 'km2') hi = Math.min(hi, p.area);
  const factor = 10 ** model.decimals;
  const rounded = Math.round(Math.min(hi, Math.max(lo, value)) * factor) / factor;
  return rounded === 0 ? 0 : rounded; // no -0
}

/** `municipality id|indicator key` → how many periods early that series stops. */
function staleLags(
  municipalities: readonly MunicipalityRecord[],
  catalogue: readonly CatalogueEntry[],
  seed: number,
): Map<string, number> {
  const rng = new Rng(hashSeed(seed, 'stale'));
  const count = Math.max(1, Math.round(municipalities.length * STALE_SHARE));
  const chosen = rng.shuffle(municipalities.map((m) => m.id)).slice(0, count);
  const lags = new Map<string, number>();
  for (const id of chosen) {
    const forced = rng.int(0, catalogue.length - 1);
    catalogue.forEach((entry, i) => {
      const pickedByChance = rng.next() < STALE_INDICATOR_SHARE;
      if (i === forced || pickedByChance) lags.set(`${id}|${entry.key}`, rng.int(1, 3));
    });
  }
  return lags;
}
