/**
 * Black-box tests of the indicator endpoints over REST, as a user would check them: expectations come from
 * docs/api.md and docs/decisions.md, from the reference files the project ships (data/indicators.json,
 * data/municipalities.csv) and from other endpoints — never from the code that serves them.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectJsonHeaders, expectProblem, expectValidation } from './helpers/expectations.js';
import { type CsvMunicipality, municipalitiesFromFile } from './helpers/reference-files.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

// ---- reference data, read straight from the files ------------------------------------------------------------

interface CatalogueEntry {
  key: string;
  name: string;
  name_pt: string;
  category: string;
  unit: string;
  unit_display: string | null;
  direction: string;
  country_code: string;
  value_domain: string;
  treatment: string;
  summary: string | null;
  summary_pt: string | null;
  currency_code: string | null;
  scale_factor: number;
  per_capita: boolean;
  unit_description: string | null;
  frequency: 'annual' | 'monthly';
}

const CATALOGUE: CatalogueEntry[] = JSON.parse(
  readFileSync(new URL('../data/indicators.json', import.meta.url), 'utf8'),
);
const KEYS_SORTED = CATALOGUE.map((i) => i.key).sort();
const byKey = new Map(CATALOGUE.map((i) => [i.key, i]));

const MUNICIPALITIES: CsvMunicipality[] = municipalitiesFromFile();
const CODES_SORTED = MUNICIPALITIES.map((m) => m.code).sort();
const byCode = new Map(MUNICIPALITIES.map((m) => [m.code, m]));

// ---- enumerations of docs/decisions.md ------------------------------------------------------------------------

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
const UNITS = ['persons', 'percent', 'eur', 'eur_per_capita', 'per_1000', 'index', 'count', 'km2', 'years', 'ratio'];
const DIRECTIONS = ['higher_is_better', 'lower_is_better', 'neutral'];
const VALUE_DOMAINS = ['count', 'amount', 'rate', 'ratio', 'index', 'signed'];
const TREATMENTS = ['raw', 'derived', 'estimated', 'normalized'];
const RAW_TREATMENTS = ['raw', 'derived', 'estimated'];

// ---- helpers ---------------------------------------------------------------------------------------------------

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(d: string): boolean {
  if (!DATE_RE.test(d)) return false;
  const [y, m, day] = d.split('-').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, day));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === day;
}

function isLastDayOfMonth(d: string): boolean {
  const [y, m, day] = d.split('-').map(Number);
  return isRealDate(d) && new Date(Date.UTC(y, m, 0)).getUTCDate() === day;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function expectNoDuplicates(values: string[]) {
  expect(new Set(values).size).toBe(values.length);
}

function expectStrictlyAscending(values: string[]) {
  for (let i = 1; i < values.length; i++)
    expect(values[i] > values[i - 1], `${values[i - 1]} then ${values[i]}`).toBe(true);
}

/** Replaces (or adds) one query parameter. */
function withParam(path: string, name: string, value: string): string {
  const u = new URL(path, 'http://x');
  u.searchParams.set(name, value);
  return `${u.pathname}${u.search}`;
}

/** Today minus N years, same calendar day, as YYYY-MM-DD. */
function yearsAgo(nowMs: number, years: number): string {
  const d = new Date(nowMs);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d.toISOString().slice(0, 10);
}

// ---- app ---------------------------------------------------------------------------------------------------------

let t: TestApp;
/** A key on an indicators plan like premium but without a practical rate limit, for loops over all municipalities. */
let bulkKey: string;

beforeAll(async () => {
  t = await startTestApp();
  bulkKey = (
    await t.keyOnPlan('rest_ind_bulk', {
      requests_per_minute: 1_000_000,
      requests_per_month: 10_000_000,
      history_years: null,
    })
  ).key;
});
afterAll(() => t.close());
// Keep the per-minute limit of the premium key out of the way between tests (the test clock stands still).
beforeEach(() => t.clock.advance(61_000));

const MONTHLY = CATALOGUE.filter((i) => i.frequency === 'monthly').map((i) => i.key);
const ANNUAL = CATALOGUE.filter((i) => i.frequency === 'annual').map((i) => i.key);

// ==================================================================================================================

