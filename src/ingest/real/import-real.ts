/**
 * `munidata import real` and a first start: load the real data the project ships (`data/real/`, docs/data.md,
 * "Real data in the box"): the series of ./real-series.ts into their catalogue indicators, through the same store
 * writes as the INE importer, and the Portal BASE contracts of ./real-contracts.ts through the BASE importer.
 *
 * A series replaces the demo series (or an empty one) whole, so real and generated points never share a series;
 * loaded again it merges into itself and changes nothing. A series another source holds (an INE sync, another
 * import) is refused, nothing written, unless `force`, which replaces it.
 */
import { AdminError } from '../../lib/admin-error.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import type { ObservationInput } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { BaseImportReport } from '../base/import-base.js';
import { importRealContracts } from './real-contracts.js';
import { readRealCsv } from './real-files.js';
import { REAL_SERIES, type RealSeries } from './real-series.js';

export interface RealSeriesReport {
  indicator: string;
  source: string;
  file: string;
  mode: 'replace' | 'merge';
  rows_read: number;
  /** Rows that are no municipal value of this series (aggregates, other categories). */
  other_rows: number;
  placed: number;
  /** Rows whose value the file says does not exist, counted by reason. */
  skipped: Record<string, number>;
  municipalities: number;
  first_date: string | null;
  last_date: string | null;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Points of the series before the load that it removed (the demo's). */
  removed: number;
}

export interface RealSeriesImportReport {
  series: RealSeriesReport[];
}

export interface RealImportReport extends RealSeriesImportReport {
  contracts: BaseImportReport;
}

/** The series first (their checks refuse before any write), then the contracts. */
export async function importReal(
  store: Store,
  options: { force?: boolean; now?: Date } = {},
): Promise<RealImportReport> {
  const { series } = await importRealSeries(store, options);
  return { series, contracts: await importRealContracts(store, options.now ?? new Date()) };
}

export async function importRealSeries(
  store: Store,
  options: { force?: boolean } = {},
): Promise<RealSeriesImportReport> {
  const municipalities = await store.listMunicipalities();
  if (municipalities.length === 0) throw new AdminError('no municipalities in the store: run `munidata migrate` first');
  const idOf = new Map(municipalities.map((m) => [m.code, m.id]));
  const indicators = new Map((await store.listIndicators()).map((i) => [i.key, i]));
  // Every check before any write: a refusal leaves the store as it was.
  const plans = REAL_SERIES.map((series) => {
    const indicator = indicators.get(series.indicator);
    if (!indicator)
      throw new AdminError(`the store has no indicator "${series.indicator}": run \`munidata migrate\` first`);
    const held = indicator.source ?? '';
    const ours = held === '' || isDemoIndicatorSource(held) || held === series.source;
    if (!ours && !options.force) {
      throw new AdminError(
        `"${series.indicator}" holds another source's series ("${held}"); ` +
          `pass --force to replace it with ${series.source}`,
      );
    }
    return { series, mode: held === series.source ? ('merge' as const) : ('replace' as const) };
  });
  const reports: RealSeriesReport[] = [];
  for (const { series, mode } of plans) reports.push(await load(store, series, mode, idOf));
  return { series: reports };
}

async function load(
  store: Store,
  series: RealSeries,
  mode: 'replace' | 'merge',
  idOf: ReadonlyMap<string, number>,
): Promise<RealSeriesReport> {
  const rows = readRealCsv(series.file);
  const points: ObservationInput[] = [];
  const skipped: Record<string, number> = {};
  let other = 0;
  for (const row of rows) {
    const point = series.point(row);
    if (point === null) other++;
    else if ('reason' in point) skipped[point.reason] = (skipped[point.reason] ?? 0) + 1;
    else {
      const id = idOf.get(point.code);
      // The shipped files are checked against the 308 municipalities: an unknown code is a broken copy.
      if (id === undefined) throw new Error(`${series.file}: no municipality with code "${point.code}"`);
      points.push({ municipality_id: id, reference_date: point.reference_date, value: point.value, treatment: 'raw' });
    }
  }
  const dates = points.map((p) => p.reference_date).sort();
  const before = await store.countObservations(series.indicator);
  const written = await store.writeObservations(series.indicator, points, { replace: mode === 'replace' });
  const after = await store.countObservations(series.indicator);
  await store.setIndicatorSource(series.indicator, series.source);
  return {
    indicator: series.indicator,
    source: series.source,
    file: `data/real/${series.file}`,
    mode,
    rows_read: rows.length,
    other_rows: other,
    placed: points.length,
    skipped,
    municipalities: new Set(points.map((p) => p.municipality_id)).size,
    first_date: dates[0] ?? null,
    last_date: dates[dates.length - 1] ?? null,
    ...written,
    removed: before + written.inserted - after,
  };
}
