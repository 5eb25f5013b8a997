/**
 * The snapshot of an indicator: every municipality's latest point, with its percentile and staleness.
 * Computed once per indicator, value kind and data version (ReferenceData.memo), then paged from memory:
 * the percentile needs all 308 values anyway. With `asOf`, each municipality's latest point on or before that date:
 * the snapshot as it stood then (docs/api.md, Snapshots).
 */
import type { ReferenceData } from '../../core/reference.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import type { IndicatorRecord, PlanRecord, Treatment } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { emptyTreatment, servedValue } from './values.js';

export interface SnapshotEntry {
  municipality: string;
  name: string;
  district: string;
  value: number | null;
  /** The date of the value (the last day of its period); null where the municipality has none. */
  reference_date: string | null;
  percentile: number | null;
  is_stale: boolean;
  treatment: Treatment;
  synthetic: boolean;
}

export interface Snapshot {
  /** One entry per municipality, by code. */
  rows: SnapshotEntry[];
  /** The non-null values, ascending. */
  sortedValues: number[];
  /** The indicator's latest reference date, or null without data. */
  asOf: string | null;
}

export function loadSnapshot(
  reference: ReferenceData,
  store: Store,
  indicator: IndicatorRecord,
  plan: PlanRecord,
  date?: string,
): Promise<Snapshot> {
  return reference.memo(
    `snapshot:${indicator.key}:${plan.raw_values ? 'raw' : 'normalized'}:${date ?? 'latest'}`,
    async () => {
      const latest = new Map(
        (await store.latestPerMunicipality(indicator.key, date)).map((r) => [r.municipality_id, r]),
      );
      let asOf: string | null = null;
      for (const r of latest.values()) if (asOf === null || r.reference_date > asOf) asOf = r.reference_date;

      const served = new Map(
        [...latest].map(([id, row]) => [id, { ...servedValue(row, plan), date: row.reference_date }]),
      );
      const sortedValues = [...served.values()]
        .map((s) => s.value)
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);

      const rows = reference.municipalities.map((m): SnapshotEntry => {
        const point = served.get(m.id);
        const value = point?.value ?? null;
        return {
          municipality: m.code,
          name: m.name,
          district: m.district,
          value,
          reference_date: point?.date ?? null,
          percentile: value === null ? null : percentileOf(sortedValues, value),
          is_stale: point !== undefined && asOf !== null && point.date < asOf,
          treatment: point?.treatment ?? emptyTreatment(indicator.treatment, plan),
          synthetic: isDemoIndicatorSource(indicator.source),
        };
      });
      return { rows, sortedValues, asOf };
    },
  );
}

/** Share (0–100) of municipalities whose value is strictly lower; equal values share the same percentile. */
export function percentileOf(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return Math.round((lo / sorted.length) * 10_000) / 100;
}
