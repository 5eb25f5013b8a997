/**
 * Indicator answers an analyst asks for (docs/api.md, Series and snapshots): the series of several municipalities
 * in one request, and the snapshot as of a past date, of one district, with each row's reference date, on one
 * page of all 308. Expectations come from other answers of the service (the series of each municipality alone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, callOperation } from './helpers/operation-call.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const MUNICIPALITIES = municipalitiesFromFile();
const code = (name: string) => MUNICIPALITIES.find((m) => m.name === name)?.code as string;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function seriesOf(
  municipality: string,
): Promise<{ municipality: string; reference_date: string; value: number | null }[]> {
  return collectPages(t, `/v1/indicators/population/series?municipality=${encodeURIComponent(municipality)}&limit=200`);
}

describe('series of several municipalities', () => {
  it('answers each one, by code then date, the same points as asked one by one, across pages', async () => {
    const names = ['Vila Nova de Gaia', 'Porto', 'Évora'];
    const expected = (await Promise.all(names.map(seriesOf)))
      .flat()
      .sort((a, b) =>
        a.municipality === b.municipality
          ? a.reference_date.localeCompare(b.reference_date)
          : a.municipality.localeCompare(b.municipality),
      );
    const query = names.map((n) => `municipality=${encodeURIComponent(n)}`).join('&');
    const paged = await collectPages(t, `/v1/indicators/population/series?${query}&limit=7`);
    expect(paged).toEqual(expected);
    expect(new Set(paged.map((p) => p.municipality))).toEqual(new Set(names.map(code)));
  });

  it.each(CHANNELS)('takes a list on %s, and still one municipality as before', async (channel) => {
    const both = await callOperation(t, channel, 'indicators_series', {
      key: 'population',
      municipality: ['porto', 'Lisboa'],
      limit: 200,
    });
    expect(both.ok, JSON.stringify(both)).toBe(true);
    if (both.ok)
      expect(new Set(both.json.items.map((p: { municipality: string }) => p.municipality))).toEqual(
        new Set([code('Porto'), code('Lisboa')]),
      );
    const one = await callOperation(t, channel, 'indicators_series', {
      key: 'population',
      municipality: 'porto',
      limit: 3,
    });
    expect(one.ok && one.json.items.every((p: { municipality: string }) => p.municipality === code('Porto'))).toBe(
      true,
    );
  });

  it('refuses more than 50 municipalities', async () => {
    const query = MUNICIPALITIES.slice(0, 51)
      .map((m) => `municipality=${m.code}`)
      .join('&');
    const res = await t.get(`/v1/indicators/population/series?${query}`);
    expect(res.status).toBe(422);
    expect(res.json.errors[0].field).toBe('municipality');
  });
});

describe('snapshot', () => {
  it('holds all 308 municipalities on one page, each row with the date of its value', async () => {
    const res = await t.get('/v1/indicators/population/snapshot?limit=308');
    expect(res.status).toBe(200);
    expect(res.json.items).toHaveLength(308);
    expect(res.json.has_more).toBe(false);
    const porto = res.json.items.find((r: { municipality: string }) => r.municipality === code('Porto'));
    const series = await seriesOf('porto');
    const last = series.filter((p) => p.value !== null).at(-1);
    expect(porto.reference_date).toBe(last?.reference_date);
    expect(porto.value).toBe(last?.value);
    expect((await t.get('/v1/indicators/population/snapshot?limit=309')).status).toBe(422);
  });

  it('as of a past date gives each municipality its latest value on or before it', async () => {
    const series = await seriesOf('porto');
    const past = series[Math.floor(series.length / 2)];
    const res = await t.get(`/v1/indicators/population/snapshot?limit=308&date=${past.reference_date}`);
    expect(res.status).toBe(200);
    const porto = res.json.items.find((r: { municipality: string }) => r.municipality === code('Porto'));
    const expected = series.filter((p) => p.reference_date <= past.reference_date && p.value !== null).at(-1);
    expect(porto.reference_date).toBe(expected?.reference_date);
    expect(porto.value).toBe(expected?.value);
    for (const row of res.json.items)
      if (row.reference_date !== null) expect(row.reference_date <= past.reference_date).toBe(true);
    const before = await t.get('/v1/indicators/population/snapshot?limit=308&date=1900-01-01');
    expect(before.json.items.every((r: { value: number | null }) => r.value === null)).toBe(true);
  });

  it.each(CHANNELS)('keeps one district on %s (accents optional), with the national percentiles', async (channel) => {
    const all = await t.get('/v1/indicators/population/snapshot?limit=308');
    const res = await callOperation(t, channel, 'indicators_snapshot', {
      key: 'population',
      district: 'evora',
      limit: 308,
    });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (!res.ok) return;
    const evora = MUNICIPALITIES.filter((m) => m.district === 'Évora').map((m) => m.code);
    expect(res.json.items.map((r: { municipality: string }) => r.municipality)).toEqual(evora.sort());
    for (const row of res.json.items) {
      expect(row).toEqual(all.json.items.find((r: { municipality: string }) => r.municipality === row.municipality));
    }
  });

  it('refuses an unknown district naming the known ones', async () => {
    const res = await t.get('/v1/indicators/population/snapshot?district=Atlantis');
    expect(res.status).toBe(422);
    expect(res.json.errors[0].field).toBe('district');
  });
});
