/**
 * `munidata import ine FILE --indicator KEY`: loads one INE indicator response into one catalogue indicator.
 *
 * Every row read ends in exactly one bucket of the report, so nothing is dropped unseen:
 *   rows_read = placed.rows + aggregates (all levels) + non_total.count + unknown_period_rows + unplaced.length
 *   placed.rows = placed.with_value + placed.null_value = inserted + updated + unchanged
 * Municipal rows without a value (confidential, "x", …) are written as null points: INE publishes the point,
 * only not its value, and a null overwrites a value an earlier import may have stored.
 */
import { AdminError } from '../../lib/admin-error.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import type { Unit } from '../../lib/vocabulary.js';
import type { IndicatorRecord, ObservationInput } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type AggregateLevel, makeGeocodeResolver } from './geocode.js';
import { ineUnitOf, unitFits } from './ine-unit.js';
import { type IneIndicator, type IneParseOptions, parseIneResponse } from './parse.js';
import { periodToReferenceDate } from './period.js';

export interface IneImportOptions extends IneParseOptions {
  /** The catalogue key the data is for (must exist in the store). */
  indicator: string;
  /** 'raw' (as published, the default) or 'estimated' (provisional figures). */
  treatment?: 'raw' | 'estimated';
  /** Which INE indicator to take when the response holds several. */
  ineCode?: string;
  /** The INE code the catalogue gives the indicator (`ine_varcd`): a file of another code is refused. */
  catalogueCode?: string | null;
  /** Import even when the file's code or unit contradicts the indicator, or its series holds another source's data. */
  force?: boolean;
}

export interface IneUnplacedRow {
  period: string;
  geocod: string;
  geodsg: string;
  reason: string;
}

export interface IneImportReport {
  indicator: string;
  ine: {
    code: string;
    title: string;
    variant: 'Dados' | 'Pref';
    meta_url: string | null;
    extracted_at: string | null;
    last_updated: string | null;
  };
  /** The indicator's `source` label after the import (unchanged when nothing was placed). */
  source: string | null;
  /** replace: the indicator held demo data, which the INE series replaces; merge: upsert into what is there. */
  mode: 'replace' | 'merge';
  treatment: 'raw' | 'estimated';
  /** Each period of the response, its reference date (null when the label is not understood) and its rows. */
  periods: { label: string; reference_date: string | null; rows: number }[];
  unknown_periods: string[];
  rows_read: number;
  placed: {
    rows: number;
    with_value: number;
    null_value: number;
    inserted: number;
    updated: number;
    unchanged: number;
    /** Observations of the indicator removed by a replace (the demo points INE did not supply). */
    removed: number;
  };
  /** Placed rows without a usable value: count per "sinal_conv sinal_conv_desc", and any unreadable `valor`. */
  null_values: {
    by_sign: Record<string, number>;
    unreadable: { period: string; geocod: string; valor: string }[];
  };
  aggregates: Record<AggregateLevel, number>;
  non_total: IneIndicator['non_total'];
  /** The category taken of each extra dimension (the one asked for, or the total), rows of others are non_total. */
  dimensions: IneIndicator['dimensions'];
  /** Rows of periods whose label gave no reference date (listed in unknown_periods). */
  unknown_period_rows: number;
  unplaced: IneUnplacedRow[];
  warnings: string[];
}

