/**
 * Black-box tests of the municipality endpoints over REST, as a user would check them: expectations come from
 * docs/api.md and docs/decisions.md, from data/municipalities.csv and data/indicators.json and from other endpoints.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectJsonHeaders, expectProblem, expectValidation } from './helpers/expectations.js';
import { type CsvMunicipality, municipalitiesFromFile } from './helpers/reference-files.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

// ---- reference data, read straight from the files ------------------------------------------------------------

const MUNICIPALITIES: CsvMunicipality[] = municipalitiesFromFile();
const SORTED = [...MUNICIPALITIES].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
const byCode = new Map(MUNICIPALITIES.map((m) => [m.code, m]));
const DISTRICTS = [...new Set(MUNICIPALITIES.map((m) => m.district))].sort();

interface CatalogueEntry {
  key: string;
  name: string;
  category: string;
  treatment: string;
  frequency: 'annual' | 'monthly';
}
const CATALOGUE: CatalogueEntry[] = JSON.parse(
  readFileSync(new URL('../data/indicators.json', import.meta.url), 'utf8'),
);
const indicatorByKey = new Map(CATALOGUE.map((i) => [i.key, i]));

const CATEGORIES = [
  'demography',
  'economy',
  'employment',
  'education',
  'health',
  'housing',
  'environment',
  'public_finance',
  'procurement',
  'social',
  'territory',
];
const TREATMENTS = ['raw', 'derived', 'estimated', 'normalized'];

// ---- helpers ---------------------------------------------------------------------------------------------------

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

function isRealDate(d: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) return false;
  const [y, m, day] = d.split('-').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, day));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === day;
}

function summaryOf(m: CsvMunicipality) {
  return {
    code: m.code,
    slug: m.slug,
    name: m.name,
    district: m.district,
    nuts_ii: m.nuts_ii,
    nuts_iii: m.nuts_iii,
    id: m.id,
  };
}

/** The fields of MunicipalitySummary a user relies on (additive fields of a later version are ignored). */
function pickSummary(item: any) {
  const { code, slug, name, district, nuts_ii, nuts_iii, id } = item;
  return { code, slug, name, district, nuts_ii, nuts_iii, id };
}

// ---- app ---------------------------------------------------------------------------------------------------------

let t: TestApp;
let bulkKey: string;

beforeAll(async () => {
  t = await startTestApp();
  bulkKey = (await t.keyOnPlan('rest_mun_bulk', { requests_per_minute: 1_000_000, requests_per_month: 10_000_000 }))
    .key;
});
afterAll(() => t.close());
beforeEach(() => t.clock.advance(61_000));

async function search(query: string): Promise<any[]> {
  return collectPages(t, `/v1/municipalities?${query}${query ? '&' : ''}limit=200`);
}

// ==================================================================================================================

