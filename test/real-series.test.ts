/**
 * `munidata import real` (docs/data.md, "Real data in the box"): the real series shipped in data/real/ load into a
 * fresh store and are served as real, their expected values read from the same files here, independently of src.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { importRealSeries, type RealSeriesImportReport } from '../src/ingest/real/import-real.js';
import { AdminError } from '../src/lib/admin-error.js';
import { freshStore } from './helpers/procurement-store.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const realText = (name: string): string => {
  const bytes = readFileSync(new URL(`../data/real/${name}`, import.meta.url));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};
const CRIME = realText('ine-crime-purchasing-power/crime-rate-permille-2016-2022.csv.gz');
const POWER = realText('ine-crime-purchasing-power/purchasing-power-per-capita-1993-2011-2021.csv');
const MUNICIPALITIES = readMunicipalities();
const LISBOA = MUNICIPALITIES.find((m) => m.name === 'Lisboa')?.code ?? '';

/** Year → Lisboa's overall crime rate, straight from the file's lines (category names may hold quoted commas). */
function lisboaCrime(): Map<number, number> {
  const line = new RegExp(`^[^,]*,${LISBOA},[^,]*,municipality,(\\d{4}),Overall total,([^,]*),`, 'gm');
  return new Map([...CRIME.matchAll(line)].map((m) => [Number(m[1]), Number(m[2])]));
}

/** DICO → the 2021 purchasing-power index. */
function power2021(): Map<string, number> {
  const rows = POWER.trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  return new Map(rows.filter((r) => r[3] === '2021').map((r) => [r[0], Number(r[4])]));
}

let t: TestApp;
let first: RealSeriesImportReport;
let allHistory: string;
const report = (r: RealSeriesImportReport, key: string) => r.series.find((s) => s.indicator === key);

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  first = await importRealSeries(store);
  t = await startTestApp({ store, dbPath });
  // 1980 and 1993 lie beyond every plan's history window: a plan without one sees the whole series.
  allHistory = (await t.keyOnPlan('real_series_all', { history_years: null, requests_per_minute: 1_000_000 })).key;
});
afterAll(() => t?.close());

describe('crime_rate from the INE file', () => {
  const lisboaEveryYear =
    'Lisboa: every year of the file, as the file gives it, synthetic false (66.9 ‰ in 2016, 59.2 ‰ in 2022)';
  it(lisboaEveryYear, async () => {
    const expected = lisboaCrime();
    expect(expected.size).toBe(7);
    expect([expected.get(2016), expected.get(2022)]).toEqual([66.9, 59.2]);
    const res = await t.get('/v1/indicators/crime_rate/series?municipality=Lisboa&limit=200', { key: allHistory });
    expect(res.status).toBe(200);
    const items: { reference_date: string; value: number; synthetic: boolean }[] = res.json.items;
    expect(items.map((p) => [Number(p.reference_date.slice(0, 4)), p.value])).toEqual(
      [...expected].sort(([a], [b]) => a - b),
    );
    expect(items.every((p) => p.synthetic === false && p.reference_date.endsWith('-12-31'))).toBe(true);
  });

  it('holds the 308 municipalities × 7 years, and the indicator names its INE source', async () => {
    expect(report(first, 'crime_rate')).toMatchObject({ placed: 308 * 7, municipalities: 308, mode: 'replace' });
    const indicator = (await t.get('/v1/indicators/crime_rate')).json;
    expect(indicator.synthetic).toBe(false);
    expect(indicator.source).toMatch(/^INE 0008074 .*NUTS 2013/);
  });
});

