/**
 * The real indicator series the project ships (data/real/, docs/data.md "Real data in the box"): which file feeds
 * which catalogue indicator, under which source label, and how a row becomes a point. The label is what the
 * service shows as the series' source (and `/v1/sources` lists): it names the edition and geography of the values.
 */
import { REAL_SERIES_SOURCES } from '../../lib/real-data.js';
import { periodToReferenceDate } from '../ine/period.js';

export interface RealPoint {
  /** The municipality's DICO (4 digits). */
  code: string;
  reference_date: string;
  value: number;
}

/** A row read but not placed: the file says the value does not exist (e.g. a municipality not yet created). */
export interface RealSkip {
  code: string;
  year: string;
  reason: string;
}

export interface RealSeries {
  indicator: string;
  source: string;
  file: string;
  /** A point, a skip with its reason, or null for a row that is not a municipal value of this series. */
  point(row: Record<string, string>): RealPoint | RealSkip | null;
}

const endOfYear = (year: string): string => {
  const date = periodToReferenceDate(year);
  if (date === null) throw new Error(`not a year: "${year}"`);
  return date;
};

export const REAL_SERIES: readonly RealSeries[] = [
  {
    indicator: 'crime_rate',
    source: REAL_SERIES_SOURCES.crime_rate,
    file: 'ine-crime-purchasing-power/crime-rate-permille-2016-2022.csv.gz',
    point: (r) =>
      r.level === 'municipality' && r.category_en === 'Overall total'
        ? { code: r.dico, reference_date: endOfYear(r.year), value: number(r.value_per_1000, r) }
        : null,
  },
  {
    // Not INE 0014580 (the catalogue's code, the NUTS 2024 series of the later editions): a sync of that code
    // is refused on this label rather than merged into it.
    indicator: 'purchasing_power_index',
    source: REAL_SERIES_SOURCES.purchasing_power_index,
    file: 'ine-crime-purchasing-power/purchasing-power-per-capita-1993-2011-2021.csv',
    point: (r) =>
      r.index_pt_100 === '//'
        ? { code: r.dico, year: r.year, reason: 'not applicable (//): the municipality did not exist in that edition' }
        : { code: r.dico, reference_date: endOfYear(r.year), value: number(r.index_pt_100, r) },
  },
  {
    indicator: 'burnt_area_by_ignition',
    source: REAL_SERIES_SOURCES.burnt_area_by_ignition,
    file: 'icnf-burnt-area/burnt-area-by-ignition-municipality-1980-2021.csv.gz',
    point: (r) => ({ code: r.dico, reference_date: endOfYear(r.year), value: number(r.burnt_area_km2, r) }),
  },
];

function number(text: string, row: Record<string, string>): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) throw new Error(`not a number: "${text}" in ${JSON.stringify(row)}`);
  return value;
}
