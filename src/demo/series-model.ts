/**
 * The shape of a demo series model, the national curves models share, and the fallback for catalogue entries
 * that have no hand-written model (so a new catalogue entry still gets plausible demo data).
 */
import type { CatalogueEntry } from '../ingest/catalogue.js';
import type { Period } from './periods.js';
import type { Profile } from './profile.js';
import type { Rng } from './random.js';

/** Points (calendar time in fractional years, value), linearly interpolated, flat beyond the ends. */
export type Curve = readonly (readonly [number, number])[];

export interface Model {
  /**
   * mult: value = level · exp(trend·t + wave + national + seasonal + noise), for positive quantities;
   * add:  value = level + trend·t + wave + national + seasonal + noise, for quantities that drift by amounts.
   * t is years since mid-2021, the year population_2021 describes.
   */
  kind: 'mult' | 'add';
  /** The municipality's level where the national curve is 0; `z` draws the municipality's own offsets. */
  level(p: Profile, z: () => number): number;
  trend?: number | ((p: Profile) => number);
  /** Standard deviation of the municipality-specific part of the trend. */
  trendSpread?: number;
  /** Amplitude of a slow municipality-specific cycle (5–11 years), the "smooth drift". */
  wave?: number;
  /** Standard deviation of the per-period noise; may depend on size (few events ⇒ noisy rates). */
  noise?: number | ((p: Profile, level: number) => number);
  /** A path shared by all municipalities (crises, booms), log-scale for mult, absolute for add. */
  national?: Curve;
  /** Monthly series only: amplitude (same scale as national) and peak month. */
  seasonal?: (p: Profile) => { amplitude: number; peak: number };
  min?: number;
  max?: number;
  decimals: number;
  /** Withheld (null) values are more frequent in small municipalities, as with statistical confidentiality. */
  sparse?: boolean;
  /** Computed from other indicators' underlying values at the same point instead of from its own level. */
  derive?: { from: string[]; combine(values: number[], eps: number, p: Profile): number };
  /** A complete custom path (e.g. a tax rate that only changes by decision). */
  path?: (p: Profile, rng: Rng, periods: readonly Period[]) => number[];
}

export function curveAt(curve: Curve, time: number): number {
  if (time <= curve[0][0]) return curve[0][1];
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i];
    if (time <= x1) {
      const [x0, y0] = curve[i - 1];
      return y0 + ((y1 - y0) * (time - x0)) / (x1 - x0);
    }
  }
  return curve[curve.length - 1][1];
}

/** A curve from annual values starting at `firstYear`, placed mid-year. */
export function yearly(firstYear: number, values: readonly number[]): Curve {
  return values.map((v, i) => [firstYear + i + 0.5, v] as const);
}

/** A log-scale curve from annual ratios to the anchor year (ratio 1 ⇒ 0). */
export function ratios(firstYear: number, values: readonly number[], anchor = 1): Curve {
  return yearly(
    firstYear,
    values.map((v) => Math.log(v / anchor)),
  );
}

/** Relative noise of a rate built from about `perCapita`·population events a period (Poisson), plus a floor. */
export const events =
  (perCapita: number, floor = 0.02) =>
  (p: Profile): number =>
    floor + 1 / Math.sqrt(Math.max(1, perCapita * p.pop));

/** Relative noise of a count around its level (Poisson), plus a floor. */
export const countNoise =
  (floor: number) =>
  (_p: Profile, level: number): number =>
    floor + 1 / Math.sqrt(Math.max(1, level));

export function fallbackModel(entry: CatalogueEntry): Model {
  const base = { kind: 'mult' as const, trendSpread: 0.01, wave: 0.03, noise: 0.04 };
  switch (entry.unit) {
    case 'persons':
    case 'count':
      return { ...base, level: (p, z) => p.pop * 0.01 * Math.exp(0.3 * z()), noise: countNoise(0.03), decimals: 0 };
    case 'percent':
      return { ...base, level: (_p, z) => 30 * Math.exp(0.3 * z()), max: 100, decimals: 2 };
    case 'per_1000':
      return { ...base, level: (_p, z) => 10 * Math.exp(0.3 * z()), decimals: 2 };
    case 'eur':
      return { ...base, level: (p, z) => 1000 * Math.exp(0.2 * p.wealth + 0.2 * z()), decimals: 2 };
    case 'eur_per_capita':
      return { ...base, level: (p, z) => 500 * Math.exp(0.2 * p.wealth + 0.3 * z()), decimals: 2 };
    case 'index':
      return { ...base, level: (_p, z) => 100 * Math.exp(0.2 * z()), decimals: 2 };
    case 'km2':
      return { ...base, level: (p, z) => p.area * 0.1 * Math.exp(0.3 * z()), max: Number.MAX_VALUE, decimals: 2 };
    case 'years':
      return { kind: 'add', level: (_p, z) => 45 + 2 * z(), trend: 0.1, noise: 0.1, decimals: 1 };
    default:
      return { ...base, level: (_p, z) => Math.exp(0.3 * z()), decimals: 2 };
  }
}
