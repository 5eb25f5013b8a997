/**
 * Quartiles and the lower Tukey fence as Cardinal computes them (docs/integrity.md): its quartiles are statrs's
 * `quantile`, Hyndman–Fan type 8 (median-unbiased; R's `type = 8`), not numpy's default type 7, so that a fence here
 * is the fence Cardinal would give on the same values.
 */

/** The tau-quantile of ascending values, type 8: h = (n + 1/3)·tau + 1/3, between order statistics ⌊h⌋ and ⌊h⌋+1. */
export function quantile(ascending: readonly number[], tau: number): number {
  const n = ascending.length;
  if (n === 0 || tau < 0 || tau > 1) return Number.NaN;
  const h = (n + 1 / 3) * tau + 1 / 3;
  const whole = Math.floor(h);
  if (whole <= 0 || tau === 0) return ascending[0];
  if (whole >= n || tau === 1) return ascending[n - 1];
  const below = ascending[whole - 1];
  return below + (h - whole) * (ascending[whole] - below);
}

export interface LowerFence {
  q1: number;
  q3: number;
  /** Q1 − multiplier × (Q3 − Q1). */
  lower_fence: number;
}

export function lowerFence(ascending: readonly number[], multiplier: number): LowerFence {
  const q1 = quantile(ascending, 0.25);
  const q3 = quantile(ascending, 0.75);
  return { q1, q3, lower_fence: q1 - multiplier * (q3 - q1) };
}

/** Four decimals, as Cardinal rounds the statistics it reports (its `Meta`). */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;