describe('GET /v1/municipalities', () => {
  it('pages through all 308 municipalities, ordered by code, fields as in data/municipalities.csv', async () => {
    expect(MUNICIPALITIES).toHaveLength(308);
    const pages: any[] = [];
    let url = '/v1/municipalities?limit=50';
    for (let i = 0; i < 20; i++) {
      const res = await t.get(url);
      expectJsonHeaders(res);
      pages.push(res.json);
      expect(res.json.items.length).toBeLessThanOrEqual(50);
      if (!res.json.has_more) break;
      expect(res.json.items).toHaveLength(50);
      expect(res.json.next_cursor).toEqual(expect.any(String));
      const u = new URL(url, 'http://x');
      u.searchParams.set('cursor', res.json.next_cursor);
      url = `${u.pathname}${u.search}`;
    }
    expect(pages).toHaveLength(Math.ceil(308 / 50));
    expect(pages.at(-1).next_cursor ?? null).toBeNull();
    const items = pages.flatMap((p) => p.items);
    expect(items).toHaveLength(308);
    const codes = items.map((m) => m.code);
    expect(new Set(codes).size).toBe(308);
    expect(codes).toEqual([...codes].sort());
    expect(items.map(pickSummary)).toEqual(SORTED.map(summaryOf));
    for (const m of items) {
      expect(m.code).toMatch(/^\d{4}$/);
      expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(Number.isInteger(m.id)).toBe(true);
    }
  });

  it('gives the same list whatever the page size; default page is 50', async () => {
    const all = SORTED.map(summaryOf);
    expect((await collectPages(t, '/v1/municipalities?limit=200')).map(pickSummary)).toEqual(all);
    expect((await collectPages(t, '/v1/municipalities?limit=17')).map(pickSummary)).toEqual(all);
    expect((await collectPages(t, '/v1/municipalities?limit=1', { key: bulkKey })).map(pickSummary)).toEqual(all);
    const dflt = await t.get('/v1/municipalities');
    expect(dflt.json.items).toHaveLength(50);
    expect(dflt.json.has_more).toBe(true);
  });

  it("q 'evora' finds Évora (0705), accents and case do not matter", async () => {
    const plain = await search('q=evora');
    expect(plain.map((m) => m.code)).toContain('0705');
    const evora = plain.find((m) => m.code === '0705');
    expect(evora.name).toBe('Évora');
    for (const m of plain) expect(fold(`${m.name} ${m.slug}`)).toContain('evora');
    expect(await search(`q=${encodeURIComponent('Évora')}`)).toEqual(plain);
    expect(await search(`q=${encodeURIComponent('ÉVORA')}`)).toEqual(plain);
    expect(await search('q=EVORA')).toEqual(plain);
    const expected = SORTED.filter((m) => fold(m.name).includes('evora')).map((m) => m.code);
    expect(plain.map((m) => m.code)).toEqual(expected);
  });

  it("q 'vila nova' needs both words: Vila Nova de Gaia among others, each result holding both", async () => {
    const both = await search('q=vila%20nova');
    const codes = both.map((m) => m.code);
    expect(codes).toContain('1317');
    expect(both.find((m) => m.code === '1317').name).toBe('Vila Nova de Gaia');
    expect(both.length).toBeGreaterThan(1);
    for (const m of both) {
      expect(fold(m.name)).toContain('vila');
      expect(fold(m.name)).toContain('nova');
    }
    const expected = SORTED.filter((m) => fold(m.name).includes('vila') && fold(m.name).includes('nova')).map(
      (m) => m.code,
    );
    expect(codes).toEqual(expected);
    const vila = (await search('q=vila')).map((m) => m.code);
    const nova = (await search('q=nova')).map((m) => m.code);
    expect(codes.length).toBeLessThan(vila.length);
    expect(codes.length).toBeLessThanOrEqual(nova.length);
    for (const c of codes) {
      expect(vila).toContain(c);
      expect(nova).toContain(c);
    }
    expect((await search('q=NOVA%20VILA')).map((m) => m.code)).toEqual(codes);
  });

  it('q for a name with several words and accents: "sao joao" and "São João" agree', async () => {
    const a = await search('q=sao%20joao');
    const b = await search(`q=${encodeURIComponent('São João')}`);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    const expected = SORTED.filter((m) => fold(m.name).includes('sao') && fold(m.name).includes('joao')).map(
      (m) => m.code,
    );
    expect(a.map((m) => m.code)).toEqual(expected);
  });

  it('q pages with a small limit without duplicates or gaps', async () => {
    const paged = await collectPages(t, '/v1/municipalities?q=vila&limit=3');
    const one = await search('q=vila');
    expect(paged).toEqual(one);
    expect(one.length).toBeGreaterThan(3);
  });

  it("district 'Evora' (no accent) is district 'Évora'", async () => {
    const plain = await search('district=Evora');
    const accented = await search(`district=${encodeURIComponent('Évora')}`);
    expect(plain.length).toBeGreaterThan(0);
    expect(accented).toEqual(plain);
    expect(await search('district=evora')).toEqual(plain);
    for (const m of plain) expect(m.district).toBe('Évora');
    expect(plain.map((m) => m.code)).toEqual(SORTED.filter((m) => m.district === 'Évora').map((m) => m.code));
  });

  it('district filter: each district gives exactly its municipalities of the CSV', async () => {
    let total = 0;
    for (const district of DISTRICTS) {
      const items = await search(`district=${encodeURIComponent(district)}`);
      const expected = SORTED.filter((m) => m.district === district);
      expect(items.length, district).toBe(expected.length);
      expect(items.map(pickSummary)).toEqual(expected.map(summaryOf));
      total += items.length;
    }
    expect(total).toBe(308);
    // The autonomous regions are districts too.
    expect(DISTRICTS).toContain('Região Autónoma dos Açores');
    expect(DISTRICTS).toContain('Região Autónoma da Madeira');
    const azores = await search(`district=${encodeURIComponent('regiao autonoma dos acores')}`);
    expect(azores.length).toBe(MUNICIPALITIES.filter((m) => m.district === 'Região Autónoma dos Açores').length);
  });

  it('q and district combine', async () => {
    const faro = await search('q=lagoa&district=Faro');
    expect(faro.map((m) => m.code)).toEqual(['0806']);
    const all = await search('q=lagoa');
    expect(all.map((m) => m.code)).toEqual(expect.arrayContaining(['0806', '4201']));
  });

  it('unknown district → 422 naming district', async () => {
    expectValidation(await t.get('/v1/municipalities?district=Atlantida'), 'district');
    expectValidation(await t.get('/v1/municipalities?district=Lisbo'), 'district');
  });

  it('rejects bad limits and unknown parameters with 422', async () => {
    for (const limit of ['0', '-1', '1.5', '201', 'abc'])
      expectValidation(await t.get(`/v1/municipalities?limit=${limit}`), 'limit');
    expect((await t.get('/v1/municipalities?limit=200')).json.items).toHaveLength(200);
    expectValidation(await t.get('/v1/municipalities?name=Porto'), 'name');
  });

  it('refuses a tampered cursor and a cursor issued for other filters with 400', async () => {
    const first = await t.get('/v1/municipalities?q=vila&limit=2');
    const cursor: string = first.json.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await t.get(`/v1/municipalities?q=vila&limit=2&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    expectProblem(
      await t.get(`/v1/municipalities?q=nova&limit=2&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid-cursor',
    );
    expectProblem(
      await t.get(`/v1/municipalities?limit=2&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid-cursor',
    );
    const dot = cursor.indexOf('.');
    const forged = `${Buffer.from(JSON.stringify('0000')).toString('base64url')}${dot >= 0 ? cursor.slice(dot) : ''}`;
    expectProblem(
      await t.get(`/v1/municipalities?q=vila&limit=2&cursor=${encodeURIComponent(forged)}`),
      400,
      'invalid-cursor',
    );
    // A cursor of another endpoint.
    const ind = await t.get('/v1/indicators?limit=2');
    expectProblem(
      await t.get(`/v1/municipalities?limit=2&cursor=${encodeURIComponent(ind.json.next_cursor)}`),
      400,
      'invalid-cursor',
    );
  });
});

// ==================================================================================================================

describe('GET /v1/municipalities/{code}', () => {
  it('answers every municipality by code and by slug with its CSV record', async () => {
    for (const m of MUNICIPALITIES) {
      const byCodeRes = await t.get(`/v1/municipalities/${m.code}`, { key: bulkKey });
      expect(byCodeRes.status, m.code).toBe(200);
      expect(pickSummary(byCodeRes.json)).toEqual(summaryOf(m));
      const bySlugRes = await t.get(`/v1/municipalities/${m.slug}`, { key: bulkKey });
      expect(bySlugRes.status, m.slug).toBe(200);
      expect(bySlugRes.body).toBe(byCodeRes.body);
    }
  });

  it('Lisboa: headers of a JSON answer', async () => {
    const res = await t.get('/v1/municipalities/lisboa');
    expectJsonHeaders(res);
    expect(res.json).toMatchObject({ code: '1106', slug: 'lisboa', name: 'Lisboa', district: 'Lisboa' });
  });

  it("'lagoa' is Lagoa of the Algarve (0806); 'lagoa-acores' is Lagoa of the Azores (4201)", async () => {
    const algarve = (await t.get('/v1/municipalities/lagoa')).json;
    expect(algarve).toMatchObject({ code: '0806', name: 'Lagoa', district: 'Faro', nuts_ii: 'Algarve' });
    expect(pickSummary(algarve)).toEqual(summaryOf(byCode.get('0806') as CsvMunicipality));
    const azores = (await t.get('/v1/municipalities/lagoa-acores')).json;
    expect(azores).toMatchObject({ code: '4201', name: 'Lagoa', district: 'Região Autónoma dos Açores' });
    expect(pickSummary(azores)).toEqual(summaryOf(byCode.get('4201') as CsvMunicipality));
    expect((await t.get('/v1/municipalities/4201')).body).toBe((await t.get('/v1/municipalities/lagoa-acores')).body);
  });

  it("answers 404 not-found for '9999' and 'atlantis'", async () => {
    expectProblem(await t.get('/v1/municipalities/9999'), 404, 'not-found');
    expectProblem(await t.get('/v1/municipalities/atlantis'), 404, 'not-found');
    expectProblem(await t.get('/v1/municipalities/9999/indicators'), 404, 'not-found');
  });

  it('rejects a query parameter it does not take with 422', async () => {
    expectValidation(await t.get('/v1/municipalities/1106?limit=5'), 'limit');
  });
});

// ==================================================================================================================

describe('GET /v1/municipalities/{code}/indicators', () => {
  function expectEntryFields(e: any) {
    expect(typeof e.indicator).toBe('string');
    expect(typeof e.name).toBe('string');
    expect(CATEGORIES).toContain(e.category);
    expect(isRealDate(e.reference_date), e.reference_date).toBe(true);
    expect(e.value === null || e.value === undefined || typeof e.value === 'number').toBe(true);
    expect(TREATMENTS).toContain(e.treatment);
    const ref = indicatorByKey.get(e.indicator);
    expect(ref, e.indicator).toBeDefined();
    expect(e.name).toBe(ref?.name);
    expect(e.category).toBe(ref?.category);
  }

  it('is a plain array (not paged) ordered by indicator key, with the required fields', async () => {
    const res = await t.get('/v1/municipalities/1106/indicators');
    expectJsonHeaders(res);
    expect(Array.isArray(res.json)).toBe(true);
    const keys = res.json.map((e: any) => e.indicator);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual([...keys].sort());
    for (const e of res.json) expectEntryFields(e);
  });

  it('by slug gives the same answer as by code', async () => {
    for (const [code, slug] of [
      ['1106', 'lisboa'],
      ['0806', 'lagoa'],
      ['4201', 'lagoa-acores'],
    ]) {
      const a = await t.get(`/v1/municipalities/${code}/indicators`);
      const b = await t.get(`/v1/municipalities/${slug}/indicators`);
      expect(a.status).toBe(200);
      expect(b.body).toBe(a.body);
    }
  });

  it('each entry is the last point of /series of that indicator, and every indicator with data is listed', async () => {
    for (const code of ['1106', '4901', '0705']) {
      const list = (await t.get(`/v1/municipalities/${code}/indicators`, { key: bulkKey })).json;
      const byIndicator = new Map(list.map((e: any) => [e.indicator, e]));
      for (const entry of CATALOGUE) {
        const series = await collectPages(t, `/v1/indicators/${entry.key}/series?municipality=${code}&limit=200`, {
          key: bulkKey,
        });
        const withValue = series.filter((p) => p.value !== null && p.value !== undefined);
        const listed: any = byIndicator.get(entry.key);
        if (withValue.length === 0) {
          expect(
            listed === undefined || listed.value === null || listed.value === undefined,
            `${code} ${entry.key}`,
          ).toBe(true);
          continue;
        }
        expect(listed, `${code} ${entry.key} missing`).toBeDefined();
        const last = series.at(-1);
        expect(listed.reference_date, `${code} ${entry.key}`).toBe(last.reference_date);
        expect(listed.value, `${code} ${entry.key}`).toBe(last.value);
        expect(listed.treatment, `${code} ${entry.key}`).toBe(last.treatment);
      }
      for (const e of list) expectEntryFields(e);
    }
  });

  it('on premium_indicators, values are the normalized ones it gets from /series', async () => {
    const list = (await t.get('/v1/municipalities/1106/indicators', { key: t.keys.indicatorsOnly })).json;
    expect(list.length).toBeGreaterThan(0);
    for (const e of list) {
      expect(e.treatment).toBe('normalized');
      if (typeof e.value === 'number') {
        expect(e.value).toBeGreaterThanOrEqual(0);
        expect(e.value).toBeLessThanOrEqual(100);
      }
    }
    const population = list.find((e: any) => e.indicator === 'population');
    const series = await collectPages(t, '/v1/indicators/population/series?municipality=1106&limit=200', {
      key: t.keys.indicatorsOnly,
    });
    expect(population.value).toBe(series.at(-1).value);
  });

  it('filters by category', async () => {
    const all = (await t.get('/v1/municipalities/porto/indicators')).json;
    let total = 0;
    for (const category of CATEGORIES) {
      const res = await t.get(`/v1/municipalities/porto/indicators?category=${category}`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.json)).toBe(true);
      expect(res.json, category).toEqual(all.filter((e: any) => e.category === category));
      total += res.json.length;
    }
    expect(total).toBe(all.length);
  });

  it('invalid category → 422; unknown municipality → 404', async () => {
    expectValidation(await t.get('/v1/municipalities/1106/indicators?category=sports'), 'category');
    expectProblem(await t.get('/v1/municipalities/atlantis/indicators'), 404, 'not-found');
    expectProblem(await t.get('/v1/municipalities/9999/indicators?category=health'), 404, 'not-found');
  });
});