describe('GET /v1/indicators', () => {
  it('lists every indicator with all required IndicatorSummary fields and valid enumerations', async () => {
    const res = await t.get('/v1/indicators?limit=200');
    expectJsonHeaders(res);
    expect(res.json.has_more ?? false).toBe(false);
    expect(res.json.next_cursor ?? null).toBeNull();
    const items = res.json.items;
    expect(items).toHaveLength(CATALOGUE.length);
    for (const item of items) {
      for (const field of [
        'key',
        'name',
        'name_pt',
        'category',
        'unit',
        'direction',
        'country_code',
        'value_domain',
        'treatment',
      ]) {
        expect(typeof item[field], `${item.key}.${field}`).toBe('string');
      }
      for (const field of ['unit_display', 'source']) {
        if (field in item)
          expect(item[field] === null || typeof item[field] === 'string', `${item.key}.${field}`).toBe(true);
      }
      expect(CATEGORIES).toContain(item.category);
      expect(UNITS).toContain(item.unit);
      expect(DIRECTIONS).toContain(item.direction);
      expect(VALUE_DOMAINS).toContain(item.value_domain);
      expect(TREATMENTS).toContain(item.treatment);
      expect(item.country_code).toMatch(/^[A-Z]{2}$/);

      const ref = byKey.get(item.key);
      expect(ref, `unexpected indicator ${item.key}`).toBeDefined();
      expect(item).toMatchObject({
        name: ref?.name,
        name_pt: ref?.name_pt,
        category: ref?.category,
        unit: ref?.unit,
        direction: ref?.direction,
        country_code: ref?.country_code,
        value_domain: ref?.value_domain,
        treatment: ref?.treatment,
      });
      if ('unit_display' in item) expect(item.unit_display).toBe(ref?.unit_display);
    }
  });

  it('pages through the whole catalogue with limit=7: every indicator once, ordered by key', async () => {
    const pages: any[] = [];
    let url = '/v1/indicators?limit=7';
    for (let i = 0; i < 50; i++) {
      const res = await t.get(url);
      expect(res.status, res.body).toBe(200);
      pages.push(res.json);
      expect(res.json.items.length).toBeLessThanOrEqual(7);
      if (!res.json.has_more) break;
      expect(res.json.items).toHaveLength(7);
      expect(res.json.next_cursor).toEqual(expect.any(String));
      url = withParam(url, 'cursor', res.json.next_cursor);
    }
    expect(pages).toHaveLength(Math.ceil(CATALOGUE.length / 7));
    const last = pages.at(-1);
    expect(last.has_more ?? false).toBe(false);
    expect(last.next_cursor ?? null).toBeNull();
    const keys = pages.flatMap((p) => p.items.map((i: { key: string }) => i.key));
    expectNoDuplicates(keys);
    expect(keys).toEqual(KEYS_SORTED);
  });

  it('gives the same list whatever the page size (1, 7, default, 200)', async () => {
    const one = await collectPages(t, '/v1/indicators?limit=1', { key: bulkKey });
    const seven = await collectPages(t, '/v1/indicators?limit=7');
    const dflt = await collectPages(t, '/v1/indicators');
    const big = (await t.get('/v1/indicators?limit=200')).json.items;
    expect(one.map((i) => i.key)).toEqual(KEYS_SORTED);
    expect(seven).toEqual(big);
    expect(dflt).toEqual(big);
    expect(one).toEqual(big);
  });

  it('filters by category', async () => {
    for (const category of CATEGORIES) {
      const items = await collectPages(t, `/v1/indicators?category=${category}&limit=5`);
      const expected = CATALOGUE.filter((i) => i.category === category)
        .map((i) => i.key)
        .sort();
      expect(
        items.map((i) => i.key),
        category,
      ).toEqual(expected);
      for (const item of items) expect(item.category).toBe(category);
    }
  });

  it('rejects a category outside the enumeration with 422 naming it', async () => {
    expectValidation(await t.get('/v1/indicators?category=sports'), 'category');
    expectValidation(await t.get('/v1/indicators?category=Demography'), 'category');
  });

  /** Catalogue entries whose names hold every word of q (case- and accent-insensitive substrings). */
  function expectedForQ(q: string): string[] {
    const tokens = fold(q).split(/\s+/).filter(Boolean);
    // The chosen words never occur in a key, so whether keys are searched too does not matter.
    for (const tok of tokens) for (const k of KEYS_SORTED) expect(k.includes(tok), `${tok} in key ${k}`).toBe(false);
    return CATALOGUE.filter((i) => tokens.every((tok) => fold(`${i.name} ${i.name_pt}`).includes(tok)))
      .map((i) => i.key)
      .sort();
  }

  async function search(q: string): Promise<string[]> {
    return (await collectPages(t, `/v1/indicators?q=${encodeURIComponent(q)}&limit=200`)).map((i) => i.key);
  }

  it('q is case-insensitive: NATALIDADE and natalidade give the same non-empty result', async () => {
    const lower = await search('natalidade');
    const upper = await search('NATALIDADE');
    const mixed = await search('NaTaLiDaDe');
    expect(lower.length).toBeGreaterThan(0);
    expect(lower).toContain('birth_rate');
    expect(upper).toEqual(lower);
    expect(mixed).toEqual(lower);
    expect(lower).toEqual(expectedForQ('natalidade'));
  });

  it('q is accent-insensitive both ways', async () => {
    // name_pt "Médicos por 1000 habitantes", "Utentes sem médico de família atribuído"
    const plain = await search('medico');
    expect(plain.length).toBeGreaterThanOrEqual(2);
    expect(await search('médico')).toEqual(plain);
    expect(await search('MÉDICO')).toEqual(plain);
    expect(plain).toEqual(expectedForQ('medico'));
    // "Índice de envelhecimento"
    const indice = await search('indice envelhecimento');
    expect(indice).toEqual(['ageing_index']);
    expect(await search('ÍNDICE ENVELHECIMENTO')).toEqual(indice);
    // "População residente (estimativa)"
    expect(await search('populacao')).toEqual(expectedForQ('populacao'));
    expect(await search('populacao')).toContain('population');
  });

  it('q needs every word: a two-word query is narrower than each word alone', async () => {
    const receita = await search('receita');
    const habitante = await search('habitante');
    const both = await search('receita habitante');
    expect(receita).toEqual(expectedForQ('receita'));
    expect(habitante).toEqual(expectedForQ('habitante'));
    expect(both).toEqual(expectedForQ('receita habitante'));
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(receita.length);
    expect(both.length).toBeLessThan(habitante.length);
    for (const k of both) {
      expect(receita).toContain(k);
      expect(habitante).toContain(k);
    }
    // word order does not matter, extra spaces do not matter
    expect(await search('  habitante   receita ')).toEqual(both);
  });

  it('q combines with category, and a query matching nothing gives an empty page', async () => {
    const items = await collectPages(t, '/v1/indicators?q=taxa&category=demography');
    const expected = CATALOGUE.filter(
      (i) => i.category === 'demography' && fold(`${i.name} ${i.name_pt}`).includes('taxa'),
    )
      .map((i) => i.key)
      .sort();
    expect(items.map((i) => i.key)).toEqual(expected);
    const none = await t.get('/v1/indicators?q=zzzqqqxyz');
    expect(none.status).toBe(200);
    expect(none.json.items).toEqual([]);
    expect(none.json.has_more ?? false).toBe(false);
  });

  it.each(['0', '-1', '1.5', '201', 'abc', '1e9'])('rejects limit=%s with 422 naming limit', async (limit) => {
    expectValidation(await t.get(`/v1/indicators?limit=${limit}`), 'limit');
  });

  it('accepts limit=200 and limit=1, and defaults to 50', async () => {
    const big = await t.get('/v1/indicators?limit=200');
    expect(big.status).toBe(200);
    expect(big.json.items).toHaveLength(CATALOGUE.length);
    const one = await t.get('/v1/indicators?limit=1');
    expect(one.status).toBe(200);
    expect(one.json.items).toHaveLength(1);
    expect(one.json.has_more).toBe(true);
    const dflt = await t.get('/v1/indicators');
    expect(dflt.json.items).toHaveLength(Math.min(50, CATALOGUE.length));
  });

  it('rejects an unknown parameter with 422 naming it', async () => {
    expectValidation(await t.get('/v1/indicators?colour=blue'), 'colour');
    expectValidation(await t.get('/v1/indicators?municipality=1106'), 'municipality');
  });

  it('rejects a tampered cursor and a cursor issued for other filters with 400 invalid-cursor', async () => {
    const first = await t.get('/v1/indicators?limit=3');
    const cursor: string = first.json.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await t.get(`/v1/indicators?limit=3&cursor=${encodeURIComponent(cursor)}`)).status).toBe(200);
    expectProblem(await t.get('/v1/indicators?cursor=forged'), 400, 'invalid-cursor');
    // Change one character inside the signature (not the last one, whose low bits are base64 padding).
    const at = cursor.indexOf('.') + 3;
    const flipped = cursor.slice(0, at) + (cursor[at] === 'A' ? 'z' : 'A') + cursor.slice(at + 1);
    expectProblem(await t.get(`/v1/indicators?limit=3&cursor=${encodeURIComponent(flipped)}`), 400, 'invalid-cursor');
    const forgedHead = Buffer.from(JSON.stringify('zzz')).toString('base64url');
    const forgedPayload = `${forgedHead}${cursor.slice(cursor.indexOf('.'))}`;
    expectProblem(
      await t.get(`/v1/indicators?limit=3&cursor=${encodeURIComponent(forgedPayload)}`),
      400,
      'invalid-cursor',
    );
    expectProblem(
      await t.get(`/v1/indicators?limit=3&category=economy&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid-cursor',
    );
  });

  it('answers If-None-Match with the current ETag by 304', async () => {
    const first = await t.get('/v1/indicators?category=health');
    expectJsonHeaders(first);
    const again = await t.get('/v1/indicators?category=health', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
  });
});

// ==================================================================================================================

describe('GET /v1/indicators/{key}', () => {
  it('returns the IndicatorDetail of every catalogue indicator, matching data/indicators.json', async () => {
    const list = (await t.get('/v1/indicators?limit=200')).json.items;
    for (const entry of CATALOGUE) {
      const res = await t.get(`/v1/indicators/${entry.key}`);
      expectJsonHeaders(res);
      const d = res.json;
      expect(d.key).toBe(entry.key);
      expect(typeof d.scale_factor === 'number' || d.scale_factor === undefined).toBe(true);
      expect(typeof d.per_capita === 'boolean' || d.per_capita === undefined).toBe(true);
      expect(d.scale_factor ?? 1).toBe(entry.scale_factor);
      expect(d.per_capita ?? false).toBe(entry.per_capita);
      expect(d.currency_code ?? null).toBe(entry.currency_code);
      // A generated series' summary first says so, then the catalogue's (docs/data.md, "Real and synthetic data").
      const noted = (note: string, text: string | null) => (d.synthetic ? `${note} ${text}` : text);
      expect(d.summary ?? null).toBe(
        noted('Demo data: the values served are generated, not published by the source named here.', entry.summary),
      );
      expect(d.summary_pt ?? null).toBe(
        noted(
          'Dados de demonstração: os valores servidos são gerados, não publicados pela fonte aqui indicada.',
          entry.summary_pt,
        ),
      );
      expect(d.unit_description ?? null).toBe(entry.unit_description);
      // Money is in euros.
      if (entry.unit === 'eur' || entry.unit === 'eur_per_capita') expect(d.currency_code).toBe('EUR');
      else expect(d.currency_code ?? null).toBeNull();
      // The summary fields are those of the list.
      const summary = list.find((i: { key: string }) => i.key === entry.key);
      for (const [field, value] of Object.entries(summary)) expect(d[field], `${entry.key}.${field}`).toEqual(value);
    }
  });

  it('answers an unknown key with 404 not-found', async () => {
    expectProblem(await t.get('/v1/indicators/no_such_indicator'), 404, 'not-found');
    expectProblem(await t.get('/v1/indicators/Population'), 404, 'not-found');
    expectProblem(await t.get('/v1/indicators/no_such_indicator/series?municipality=1106'), 404, 'not-found');
    expectProblem(await t.get('/v1/indicators/no_such_indicator/snapshot'), 404, 'not-found');
    expectProblem(await t.get('/v1/indicators/no_such_indicator/stats'), 404, 'not-found');
  });
});

// ==================================================================================================================

describe('GET /v1/indicators/{key}/series', () => {
  it('serves Lisboa by code 1106 and by slug lisboa identically', async () => {
    for (const key of ['population', MONTHLY[0]]) {
      const byCodeRes = await t.get(`/v1/indicators/${key}/series?municipality=1106&limit=200`);
      const bySlugRes = await t.get(`/v1/indicators/${key}/series?municipality=lisboa&limit=200`);
      expectJsonHeaders(byCodeRes);
      expect(bySlugRes.status).toBe(200);
      expect(bySlugRes.body).toBe(byCodeRes.body);
      expect(byCodeRes.json.items.length).toBeGreaterThan(0);
    }
  });

  it('annual series: ascending, reference_date YYYY-12-31, municipality is the code, required fields', async () => {
    for (const key of ANNUAL.slice(0, 6)) {
      const items = await collectPages(t, `/v1/indicators/${key}/series?municipality=lisboa&limit=200`);
      expect(items.length, key).toBeGreaterThan(1);
      expectStrictlyAscending(items.map((p) => p.reference_date));
      for (const p of items) {
        expect(p.municipality).toBe('1106');
        expect(p.reference_date).toMatch(/^\d{4}-12-31$/);
        expect(p.value === null || p.value === undefined || typeof p.value === 'number').toBe(true);
        expect(RAW_TREATMENTS).toContain(p.treatment);
      }
    }
  });

  it('monthly series: ascending, each reference_date the last day of its month (leap years too)', async () => {
    expect(MONTHLY.length).toBeGreaterThan(0);
    let leapFebruaries = 0;
    for (const key of MONTHLY) {
      for (const m of ['1106', '1312', '0705']) {
        const items = await collectPages(t, `/v1/indicators/${key}/series?municipality=${m}&limit=200`, {
          key: bulkKey,
        });
        expect(items.length, `${key} ${m}`).toBeGreaterThan(24);
        expectStrictlyAscending(items.map((p) => p.reference_date));
        for (const p of items) {
          expect(p.municipality).toBe(m);
          expect(isLastDayOfMonth(p.reference_date), p.reference_date).toBe(true);
          const [y, mo, d] = p.reference_date.split('-').map(Number);
          if (mo === 2) {
            expect(d).toBe(isLeap(y) ? 29 : 28);
            if (d === 29) leapFebruaries++;
          }
        }
        // A monthly series has several points a year (it is not an annual series in disguise).
        const years = new Set(items.map((p) => p.reference_date.slice(0, 4)));
        expect(items.length).toBeGreaterThan(years.size * 6);
      }
    }
    expect(leapFebruaries).toBeGreaterThan(0);
  });

  it('from and to are inclusive bounds', async () => {
    for (const key of ['population', MONTHLY[0]]) {
      const all = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&limit=200`);
      expect(all.length).toBeGreaterThan(10);
      const dates = all.map((p) => p.reference_date);
      const from = dates[2];
      const to = dates[7];
      const ranged = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&from=${from}&to=${to}`);
      expect(ranged).toEqual(all.slice(2, 8));
      // A single day range on a reference date returns that one point.
      const single = await t.get(`/v1/indicators/${key}/series?municipality=1106&from=${from}&to=${from}`);
      expect(single.json.items).toEqual([all[2]]);
      // Only from / only to.
      expect(await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&from=${to}&limit=200`)).toEqual(
        all.slice(7),
      );
      expect(await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&to=${from}&limit=200`)).toEqual(
        all.slice(0, 3),
      );
      // Bounds between reference dates.
      const dayAfter = new Date(Date.parse(`${from}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const after = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&from=${dayAfter}&to=${to}`);
      expect(after).toEqual(all.slice(3, 8));
    }
  });

  it('rejects from after to with 422', async () => {
    expectProblem(
      await t.get('/v1/indicators/population/series?municipality=1106&from=2022-01-01&to=2021-01-01'),
      422,
      'validation-error',
    );
  });

  it.each([
    ['from', '2024-02-30'],
    ['from', '2023-02-29'],
    ['to', '2024-13-01'],
    ['from', 'yesterday'],
    ['to', '2024-1-5'],
    ['from', '2024-03-15T00:00:00Z'],
  ])('rejects an invalid date %s=%s with 422 naming it', async (field, value) => {
    expectValidation(await t.get(`/v1/indicators/population/series?municipality=1106&${field}=${value}`), field);
  });

  it('accepts a real leap day as a bound', async () => {
    const res = await t.get(`/v1/indicators/${MONTHLY[0]}/series?municipality=1106&from=2024-02-29&to=2024-02-29`);
    expect(res.status, res.body).toBe(200);
    for (const p of res.json.items) expect(p.reference_date).toBe('2024-02-29');
  });

  it('needs municipality: missing → 422 naming it; unknown → 404', async () => {
    expectValidation(await t.get('/v1/indicators/population/series'), 'municipality');
    expectProblem(await t.get('/v1/indicators/population/series?municipality=9999'), 404, 'not-found');
    expectProblem(await t.get('/v1/indicators/population/series?municipality=atlantis'), 404, 'not-found');
  });

  it('rejects bad limits and unknown parameters with 422', async () => {
    for (const limit of ['0', '-1', '1.5', '201', 'abc']) {
      expectValidation(await t.get(`/v1/indicators/population/series?municipality=1106&limit=${limit}`), 'limit');
    }
    expectValidation(await t.get('/v1/indicators/population/series?municipality=1106&since=2020-01-01'), 'since');
  });

  it('pages through a monthly series with limit=10: same points as one big page, no duplicate, no gap', async () => {
    const key = MONTHLY[0];
    const big = await t.get(`/v1/indicators/${key}/series?municipality=porto&limit=200`);
    expect(big.status).toBe(200);
    expect(big.json.has_more ?? false).toBe(false);
    expect(big.json.items.length).toBeGreaterThan(10);
    const paged = await collectPages(t, `/v1/indicators/${key}/series?municipality=porto&limit=10`);
    expect(paged).toEqual(big.json.items);
    expectNoDuplicates(paged.map((p) => p.reference_date));
    // The default page is 50 points.
    const dflt = await t.get(`/v1/indicators/${key}/series?municipality=porto`);
    expect(dflt.json.items).toEqual(big.json.items.slice(0, 50));
    expect(dflt.json.has_more).toBe(big.json.items.length > 50);
    // Paging within a date range.
    const from = big.json.items[5].reference_date;
    const to = big.json.items[40].reference_date;
    expect(
      await collectPages(t, `/v1/indicators/${key}/series?municipality=porto&from=${from}&to=${to}&limit=7`),
    ).toEqual(big.json.items.slice(5, 41));
  });

  it('refuses a series cursor used for another municipality or another indicator', async () => {
    const key = MONTHLY[0];
    const first = await t.get(`/v1/indicators/${key}/series?municipality=1106&limit=10`);
    const cursor = encodeURIComponent(first.json.next_cursor);
    expect((await t.get(`/v1/indicators/${key}/series?municipality=1106&limit=10&cursor=${cursor}`)).status).toBe(200);
    expectProblem(
      await t.get(`/v1/indicators/${key}/series?municipality=porto&limit=10&cursor=${cursor}`),
      400,
      'invalid-cursor',
    );
    expectProblem(
      await t.get(`/v1/indicators/${MONTHLY[1] ?? 'population'}/series?municipality=1106&limit=10&cursor=${cursor}`),
      400,
      'invalid-cursor',
    );
  });

  describe('history clamping (plan history_years)', () => {
    const N = 4;
    let shortKey: string;
    beforeAll(async () => {
      shortKey = (await t.keyOnPlan('rest_ind_short_history', { history_years: N })).key;
    });

    it('reports history_years in /v1/me', async () => {
      expect((await t.get('/v1/me', { key: shortKey })).json.limits.history_years).toBe(N);
    });

    const clampsOldFrom =
      'silently clamps a from of 1990-01-01 to the window: 200, no older point, nothing inside the window lost';
    it(clampsOldFrom, async () => {
      const windowStart = yearsAgo(t.clock.now, N);
      for (const key of ['population', MONTHLY[0]]) {
        const res = await t.get(`/v1/indicators/${key}/series?municipality=1106&from=1990-01-01&limit=200`, {
          key: shortKey,
        });
        expect(res.status, res.body).toBe(200);
        const dates = res.json.items.map((p: { reference_date: string }) => p.reference_date);
        expect(dates.length).toBeGreaterThan(0);
        for (const d of dates) expect(d >= windowStart, `${d} older than ${windowStart}`).toBe(true);
        // The full series (a plan without that limit) restricted to the window is exactly what was served.
        const full = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&limit=200`, {
          key: bulkKey,
        });
        expect(full.some((p) => p.reference_date < windowStart)).toBe(true); // the clamp did cut something
        expect(res.json.items).toEqual(full.filter((p) => p.reference_date >= windowStart));
        // Without from, the same window applies.
        const noFrom = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&limit=200`, {
          key: shortKey,
        });
        expect(noFrom).toEqual(res.json.items);
      }
    });

    it('leaves a from inside the window alone and gives an empty page for a range wholly before it', async () => {
      const key = MONTHLY[0];
      const full = await collectPages(t, `/v1/indicators/${key}/series?municipality=1106&limit=200`, { key: bulkKey });
      const inside = full[full.length - 5].reference_date;
      const res = await t.get(`/v1/indicators/${key}/series?municipality=1106&from=${inside}`, { key: shortKey });
      expect(res.json.items).toEqual(full.slice(-5));
      const before = await t.get('/v1/indicators/population/series?municipality=1106&from=1990-01-01&to=1995-12-31', {
        key: shortKey,
      });
      expect(before.status).toBe(200);
      expect(before.json.items).toEqual([]);
    });

    it('the premium_indicators plan (10 years) clamps as well', async () => {
      const me = (await t.get('/v1/me', { key: t.keys.indicatorsOnly })).json;
      const years = me.limits.history_years as number;
      expect(years).toEqual(expect.any(Number));
      const windowStart = yearsAgo(t.clock.now, years);
      const items = await collectPages(
        t,
        `/v1/indicators/${MONTHLY[0]}/series?municipality=1106&from=1990-01-01&limit=200`,
        {
          key: t.keys.indicatorsOnly,
        },
      );
      for (const p of items) expect(p.reference_date >= windowStart).toBe(true);
    });

    it('medians take the same window and refuse a from after to as series do', async () => {
      const windowStart = yearsAgo(t.clock.now, N);
      const full = (await t.get('/v1/indicators/population/medians', { key: bulkKey })).json;
      expect(full.some((p: any) => p.reference_date < windowStart)).toBe(true); // the window does cut something
      const clamped = await t.get('/v1/indicators/population/medians?from=1990-01-01', { key: shortKey });
      expect(clamped.status, clamped.body).toBe(200);
      expect(clamped.json.map((p: any) => p.reference_date)).toEqual(
        full.map((p: any) => p.reference_date).filter((d: string) => d >= windowStart),
      );
      expectValidation(await t.get('/v1/indicators/population/medians?from=2022-01-01&to=2021-01-01'), 'from');
    });
  });

  describe('values by plan', () => {
    it('premium_indicators (raw_values false): every point normalized, values within 0..100', async () => {
      const me = (await t.get('/v1/me', { key: t.keys.indicatorsOnly })).json;
      expect(me.raw_values).toBe(false);
      for (const key of ['population', 'unemployment_rate', MONTHLY[0], 'natural_increase_rate']) {
        for (const m of ['1106', 'porto', '4901']) {
          const items = await collectPages(t, `/v1/indicators/${key}/series?municipality=${m}&limit=200`, {
            key: t.keys.indicatorsOnly,
          });
          expect(items.length).toBeGreaterThan(0);
          for (const p of items) {
            expect(p.treatment).toBe('normalized');
            if (p.value !== null && p.value !== undefined) {
              expect(p.value).toBeGreaterThanOrEqual(0);
              expect(p.value).toBeLessThanOrEqual(100);
            }
          }
          // Same dates as the raw series (inside the window), null exactly where the raw value is null.
          const raw = await collectPages(t, `/v1/indicators/${key}/series?municipality=${m}&limit=200`, {
            key: bulkKey,
          });
          const rawByDate = new Map(raw.map((p) => [p.reference_date, p]));
          for (const p of items) {
            const r = rawByDate.get(p.reference_date);
            expect(r, `${key} ${m} ${p.reference_date}`).toBeDefined();
            expect(p.value === null || p.value === undefined).toBe(r.value === null || r.value === undefined);
          }
        }
      }
    });

    it('premium: treatment raw, derived or estimated, never normalized, consistent with the catalogue', async () => {
      for (const entry of CATALOGUE) {
        const items = await collectPages(t, `/v1/indicators/${entry.key}/series?municipality=1106&limit=200`, {
          key: t.keys.premium,
        });
        expect(items.length, entry.key).toBeGreaterThan(0);
        for (const p of items) {
          expect(RAW_TREATMENTS).toContain(p.treatment);
          // A point is the catalogue's treatment, or estimated (provisional) — never another kind.
          expect([entry.treatment, 'estimated']).toContain(p.treatment);
        }
        if (entry.frequency === 'annual') for (const p of items) expect(p.reference_date.endsWith('-12-31')).toBe(true);
        else for (const p of items) expect(isLastDayOfMonth(p.reference_date)).toBe(true);
      }
    });
  });
});

// ==================================================================================================================

describe('GET /v1/indicators/{key}/snapshot and /stats', () => {
  /** `/v1/municipalities/{code}/indicators` of every municipality: the latest point per indicator, seen elsewhere. */
  const latestByMunicipality = new Map<string, Map<string, { reference_date: string; value: number | null }>>();

  beforeAll(async () => {
    for (const m of MUNICIPALITIES) {
      const res = await t.get(`/v1/municipalities/${m.code}/indicators`, { key: bulkKey });
      expect(res.status, res.body).toBe(200);
      latestByMunicipality.set(
        m.code,
        new Map(res.json.map((e: any) => [e.indicator, { reference_date: e.reference_date, value: e.value ?? null }])),
      );
    }
  });

  async function snapshot(key: string, apiKey = bulkKey) {
    return collectPages(t, `/v1/indicators/${key}/snapshot?limit=50`, { key: apiKey });
  }

  it('pages with limit=50 through exactly 308 rows, one per municipality, ordered by code, as in the CSV', async () => {
    expect(MUNICIPALITIES).toHaveLength(308);
    const pages: any[] = [];
    let url = '/v1/indicators/population/snapshot?limit=50';
    for (let i = 0; i < 20; i++) {
      const res = await t.get(url);
      expectJsonHeaders(res);
      pages.push(res.json);
      expect(res.json.items.length).toBeLessThanOrEqual(50);
      if (!res.json.has_more) break;
      expect(res.json.items).toHaveLength(50);
      url = withParam(url, 'cursor', res.json.next_cursor);
    }
    expect(pages).toHaveLength(Math.ceil(308 / 50));
    const rows = pages.flatMap((p) => p.items);
    expect(rows).toHaveLength(308);
    const codes = rows.map((r) => r.municipality);
    expectNoDuplicates(codes);
    expectStrictlyAscending(codes);
    expect(codes).toEqual(CODES_SORTED);
    for (const r of rows) {
      const ref = byCode.get(r.municipality) as CsvMunicipality;
      expect(r.name).toBe(ref.name);
      expect(r.district).toBe(ref.district);
      expect(TREATMENTS).toContain(r.treatment);
      expect(r.is_stale === undefined || typeof r.is_stale === 'boolean').toBe(true);
    }
  });

  it('gives the same rows whatever the page size', async () => {
    const a = await snapshot('unemployment_rate');
    const b = await collectPages(t, '/v1/indicators/unemployment_rate/snapshot?limit=200', { key: bulkKey });
    const c = await collectPages(t, '/v1/indicators/unemployment_rate/snapshot?limit=13', { key: bulkKey });
    const d = await collectPages(t, '/v1/indicators/unemployment_rate/snapshot', { key: bulkKey });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(d).toEqual(a);
  });

  it('percentiles lie in 0..100 and are consistent with the values', async () => {
    for (const key of ['population', 'unemployment_rate', 'natural_increase_rate', MONTHLY[0], 'burnt_area']) {
      const rows = await snapshot(key);
      expect(rows).toHaveLength(308);
      const withValue = rows.filter((r) => r.value !== null && r.value !== undefined);
      expect(withValue.length).toBeGreaterThan(250);
      for (const r of rows) {
        if (r.value === null || r.value === undefined) {
          expect(r.percentile ?? null, `${key} ${r.municipality}`).toBeNull();
          continue;
        }
        expect(typeof r.value).toBe('number');
        expect(typeof r.percentile).toBe('number');
        expect(r.percentile).toBeGreaterThanOrEqual(0);
        expect(r.percentile).toBeLessThanOrEqual(100);
      }
      const sorted = [...withValue].sort((a, b) => a.value - b.value);
      for (let i = 1; i < sorted.length; i++) {
        const [lo, hi] = [sorted[i - 1], sorted[i]];
        if (hi.value === lo.value) expect(hi.percentile, `${key}: equal values`).toBe(lo.percentile);
        else expect(hi.percentile, `${key}: ${lo.value} < ${hi.value}`).toBeGreaterThan(lo.percentile);
      }
      expect(sorted[0].percentile).toBe(0);
      // "share of municipalities with a lower value": check against the count of lower values.
      const values = withValue.map((r) => r.value as number);
      for (const r of withValue) {
        const lower = values.filter((v) => v < r.value).length;
        const shares = [(100 * lower) / values.length, (100 * lower) / rows.length];
        expect(
          shares.some((s) => Math.abs(s - r.percentile) <= 0.01),
          `${key} ${r.municipality}: percentile ${r.percentile}, ${lower} lower of ${values.length}`,
        ).toBe(true);
      }
    }
  });

  const latestPointPerMunicipality =
    'each row is the latest point of its municipality, and is_stale marks exactly the rows older than as_of';
  it(latestPointPerMunicipality, async () => {
    let staleSeen = 0;
    for (const entry of CATALOGUE) {
      const rows = await snapshot(entry.key);
      const stats = (await t.get(`/v1/indicators/${entry.key}/stats`, { key: bulkKey })).json;
      expect(stats.as_of, entry.key).toMatch(DATE_RE);
      for (const r of rows) {
        const latest = latestByMunicipality.get(r.municipality)?.get(entry.key);
        if (!latest) {
          expect(r.value ?? null, `${entry.key} ${r.municipality}`).toBeNull();
          expect(r.is_stale ?? false).toBe(false);
          continue;
        }
        expect(r.value ?? null, `${entry.key} ${r.municipality}`).toBe(latest.value);
        expect(latest.reference_date <= stats.as_of).toBe(true);
        expect(
          r.is_stale ?? false,
          `${entry.key} ${r.municipality} latest ${latest.reference_date} as_of ${stats.as_of}`,
        ).toBe(latest.reference_date < stats.as_of);
        if (r.is_stale) staleSeen++;
      }
    }
    // The demo data has stale municipalities (series that stop early); some rows must say so.
    expect(staleSeen).toBeGreaterThan(0);
  });

  it('is_stale agrees with /series of the municipality (stale and fresh examples)', async () => {
    let checkedStale = 0;
    for (const entry of CATALOGUE) {
      if (checkedStale >= 2) break;
      const rows = await snapshot(entry.key);
      const stale = rows.filter((r) => r.is_stale);
      if (stale.length === 0) continue;
      const stats = (await t.get(`/v1/indicators/${entry.key}/stats`, { key: bulkKey })).json;
      const fresh = rows.filter((r) => !r.is_stale && r.value !== null).slice(0, 2);
      for (const r of [stale[0], ...fresh]) {
        const series = await collectPages(
          t,
          `/v1/indicators/${entry.key}/series?municipality=${r.municipality}&limit=200`,
          {
            key: bulkKey,
          },
        );
        const lastWithValue = series.filter((p) => p.value !== null && p.value !== undefined).at(-1);
        expect(lastWithValue, `${entry.key} ${r.municipality}`).toBeDefined();
        expect(r.value).toBe(lastWithValue.value);
        if (r.is_stale) expect(lastWithValue.reference_date < stats.as_of).toBe(true);
        else expect(lastWithValue.reference_date).toBe(stats.as_of);
      }
      checkedStale++;
    }
    expect(checkedStale).toBeGreaterThan(0);
  });

  it('refuses a tampered cursor with 400 invalid-cursor', async () => {
    const first = await t.get('/v1/indicators/population/snapshot?limit=50');
    const cursor: string = first.json.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const dot = cursor.indexOf('.');
    const forged = `${Buffer.from(JSON.stringify('0105')).toString('base64url')}${dot >= 0 ? cursor.slice(dot) : ''}`;
    expectProblem(
      await t.get(`/v1/indicators/population/snapshot?limit=50&cursor=${encodeURIComponent(forged)}`),
      400,
      'invalid-cursor',
    );
    const at = dot + 5;
    const flipped = cursor.slice(0, at) + (cursor[at] === 'x' ? 'Q' : 'x') + cursor.slice(at + 1);
    expectProblem(
      await t.get(`/v1/indicators/population/snapshot?limit=50&cursor=${encodeURIComponent(flipped)}`),
      400,
      'invalid-cursor',
    );
    expectProblem(await t.get('/v1/indicators/population/snapshot?cursor=abc'), 400, 'invalid-cursor');
  });

  it('refuses a cursor of /v1/municipalities on /snapshot with 400', async () => {
    const m = await t.get('/v1/municipalities?limit=50');
    const cursor = encodeURIComponent(m.json.next_cursor);
    expectProblem(await t.get(`/v1/indicators/population/snapshot?limit=50&cursor=${cursor}`), 400, 'invalid-cursor');
  });

  it('refuses a snapshot cursor of indicator A used with indicator B with 400', async () => {
    const a = await t.get('/v1/indicators/population/snapshot?limit=50');
    const cursor = encodeURIComponent(a.json.next_cursor);
    expect((await t.get(`/v1/indicators/population/snapshot?limit=50&cursor=${cursor}`)).status).toBe(200);
    expectProblem(await t.get(`/v1/indicators/birth_rate/snapshot?limit=50&cursor=${cursor}`), 400, 'invalid-cursor');
  });

  it('rejects bad limits and unknown parameters on /snapshot with 422', async () => {
    // A snapshot page holds up to all 308 municipalities (docs/api.md, Snapshots); other lists stop at 200.
    for (const limit of ['0', '-1', '1.5', '309', 'abc']) {
      expectValidation(await t.get(`/v1/indicators/population/snapshot?limit=${limit}`), 'limit');
    }
    expectValidation(await t.get('/v1/indicators/population/snapshot?municipality=1106'), 'municipality');
    expect((await t.get('/v1/indicators/population/snapshot?limit=200')).json.items).toHaveLength(200);
    expect((await t.get('/v1/indicators/population/snapshot?limit=308')).json.items).toHaveLength(308);
  });

  it('on premium_indicators, the snapshot serves normalized values within 0..100', async () => {
    const rows = await snapshot('population', t.keys.indicatorsOnly);
    expect(rows).toHaveLength(308);
    for (const r of rows) {
      expect(r.treatment).toBe('normalized');
      if (r.value !== null && r.value !== undefined) {
        expect(r.value).toBeGreaterThanOrEqual(0);
        expect(r.value).toBeLessThanOrEqual(100);
      }
    }
  });

  /** The statistics a user computes from the collected snapshot. */
  function statsOf(rows: any[]) {
    const v = rows
      .map((r) => r.value)
      .filter((x): x is number => typeof x === 'number')
      .sort((a, b) => a - b);
    const n = v.length;
    const median = n === 0 ? null : n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {
      count: n,
      min: v[0] ?? null,
      max: v[n - 1] ?? null,
      mean: n ? v.reduce((a, b) => a + b, 0) / n : null,
      median,
    };
  }

  function expectStatsMatch(stats: any, mine: ReturnType<typeof statsOf>, key: string) {
    expect(stats.indicator).toBe(key);
    expect(Number.isInteger(stats.count)).toBe(true);
    expect(stats.count, key).toBe(mine.count);
    expect(stats.min, key).toBe(mine.min);
    expect(stats.max, key).toBe(mine.max);
    const tol = (x: number) => Math.max(1e-5, Math.abs(x) * 1e-9);
    expect(
      Math.abs(stats.mean - (mine.mean as number)),
      `${key} mean ${stats.mean} vs ${mine.mean}`,
    ).toBeLessThanOrEqual(tol(mine.mean as number));
    expect(Math.abs(stats.median - (mine.median as number)), `${key} median`).toBeLessThanOrEqual(
      tol(mine.median as number),
    );
  }

  const statsFromSnapshot =
    'stats equal count/min/max/mean/median computed from the snapshot; as_of is the latest reference date seen';
  it(statsFromSnapshot, async () => {
    for (const entry of CATALOGUE) {
      const res = await t.get(`/v1/indicators/${entry.key}/stats`, { key: bulkKey });
      expectJsonHeaders(res);
      const rows = await snapshot(entry.key);
      expectStatsMatch(res.json, statsOf(rows), entry.key);
      let maxDate = '';
      for (const m of latestByMunicipality.values()) {
        const d = m.get(entry.key)?.reference_date;
        if (d && d > maxDate) maxDate = d;
      }
      expect(res.json.as_of, entry.key).toBe(maxDate);
      if (entry.frequency === 'annual') expect(res.json.as_of).toMatch(/-12-31$/);
      else expect(isLastDayOfMonth(res.json.as_of)).toBe(true);
    }
  });

  it('stats on premium_indicators are computed over the normalized values it is served', async () => {
    for (const key of ['population', 'median_rent_m2']) {
      const res = await t.get(`/v1/indicators/${key}/stats`, { key: t.keys.indicatorsOnly });
      expect(res.status).toBe(200);
      const rows = await snapshot(key, t.keys.indicatorsOnly);
      expectStatsMatch(res.json, statsOf(rows), key);
      expect(res.json.min).toBeGreaterThanOrEqual(0);
      expect(res.json.max).toBeLessThanOrEqual(100);
    }
  });

  const mediansAtLatestDate =
    'medians: at the latest date, the median of the current snapshot values, nationally and in a district';
  it(mediansAtLatestDate, async () => {
    for (const key of ['unemployment_rate', 'population']) {
      const rows = (await snapshot(key)).filter((r: any) => !r.is_stale && typeof r.value === 'number');
      const stats = (await t.get(`/v1/indicators/${key}/stats`, { key: bulkKey })).json;
      const res = await t.get(`/v1/indicators/${key}/medians?district=${encodeURIComponent('Évora')}`, {
        key: bulkKey,
      });
      expectJsonHeaders(res);
      const dates = res.json.map((p: any) => p.reference_date);
      expect(dates).toEqual([...dates].sort());
      const last = res.json.at(-1);
      expect(last.reference_date).toBe(stats.as_of);
      expect(last.national_count).toBe(rows.length);
      expect(last.national_median).toBeCloseTo(statsOf(rows).median as number, 6);
      const evora = rows.filter((r: any) => r.district === 'Évora');
      expect(last.district_count).toBe(evora.length);
      expect(last.district_median).toBeCloseTo(statsOf(evora).median as number, 6);
    }
    const national = await t.get('/v1/indicators/population/medians?from=2020-01-01&to=2022-12-31', { key: bulkKey });
    expect(national.json.map((p: any) => p.reference_date)).toEqual(['2020-12-31', '2021-12-31', '2022-12-31']);
    expect(national.json[0]).not.toHaveProperty('district_median');
    expectValidation(await t.get('/v1/indicators/population/medians?district=Atlantida', { key: bulkKey }), 'district');
  });

  it('rejects parameters on /stats with 422', async () => {
    expectValidation(await t.get('/v1/indicators/population/stats?limit=10'), 'limit');
  });
});