export async function importIne(
  store: Store,
  input: string | unknown,
  options: IneImportOptions,
): Promise<IneImportReport> {
  const treatment = options.treatment ?? 'raw';
  if (treatment !== 'raw' && treatment !== 'estimated')
    throw new Error(`treatment must be raw or estimated, not "${treatment}"`);
  const indicator = await findIndicator(store, options.indicator);
  const municipalities = await store.listMunicipalities();
  if (municipalities.length === 0) throw new Error('no municipalities in the store: run `munidata migrate` first');

  const ine = pickIndicator(parseIneResponse(input, options), options.ineCode);
  const unit = ineUnitOf(ine.title);
  if (!options.force) refuseContradictions(indicator, ine, unit, options.catalogueCode ?? null);
  const resolve = makeGeocodeResolver(municipalities);
  const mode = isDemoIndicatorSource(indicator.source) ? 'replace' : 'merge';

  const report: IneImportReport = {
    indicator: indicator.key,
    ine: {
      code: ine.code,
      title: ine.title,
      variant: ine.variant,
      meta_url: ine.meta_url,
      extracted_at: ine.extracted_at,
      last_updated: ine.last_updated,
    },
    source: indicator.source,
    mode,
    treatment,
    periods: [],
    unknown_periods: [],
    rows_read: ine.rows_read,
    placed: { rows: 0, with_value: 0, null_value: 0, inserted: 0, updated: 0, unchanged: 0, removed: 0 },
    null_values: { by_sign: {}, unreadable: [] },
    aggregates: { country: 0, nuts1: 0, nuts2: 0, nuts3: 0, parish: 0 },
    non_total: ine.non_total,
    dimensions: ine.dimensions,
    unknown_period_rows: 0,
    unplaced: [],
    warnings: [],
  };

  const dates = new Map(ine.periods.map((p) => [p, periodToReferenceDate(p)]));
  const rowsPerPeriod = new Map<string, number>();
  const rows: ObservationInput[] = [];
  const placedBy = new Map<string, string>(); // municipality|date → "geocod (period)", to catch duplicates
  for (const obs of ine.observations) {
    rowsPerPeriod.set(obs.period, (rowsPerPeriod.get(obs.period) ?? 0) + 1);
    const date = dates.get(obs.period) ?? null;
    if (date === null) {
      report.unknown_period_rows++;
      continue;
    }
    const place = resolve(obs.geocod);
    if (place.kind === 'aggregate') {
      report.aggregates[place.level]++;
      continue;
    }
    if (place.kind === 'unplaced') {
      report.unplaced.push({ period: obs.period, geocod: obs.geocod, geodsg: obs.geodsg, reason: place.reason });
      continue;
    }
    const slot = `${place.municipality.id}|${date}`;
    const first = placedBy.get(slot);
    if (first !== undefined) {
      // Two rows for one municipality and date (e.g. both NUTS schemes in one file): keep the first, report the other.
      report.unplaced.push({
        period: obs.period,
        geocod: obs.geocod,
        geodsg: obs.geodsg,
        reason: `duplicate of ${first}`,
      });
      continue;
    }
    placedBy.set(slot, `${obs.geocod} (${obs.period})`);
    rows.push({ municipality_id: place.municipality.id, reference_date: date, value: obs.value, treatment });
    if (obs.value === null) {
      const sign = [obs.sinal_conv, obs.sinal_conv_desc].filter(Boolean).join(' ') || '(no sign)';
      report.null_values.by_sign[sign] = (report.null_values.by_sign[sign] ?? 0) + 1;
      if (obs.valor !== null)
        report.null_values.unreadable.push({ period: obs.period, geocod: obs.geocod, valor: obs.valor });
    }
  }

  report.periods = ine.periods
    .map((label) => ({ label, reference_date: dates.get(label) ?? null, rows: rowsPerPeriod.get(label) ?? 0 }))
    .sort((a, b) => (a.reference_date ?? '\uffff').localeCompare(b.reference_date ?? '\uffff'));
  report.unknown_periods = report.periods.filter((p) => p.reference_date === null).map((p) => p.label);
  report.placed.rows = rows.length;
  report.placed.null_value = rows.filter((r) => r.value === null).length;
  report.placed.with_value = rows.length - report.placed.null_value;
  report.warnings.push(...repeatedPeriodWarnings(rows, ine.periods, dates));

  if (rows.length === 0) {
    // Writing nothing in replace mode would wipe the demo series for an empty import: refuse to touch the store.
    report.warnings.push('no municipal observation could be placed: nothing was written');
    if (ine.observations.length === 0 && ine.non_total.count > 0) report.warnings.push(otherCategoriesOnly(ine));
    return report;
  }
  const before = await store.countObservations(indicator.key);
  const written = await store.writeObservations(indicator.key, rows, { replace: mode === 'replace' });
  const after = await store.countObservations(indicator.key);
  Object.assign(report.placed, written, { removed: before + written.inserted - after });
  report.source = sourceLabel(ine);
  await store.setIndicatorSource(indicator.key, report.source);
  return report;
}

/**
 * The file must be the indicator asked for (docs/data.md, Importing INE data): its code the catalogue's, its unit
 * one the indicator's unit can be, and the series it goes into the demo's or this same code's — never another
 * source's, replaced without a word. `--force` (`force`) overrides all three, for a code the catalogue lacks.
 */
