/**
 * Quartiles and fences as Cardinal computes them (docs/integrity.md, "Against the whole corpus"): Cardinal calls
 * statrs 0.16's `Data::quantile`, which is Hyndman and Fan's type 8 (median-unbiased; R's `quantile(type = 8)`), not
 * the type 7 of numpy's and spreadsheets' defaults — written once here so that every corpus check agrees with it.
 */

/**
 * The `tau` quantile of `sorted` (ascending), type 8: h = (n + 1/3)·tau + 1/3, interpolated linearly between the
 * order statistics x₍⌊h⌋₎ and x₍⌊h⌋+1₎ (1-based), the minimum below the first and the maximum above the last —
 * statrs 0.16.1, src/statistics/slice_statistics.rs, `quantile`. NaN for no values or a tau outside [0, 1].
 */
export function quantile(sorted: readonly number[], tau: number): number {
  const n = sorted.length;
  if (n === 0 || !(tau >= 0 && tau <= 1)) return Number.NaN;
  const h = (n + 1 / 3) * tau + 1 / 3;
  const below = Math.floor(h);
  if (below <= 0 || tau === 0) return sorted[0];
  if (below >= n || tau === 1) return sorted[n - 1];
  const a = sorted[below - 1];
  return a + (h - below) * (sorted[below] - a);
}

/** The statistics of one distribution that a corpus check compares with, as Cardinal's `Meta` gives them. */
export interface Fences {
  /** How many values the quartiles were computed over. */
  readonly n: number;
  readonly q1: number;
  readonly q3: number;
  /** Q3 + 1.5 × IQR: a value at or above it is a high outlier (Cardinal compares inclusively). */
  readonly upper_fence: number;
  /** Q1 − 1.5 × IQR: a value at or below it is a low outlier. */
  readonly lower_fence: number;
}

/** The quartiles and Tukey's fences of `values` (any order); null when there are none. */
export function fences(values: readonly number[]): Fences | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  return { n: sorted.length, q1, q3, upper_fence: q3 + 1.5 * iqr, lower_fence: q1 - 1.5 * iqr };
}

/** As Cardinal rounds the statistics it reports (`Meta`): to four decimals; comparisons use the unrounded values. */
export const roundStat = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Q1, Q3 and the lower fence Q1 − multiplier × IQR of ascending values (the comparable-procedures fence). */
export function lowerFence(
  ascending: readonly number[],
  multiplier: number,
): Pick<Fences, 'q1' | 'q3' | 'lower_fence'> {
  const q1 = quantile(ascending, 0.25);
  const q3 = quantile(ascending, 0.75);
  return { q1, q3, lower_fence: q1 - multiplier * (q3 - q1) };
}
