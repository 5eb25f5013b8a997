/**
 * The arithmetic of the indicator detectors, over the series of one indicator in every municipality:
 *  - a change is the relative difference between a point and the point before it in the same series,
 *    Δ% = (v − v_prev) / |v_prev| × 100, when both are known, v_prev ≠ 0 and both have the same sign;
 *  - a jump is a change with |Δ%| ≥ max(25 %, 3 × the median |Δ%| of all municipalities at that reference date):
 *    large in itself, and large against what every other municipality went through in the same period (a
 *    national shock moves the median, not the jumps). With fewer than 5 municipalities to compare, the 25 % floor
 *    alone decides. Indicators whose values cross zero (value domain `signed`) have no jumps: a relative change
 *    around zero means nothing;
 *  - a record is a series' latest point beating every earlier point, higher or lower, in a series of at least five
 *    known points.
 */
import type { ObservationRow } from '../store/records.js';

export const JUMP_FLOOR_PERCENT = 25;
export const JUMP_MEDIAN_FACTOR = 3;
export const MIN_PEERS = 5;
export const MIN_RECORD_POINTS = 5;

export interface Change {
  /** Index in the municipality's series of the later point. */
  index: number;
  reference_date: string;
  previous_date: string;
  previous: number;
  value: number;
  percent: number;
}

export interface DateBaseline {
  /** Median |Δ%| of the municipalities with a change at this date. */
  median: number;
  /** How many municipalities it was taken over. */
  peers: number;
  threshold: number;
}

export interface Jump extends Change {
  baseline: DateBaseline;
}

export interface RecordPoint {
  direction: 'high' | 'low';
  reference_date: string;
  value: number;
  /** The record it beats and when that was. */
  previous: number;
  previous_date: string;
  /** Known points of the series. */
  points: number;
}

export function changes(series: readonly ObservationRow[]): Change[] {
  const out: Change[] = [];
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1].value;
    const value = series[i].value;
    if (prev === null || value === null || prev === 0) continue;
    if (value !== 0 && Math.sign(value) !== Math.sign(prev)) continue;
    out.push({
      index: i,
      reference_date: series[i].reference_date,
      previous_date: series[i - 1].reference_date,
      previous: prev,
      value,
      percent: ((value - prev) / Math.abs(prev)) * 100,
    });
  }
  return out;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The jump threshold of each reference date, from every municipality's change at that date. */
export function baselines(changesByMunicipality: ReadonlyMap<number, readonly Change[]>): Map<string, DateBaseline> {
  const sizes = new Map<string, number[]>();
  for (const list of changesByMunicipality.values()) {
    for (const c of list) {
      const s = sizes.get(c.reference_date) ?? [];
      sizes.set(c.reference_date, s);
      s.push(Math.abs(c.percent));
    }
  }
  const out = new Map<string, DateBaseline>();
  for (const [date, s] of sizes) {
    const m = median(s);
    const threshold = s.length >= MIN_PEERS ? Math.max(JUMP_FLOOR_PERCENT, JUMP_MEDIAN_FACTOR * m) : JUMP_FLOOR_PERCENT;
    out.set(date, { median: m, peers: s.length, threshold });
  }
  return out;
}

export function jumps(list: readonly Change[], dates: ReadonlyMap<string, DateBaseline>): Jump[] {
  const out: Jump[] = [];
  for (const c of list) {
    const baseline = dates.get(c.reference_date);
    if (baseline && Math.abs(c.percent) >= baseline.threshold) out.push({ ...c, baseline });
  }
  return out;
}

/** The series' latest point when it is a record (the latest row must hold a value). */
export function latestRecord(series: readonly ObservationRow[]): RecordPoint | null {
  const last = series[series.length - 1];
  if (!last || last.value === null) return null;
  let high: ObservationRow | null = null;
  let low: ObservationRow | null = null;
  let points = 1;
  for (let i = 0; i < series.length - 1; i++) {
    const v = series[i].value;
    if (v === null) continue;
    points++;
    // On ties the earlier point holds the record: it was there first.
    if (high === null || v > (high.value as number)) high = series[i];
    if (low === null || v < (low.value as number)) low = series[i];
  }
  if (points < MIN_RECORD_POINTS || high === null || low === null) return null;
  const base = { reference_date: last.reference_date, value: last.value, points };
  if (last.value > (high.value as number))
    return { ...base, direction: 'high', previous: high.value as number, previous_date: high.reference_date };
  if (last.value < (low.value as number))
    return { ...base, direction: 'low', previous: low.value as number, previous_date: low.reference_date };
  return null;
}

/**
 * The episode a period belongs to: the run of consecutive jump periods containing it (by index in the series),
 * named by the run's first reference date; null when the period is not a jump.
 */
export function episodeStarts(
  series: readonly ObservationRow[],
  jumpIndexes: ReadonlySet<number>,
): Map<number, string> {
  const out = new Map<number, string>();
  let start: string | null = null;
  for (let i = 0; i < series.length; i++) {
    if (!jumpIndexes.has(i)) {
      start = null;
      continue;
    }
    start ??= series[i].reference_date;
    out.set(i, start);
  }
  return out;
}