describe('purchasing_power_index from the INE study', () => {
  it('2021: the values weighted by the 2021 population average 100 ± 0.5 (Portugal = 100)', async () => {
    const rows = await collectPages(t, '/v1/indicators/purchasing_power_index/snapshot?date=2021-12-31&limit=308', {
      key: allHistory,
    });
    const fromFile = power2021();
    expect(rows).toHaveLength(308);
    let weighted = 0;
    let population = 0;
    for (const m of MUNICIPALITIES) {
      const row = rows.find((r) => r.municipality === m.code);
      expect(row?.value, m.name).toBe(fromFile.get(m.code));
      expect(row?.synthetic).toBe(false);
      weighted += row.value * m.population_2021;
      population += m.population_2021;
    }
    expect(Math.abs(weighted / population - 100)).toBeLessThanOrEqual(0.5);
  });

  const editionsAndGeography =
    'says which editions and geography: 1993 on the 1993 map, with no value for municipalities created later';
  it(editionsAndGeography, async () => {
    const r = report(first, 'purchasing_power_index');
    const notApplicable = POWER.split('\n').filter((l) => l.split(',')[4] === '//').length;
    expect(notApplicable).toBeGreaterThan(0);
    expect(r?.placed).toBe(308 * 3 - notApplicable);
    expect(Object.values(r?.skipped ?? {})).toEqual([notApplicable]);
    const source = (await t.get('/v1/indicators/purchasing_power_index')).json.source;
    expect(source).toMatch(/1993 \(the 1993 municipal map\), 2011 and 2021/);
    expect(source).not.toMatch(/0014580/); // the catalogue's code is the newer NUTS 2024 series, not this one
  });
});

describe('burnt area by municipality of ignition (ICNF, compiled by DSSG)', () => {
  it('is its own indicator, real, whose summary states what it is and is not', async () => {
    const indicator = (await t.get('/v1/indicators/burnt_area_by_ignition')).json;
    expect(indicator).toMatchObject({ synthetic: false, unit: 'km2' });
    expect(indicator.summary).toMatch(/started in the municipality/);
    expect(indicator.summary).toMatch(/Not the same statistic as INE's burnt area/);
    expect(indicator.summary).toMatch(/mainland only/);
    expect(report(first, 'burnt_area_by_ignition')).toMatchObject({
      municipalities: 278,
      first_date: '1980-12-31',
      last_date: '2021-12-31',
    });
  });

  it('/v1/sources gives each real series its licence and attribution', async () => {
    const items: { key: string; synthetic: boolean; licence: string; attribution: string; indicators: string[] }[] = (
      await t.get('/v1/sources')
    ).json.items;
    const of = (key: string) => items.find((i) => i.indicators.includes(key));
    expect(of('burnt_area_by_ignition')).toMatchObject({
      synthetic: false,
      attribution: 'ICNF; compilação DSSG Portugal',
    });
    expect(of('burnt_area_by_ignition')?.licence).toMatch(/^MIT/);
    for (const key of ['crime_rate', 'purchasing_power_index']) {
      expect(of(key)).toMatchObject({ synthetic: false, licence: 'CC BY 4.0', attribution: 'Fonte: INE' });
    }
  });
});

describe('loading again and over other data', () => {
  it('is idempotent: a second load writes nothing', async () => {
    const again = await importRealSeries(t.store);
    for (const s of again.series) {
      expect(s, s.indicator).toMatchObject({ mode: 'merge', inserted: 0, updated: 0, removed: 0, unchanged: s.placed });
    }
  });

  it('refuses a series another source holds, writing nothing, unless forced', async () => {
    const sync = 'INE 0014580 — Poder de compra per capita';
    await t.store.setIndicatorSource('purchasing_power_index', sync);
    const before = await t.store.countObservations('crime_rate');
    await expect(importRealSeries(t.store)).rejects.toThrow(AdminError);
    expect(await t.store.countObservations('crime_rate')).toBe(before);
    expect((await t.store.listIndicators()).find((i) => i.key === 'purchasing_power_index')?.source).toBe(sync);
    const forced = await importRealSeries(t.store, { force: true });
    expect(report(forced, 'purchasing_power_index')?.mode).toBe('replace');
  });
});

describe('over the demo store', () => {
  it('replaces the demo series whole: no generated point is left beside the real ones', async () => {
    const demo = await startTestApp();
    try {
      const loaded = await importRealSeries(demo.store);
      expect(report(loaded, 'crime_rate')?.removed).toBeGreaterThan(0);
      for (const r of loaded.series) expect(await demo.store.countObservations(r.indicator)).toBe(r.placed);
    } finally {
      await demo.close();
    }
  });
});