function refuseContradictions(
  indicator: IndicatorRecord,
  ine: IneIndicator,
  unit: string | undefined,
  catalogueCode: string | null,
): void {
  const override = 'pass --force to import it anyway';
  if (catalogueCode !== null && ine.code !== catalogueCode) {
    throw new AdminError(
      `the file holds INE indicator ${ine.code} ("${ine.title}"), ` +
        `but "${indicator.key}" is INE ${catalogueCode} in the catalogue: ` +
        `the code contradicts the indicator; ${override}`,
    );
  }
  if (unit !== undefined && !unitFits(unit, indicator.unit as Unit)) {
    throw new AdminError(
      `the file's unit (${unit}, INE ${ine.code}) contradicts "${indicator.key}", ` +
        `whose unit is ${indicator.unit}; ${override}`,
    );
  }
  const source = indicator.source ?? '';
  if (
    source !== '' &&
    !isDemoIndicatorSource(source) &&
    !source.startsWith(`INE ${ine.code} `) &&
    source !== `INE ${ine.code}`
  ) {
    throw new AdminError(
      `"${indicator.key}" holds another source's series ("${source}"), which INE ${ine.code} would merge into: ` +
        `it holds another source; ${override}`,
    );
  }
}

/**
 * Every row was of a category other than the one taken (a dimension whose total is coded neither `T` nor labelled
 * "Total"): say which there were, and how to choose one.
 */
function otherCategoriesOnly(ine: IneIndicator): string {
  const taken = Object.entries(ine.dimensions).map(([d, c]) => `${d}=${c.code}`);
  const seen = Object.entries(ine.non_total.by_category)
    .slice(0, 10)
    .map(([category, n]) => `${category} (${n} rows)`);
  return (
    `every row is of another category than ${taken.join(', ')}: ${seen.join(', ')}; ` +
    "choose the category that is the total with --dimension dim_N=CODE (INE's metadata, pindicaMeta.jsp, names them)"
  );
}

/** "INE 0008264 — Taxa bruta de natalidade (‰)": the title up to its first " por " or ";". */
export function sourceLabel(ine: Pick<IneIndicator, 'code' | 'title'>): string {
  const short = ine.title.split(/ por |;/i)[0].trim();
  return short ? `INE ${ine.code} — ${short}` : `INE ${ine.code}`;
}

async function findIndicator(store: Store, key: string): Promise<IndicatorRecord> {
  const all = await store.listIndicators();
  const found = all.find((i) => i.key === key);
  if (!found) {
    const keys = all.map((i) => i.key).join(', ') || '(the catalogue is empty)';
    throw new Error(`unknown indicator "${key}"; the catalogue has: ${keys}`);
  }
  return found;
}

function pickIndicator(items: IneIndicator[], code: string | undefined): IneIndicator {
  if (code !== undefined) {
    const found = items.find((i) => i.code === code);
    if (!found)
      throw new Error(`INE indicator ${code} is not in the response (it has ${items.map((i) => i.code).join(', ')})`);
    return found;
  }
  if (items.length > 1) {
    throw new Error(
      `the response holds ${items.length} INE indicators (${items.map((i) => i.code).join(', ')}): choose one`,
    );
  }
  return items[0];
}

/**
 * Periods whose values are the same for every municipality. With many municipalities an exact repeat does not
 * happen in real statistics; it means the file (or the request that produced it) is wrong, e.g. one year's
 * figures saved under every period key. Reported, not refused: the data is what the file says.
 */
function repeatedPeriodWarnings(
  rows: ObservationInput[],
  periods: string[],
  dates: Map<string, string | null>,
): string[] {
  const MIN_MUNICIPALITIES = 20;
  const byDate = new Map<string, string[]>();
  for (const r of rows) {
    if (r.value === null) continue;
    const list = byDate.get(r.reference_date) ?? [];
    list.push(`${r.municipality_id}=${r.value}`);
    byDate.set(r.reference_date, list);
  }
  // Keyed by date, not label: two labels of one date (a duplicate, reported elsewhere) are not a repeat.
  const groups = new Map<string, string[]>();
  for (const [date, values] of byDate) {
    if (values.length < MIN_MUNICIPALITIES) continue;
    const fingerprint = values.sort().join(';');
    groups.set(fingerprint, [...(groups.get(fingerprint) ?? []), date]);
  }
  const labelOf = (date: string) => periods.find((p) => dates.get(p) === date) ?? date;
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => group.sort().map(labelOf))
    .map(
      (labels) => `periods ${labels.join(', ')} carry identical values for every municipality: check the source file`,
    );
}
