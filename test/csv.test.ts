/**
 * CSV answers of list endpoints (`Accept: text/csv`, RFC 4180): black box through the real app, each CSV read
 * back with a small RFC 4180 parser of the test's own and compared with the JSON answer to the same request.
 * The store is a copy of the demo store with one indicator's texts edited to hold a comma, quotes, a line break and an
 * empty string, so that quoting is exercised on data that really comes out of the service.
 */
import { gunzipSync } from 'node:zlib';
import { type TSchema, Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, openApiPath } from '../src/channels/rest/openapi.js';
import { csvTable } from '../src/core/csv.js';
import { Nullable, Page } from '../src/core/schemas.js';
import { createRegistry } from '../src/operations/index.js';
import { SnapshotRow } from '../src/operations/indicators/schemas.js';
import { MunicipalityIndicatorValue, MunicipalitySummary } from '../src/operations/municipalities/schemas.js';
import type { IndicatorRecord } from '../src/store/records.js';
import { renderDocsPage } from '../src/web/docs-page.js';
import {
  BASE_URL,
  collectPages,
  copyDemoStore,
  startTestApp,
  type TestApp,
  type TestResponse,
} from './helpers/test-app.js';

const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
const TRICKY_NAME = 'Resident population, "estimated"';
const TRICKY_NAME_PT = 'População residente\r\nestimada';
/** Text a spreadsheet would run, as a buyer may type it into a contract's object. */
const FORMULA_NAME = '=HYPERLINK("https://example.test","Área")';

let t: TestApp;
beforeAll(async () => {
  const { store, dbPath } = copyDemoStore();
  const tricky = (await store.listIndicators()).flatMap((i): IndicatorRecord[] => {
    if (i.key === 'population') return [{ ...i, name: TRICKY_NAME, name_pt: TRICKY_NAME_PT, unit_display: '' }];
    return i.key === 'area' ? [{ ...i, unit_display: null, name: FORMULA_NAME }] : [];
  });
  await store.saveIndicators(tricky);
  t = await startTestApp({ store, dbPath });
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

/** RFC 4180 reader: records of fields, plus whether each field was quoted (to tell `""` from an empty field). */
function parseCsv(text: string): { rows: string[][]; quoted: boolean[][] } {
  const rows: string[][] = [];
  const quoted: boolean[][] = [];
  let row: string[] = [];
  let rowQuoted: boolean[] = [];
  let i = 0;
  const endField = (value: string, wasQuoted: boolean) => {
    row.push(value);
    rowQuoted.push(wasQuoted);
  };
  while (i < text.length) {
    let value = '';
    let wasQuoted = false;
    if (text[i] === '"') {
      wasQuoted = true;
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else value += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`bare quote at ${i}`);
        value += text[i++];
      }
    }
    endField(value, wasQuoted);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      i += 2;
      rows.push(row);
      quoted.push(rowQuoted);
      row = [];
      rowQuoted = [];
      continue;
    }
    throw new Error(`expected , or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  if (row.length > 0) throw new Error('last record does not end with CRLF');
  return { rows, quoted };
}

function csvGet(path: string, accept = 'text/csv', headers: Record<string, string> = {}): Promise<TestResponse> {
  return t.get(path, { headers: { accept, ...headers } });
}

/** The CSV answer as objects keyed by the header row, after checking its media type and shape. */
function records(res: TestResponse): { header: string[]; rows: Record<string, string>[] } {
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(CSV_TYPE);
  const { rows } = parseCsv(res.body);
  const [header, ...data] = rows;
  for (const r of data) expect(r.length).toBe(header.length);
  return { header, rows: data.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]]))) };
}

/** What a JSON value becomes in a field (the documented rules, written again here from the JSON side). */
function expectedField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => expectedField(v).replace(/[\\|]/g, '\\$&')).join('|');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The value under a dotted column; through arrays, the list of each element's value. */
function pick(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => pick(v, path));
  if (value === null || typeof value !== 'object') return undefined;
  return pick((value as Record<string, unknown>)[path[0]], path.slice(1));
}

function expectedRecords(items: unknown[], header: string[]): Record<string, string>[] {
  return items.map((item) => Object.fromEntries(header.map((h) => [h, expectedField(pick(item, h.split('.')))])));
}

function propertyNames(schema: TSchema): string[] {
  return Object.keys((schema as unknown as { properties: Record<string, unknown> }).properties);
}

function nextLink(res: TestResponse): string | undefined {
  const link = res.headers.link;
  if (link === undefined) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`unexpected Link ${link}`);
  const url = new URL(m[1]);
  return `${url.pathname}${url.search}`;
}

async function usage(): Promise<number> {
  return (await t.get('/v1/me')).json.usage.requests_this_month;
}

// ---------------------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------------------

describe('CSV of list endpoints', () => {
  const pagesAllMunicipalities =
    'pages through all 308 municipalities by Link / Next-Cursor, header row = MunicipalitySummary, values = JSON';
  it(pagesAllMunicipalities, async () => {
    const json = await collectPages(t, '/v1/municipalities?limit=200');
    expect(json).toHaveLength(308);
    const expectedHeader = ['code', 'slug', 'name', 'district', 'nuts_ii', 'nuts_iii', 'id'];
    expect(propertyNames(MunicipalitySummary)).toEqual(expectedHeader);

    const rows: Record<string, string>[] = [];
    let url: string | undefined = '/v1/municipalities?limit=200';
    let pages = 0;
    while (url !== undefined) {
      const res = await csvGet(url);
      const page = records(res);
      expect(page.header).toEqual(expectedHeader);
      expect(res.headers.vary).toMatch(/\bAccept\b/);
      rows.push(...page.rows);
      url = nextLink(res);
      if (url !== undefined)
        expect(new URL(url, 'http://x').searchParams.get('cursor')).toBe(res.headers['next-cursor']);
      else expect(res.headers['next-cursor']).toBeUndefined();
      pages++;
    }
    expect(pages).toBe(2);
    expect(rows).toHaveLength(308);
    expect(new Set(rows.map((r) => r.code)).size).toBe(308);
    expect(rows).toEqual(expectedRecords(json, expectedHeader));
    expect(rows.map((r) => r.code)).toEqual([...rows.map((r) => r.code)].sort());
  });

  it('keeps accents intact (UTF-8)', async () => {
    const res = await t.app.http.inject({
      url: '/v1/municipalities?q=evora',
      headers: { authorization: `Bearer ${t.keys.premium}`, accept: 'text/csv' },
    });
    expect(res.headers['content-type']).toBe(CSV_TYPE);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false); // no byte-order mark
    expect(bytes.includes(Buffer.from('Évora', 'utf8'))).toBe(true);
    const { rows } = parseCsv(bytes.toString('utf8'));
    expect(rows.slice(1).map((r) => r[2])).toContain('Évora');
  });

  it('quotes fields with a comma, quotes or a line break, and tells "" from null', async () => {
    const res = await csvGet('/v1/indicators?limit=200');
    const { header, rows } = records(res);
    expect(header).toEqual([
      'key',
      'name',
      'name_pt',
      'category',
      'unit',
      'unit_display',
      'direction',
      'source',
      'synthetic',
      'country_code',
      'value_domain',
      'treatment',
    ]);
    const json = (await t.get('/v1/indicators?limit=200')).json.items;
    expect(rows).toEqual(expectedRecords(json, header));
    const population = rows.find((r) => r.key === 'population');
    expect(population).toMatchObject({ name: TRICKY_NAME, name_pt: TRICKY_NAME_PT, unit_display: '' });
    expect(res.body).toContain('"Resident population, ""estimated"""');
    expect(res.body).toContain('"População residente\r\nestimada"');
    // The empty string is quoted; a null is an empty field without quotes.
    const { rows: raw, quoted } = parseCsv(res.body);
    const unitDisplay = header.indexOf('unit_display');
    const at = raw.findIndex((r) => r[0] === 'population');
    expect(quoted[at][unitDisplay]).toBe(true);
    const area = raw.findIndex((r) => r[0] === 'area');
    expect(json.find((i: { key: string }) => i.key === 'area').unit_display).toBeNull();
    expect([raw[area][unitDisplay], quoted[area][unitDisplay]]).toEqual(['', false]);
  });

  const snapshotAsCsv =
    'serves the population snapshot (limit=50) as CSV: nulls empty, booleans true/false, numbers as JSON';
  it(snapshotAsCsv, async () => {
    const url = '/v1/indicators/population/snapshot?limit=50';
    const res = await csvGet(url);
    const { header, rows } = records(res);
    expect(header).toEqual(propertyNames(SnapshotRow));
    const json = await t.get(url);
    expect(rows).toHaveLength(50);
    expect(rows).toEqual(expectedRecords(json.json.items, header));
    expect(rows.every((r) => r.is_stale === 'true' || r.is_stale === 'false')).toBe(true);
    expect(rows.every((r) => r.value === '' || Number.isFinite(Number(r.value)))).toBe(true);
    expect(res.headers['next-cursor']).toBe(json.json.next_cursor);
    // The same cursor serves both representations: the next CSV page is the next JSON page.
    const next = records(await csvGet(nextLink(res) as string));
    const nextJson = await t.get(`${url}&cursor=${encodeURIComponent(json.json.next_cursor)}`);
    expect(next.rows).toEqual(expectedRecords(nextJson.json.items, header));
    expect(next.rows[0].municipality > rows[49].municipality).toBe(true);
  });

  it('serves an array answer (municipalities_indicators) as CSV, without paging headers', async () => {
    const res = await csvGet('/v1/municipalities/1106/indicators');
    const { header, rows } = records(res);
    expect(header).toEqual(propertyNames(MunicipalityIndicatorValue));
    const json = (await t.get('/v1/municipalities/1106/indicators')).json;
    expect(Array.isArray(json)).toBe(true);
    expect(rows).toHaveLength(json.length);
    expect(rows).toEqual(expectedRecords(json, header));
    expect(rows.find((r) => r.indicator === 'population')?.name).toBe(TRICKY_NAME);
    expect(res.headers.link).toBeUndefined();
    expect(res.headers['next-cursor']).toBeUndefined();
  });

  it('answers an empty result with the header row alone', async () => {
    const res = await csvGet('/v1/municipalities?q=zzzzqqq');
    expect(res.status).toBe(200);
    expect(res.body).toBe('code,slug,name,district,nuts_ii,nuts_iii,id\r\n');
    expect(res.headers.link).toBeUndefined();
  });
});

describe('negotiation', () => {
  const cases: [string | undefined, 'csv' | 'json'][] = [
    [undefined, 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['text/csv', 'csv'],
    ['TEXT/CSV', 'csv'],
    ['text/csv; charset=utf-8; header=present', 'csv'],
    ['text/csv;q=0.5, application/json', 'json'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['text/csv;q=0.9, application/json;q=0.8', 'csv'],
    ['text/csv, */*;q=0.1', 'csv'],
    ['text/csv, */*', 'csv'],
    ['text/*', 'csv'],
    ['text/*, application/json', 'json'],
    ['text/csv;q=0', 'json'],
    ['application/xml', 'json'],
    ['text/html, application/xhtml+xml, */*;q=0.8', 'json'],
  ];

  it.each(cases)('Accept: %s → %s', async (accept, expected) => {
    const res = await t.get('/v1/municipalities?limit=2', { headers: accept === undefined ? {} : { accept } });
    expect(res.status).toBe(200);
    if (expected === 'csv') expect(res.headers['content-type']).toBe(CSV_TYPE);
    else expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('answers JSON on an endpoint that is not a list, whatever Accept says', async () => {
    for (const path of [
      '/v1/municipalities/1106',
      '/v1/indicators/population',
      '/v1/indicators/population/stats',
      '/v1/me',
    ]) {
      const res = await csvGet(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('application/json; charset=utf-8');
    }
  });

  it('keeps errors as problem+json', async () => {
    for (const [path, status] of [
      ['/v1/municipalities?limit=500', 422],
      ['/v1/indicators/no-such-indicator/snapshot', 404],
      ['/v1/municipalities?cursor=garbage', 400],
    ] as const) {
      const res = await csvGet(path);
      expect(res.status, path).toBe(status);
      expect(res.headers['content-type'], path).toMatch(/^application\/problem\+json/);
      expect(res.json.status).toBe(status);
    }
    const noKey = await t.get('/v1/municipalities', { key: null, headers: { accept: 'text/csv' } });
    expect(noKey.status).toBe(401);
    expect(noKey.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('ETag, 304 and quota', () => {
  const url = '/v1/indicators/population/snapshot?limit=50';

  it('gives the CSV its own ETag, and If-None-Match works on it', async () => {
    const json = await t.get(url);
    const csv = await csvGet(url);
    expect(csv.headers.etag).toMatch(/^W\/".+"$/);
    expect(csv.headers.etag).not.toBe(json.headers.etag);
    expect(json.headers.vary).toMatch(/\bAccept\b/);

    const again = await csvGet(url, 'text/csv', { 'if-none-match': String(csv.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    // Another representation's tag does not match.
    expect((await csvGet(url, 'text/csv', { 'if-none-match': String(json.headers.etag) })).status).toBe(200);
    expect((await t.get(url, { headers: { 'if-none-match': String(csv.headers.etag) } })).status).toBe(200);
  });

  it('compresses a large CSV answer like a JSON one', async () => {
    const plain = await csvGet('/v1/municipalities?limit=200');
    const res = await t.app.http.inject({
      url: '/v1/municipalities?limit=200',
      headers: { authorization: `Bearer ${t.keys.premium}`, accept: 'text/csv', 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe(CSV_TYPE);
    expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('charges one unit per CSV request, nothing for a 304 or an error', async () => {
    const before = await usage();
    const first = await csvGet(url);
    expect(first.status).toBe(200);
    expect(await usage()).toBe(before + 1);
    expect((await csvGet(url, 'text/csv', { 'if-none-match': String(first.headers.etag) })).status).toBe(304);
    expect(await usage()).toBe(before + 1);
    expect((await csvGet('/v1/municipalities?limit=0')).status).toBe(422);
    expect(await usage()).toBe(before + 1);
    await csvGet('/v1/municipalities?limit=200');
    expect(await usage()).toBe(before + 2);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Every registered list operation (procurement included, as its operations arrive)
// ---------------------------------------------------------------------------------------------------------

describe('every list operation', () => {
  const registry = createRegistry();
  const isListOutput = (schema: TSchema) => {
    const s = JSON.parse(JSON.stringify(schema));
    return s.type === 'array' || s.properties?.items?.type === 'array';
  };
  const lists = registry.all.filter((op) => isListOutput(op.output));

  it('includes the foundation lists and no single-resource operation', () => {
    const names = lists.map((op) => op.name);
    for (const name of [
      'indicators_list',
      'indicators_series',
      'indicators_snapshot',
      'municipalities_search',
      'municipalities_indicators',
    ]) {
      expect(names).toContain(name);
    }
    for (const name of ['me', 'indicators_get', 'indicators_stats', 'municipalities_get'])
      expect(names).not.toContain(name);
    for (const op of registry.all) {
      expect(csvTable(op.output, op.csvRows) !== undefined, op.name).toBe(
        isListOutput(op.output) || op.csvRows !== undefined,
      );
    }
  });

  it.each(lists.map((op) => [op.name, op] as const))('%s: a header is derived from the item schema', (_name, op) => {
    const table = csvTable(op.output);
    expect(table, op.name).toBeDefined();
    expect(table?.fromProperties, `${op.name}: its item schema has no properties`).toBe(true);
    const columns = table?.columns ?? [];
    expect(columns.length).toBeGreaterThan(0);
    expect(new Set(columns).size, `${op.name}: duplicate column`).toBe(columns.length);
    expect(table?.render([])).toBe(`${columns.join(',')}\r\n`);
  });

  it.each(
    lists.map((op) => [op.name, op] as const),
  )('%s: its examples answer the same rows in CSV as in JSON', async (_name, op) => {
    for (const example of op.examples) {
      const path = op.rest.path.replace(/:([A-Za-z0-9_]+)/g, (_m, p: string) =>
        encodeURIComponent(String(example.input[p])),
      );
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(example.input)) {
        if (op.rest.path.includes(`:${k}`)) continue;
        for (const item of [v].flat()) query.append(k, String(item));
      }
      const url = `${path}${query.size > 0 ? `?${query}` : ''}`;
      const json = await t.get(url);
      const csv = await csvGet(url);
      expect(csv.status, url).toBe(json.status);
      if (json.status !== 200) continue;
      const { header, rows } = records(csv);
      expect(header).toEqual(csvTable(op.output)?.columns);
      const items = Array.isArray(json.json) ? json.json : json.json.items;
      expect(rows, url).toEqual(expectedRecords(items, header));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// The flattening rules, on a schema with every shape
// ---------------------------------------------------------------------------------------------------------

describe('columns from the schema', () => {
  const Party = Type.Object({ nif: Type.String(), name: Type.String() });
  const Item = Type.Object(
    {
      id: Type.Integer(),
      key: Type.Object({ year: Type.Optional(Type.Integer()), cpv_division: Type.Optional(Nullable(Type.String())) }),
      buyers: Type.Array(Party),
      municipalities: Type.Array(Type.String()),
      amount: Type.Optional(Nullable(Type.Number())),
      green: Type.Boolean(),
      extra: Type.Record(Type.String(), Type.Number()),
      note: Nullable(Type.String()),
    },
    { title: 'Thing' },
  );
  const table = csvTable(Page(Item, 'Thing'));

  it('flattens objects to dotted columns and arrays of objects to joined dotted columns, in schema order', () => {
    expect(table?.columns).toEqual([
      'id',
      'key.year',
      'key.cpv_division',
      'buyers.nif',
      'buyers.name',
      'municipalities',
      'amount',
      'green',
      'extra',
      'note',
    ]);
  });

  it('writes values by the documented rules', () => {
    const body = table?.render({
      items: [
        {
          id: 1,
          key: { year: 2024, cpv_division: null },
          buyers: [
            { nif: '500051070', name: 'Município de Lisboa' },
            { nif: '501', name: 'A|B, "C"' },
          ],
          municipalities: ['1106', '1109'],
          amount: 1234.5,
          green: false,
          extra: { a: 1 },
          note: '',
        },
        { id: 2, key: {}, buyers: [], municipalities: [], amount: null, green: true, extra: {}, note: null },
      ],
      next_cursor: null,
      has_more: false,
    });
    expect(body).toBe(
      'id,key.year,key.cpv_division,buyers.nif,buyers.name,municipalities,amount,green,extra,note\r\n' +
        '1,2024,,500051070|501,"Município de Lisboa|A\\|B, ""C""",1106|1109,1234.5,false,"{""a"":1}",""\r\n' +
        '2,,,,,,,true,{},\r\n',
    );
    expect(table?.render([])).toBe(
      'id,key.year,key.cpv_division,buyers.nif,buyers.name,municipalities,amount,green,extra,note\r\n',
    );
  });

  it('is undefined for an output that is not a list', () => {
    expect(csvTable(Item)).toBeUndefined();
    expect(csvTable(Type.Object({ groups: Type.Array(Item) }))).toBeUndefined();
    expect(csvTable(Type.Array(Item))?.columns[0]).toBe('id');
  });
});

describe('OpenAPI and the reference page', () => {
  const registry = createRegistry();
  const doc = buildOpenApi(registry, BASE_URL) as {
    paths: Record<string, { get: any }>;
    components: { headers: Record<string, unknown> };
  };
  const page = renderDocsPage(registry, BASE_URL);

  it('declares text/csv on the 200 of list operations only, with its header row', () => {
    for (const op of registry.all) {
      const content = doc.paths[openApiPath(op.rest.path)].get.responses['200'].content;
      const table = csvTable(op.output, op.csvRows);
      if (table === undefined) {
        expect(content['text/csv'], op.name).toBeUndefined();
        continue;
      }
      expect(content['text/csv'].schema.type, op.name).toBe('string');
      expect(content['text/csv'].examples.header.value).toBe(table.render([]));
      expect(content['application/json'], op.name).toBeDefined();
      expect(page).toContain(`Also as <a href="#csv">CSV</a>`);
    }
    expect(doc.components.headers['Next-Cursor']).toBeDefined();
    expect(doc.paths['/v1/municipalities'].get.responses['200'].headers['Next-Cursor']).toBeDefined();
  });

  it('has a CSV section on the reference page', () => {
    expect(page).toContain('id="csv"');
    expect(page).toContain('href="#csv"');
    expect(page).toContain('Accept: text/csv');
    expect(page).toContain('<code>\\\\</code> and <code>\\|</code>');
  });
});

// ---------------------------------------------------------------------------------------------------------
// format=, the spreadsheet variant, file names and the aggregate
// ---------------------------------------------------------------------------------------------------------

/** The `excel-pt` reader: `;` separated, quoted like RFC 4180; the byte-order mark is checked and dropped first. */
function parseExcelPt(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const swapped = text.slice(1).replace(/[,;]/g, (c) => (c === ';' ? ',' : ';'));
  return parseCsv(swapped).rows.map((row) => row.map((f) => f.replace(/;/g, ',')));
}

describe('format=csv, format=csv-excel and Content-Disposition', () => {
  const snapshot = '/v1/indicators/population_density/snapshot?limit=20';

  it('answers format=csv as Accept: text/csv does, with a file name', async () => {
    const byParameter = await t.get(`${snapshot}&format=csv`);
    const byHeader = await csvGet(snapshot);
    expect(byParameter.status).toBe(200);
    expect(byParameter.headers['content-type']).toBe(CSV_TYPE);
    expect(byParameter.body).toBe(byHeader.body);
    expect(byParameter.headers['content-disposition']).toBe(
      'attachment; filename="indicators-snapshot-population-density.csv"',
    );
    expect(byHeader.headers['content-disposition']).toBe(
      'attachment; filename="indicators-snapshot-population-density.csv"',
    );
  });

  it('lets format=json win over Accept: text/csv, and JSON answers carry no file name', async () => {
    const res = await csvGet(`${snapshot}&format=json`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.json.items).toHaveLength(20);
  });

  it('writes csv-excel with ;, decimal commas and a byte-order mark, the same table otherwise', async () => {
    const plain = parseCsv((await t.get(`${snapshot}&format=csv`)).body).rows;
    const res = await t.get(`${snapshot}&format=csv-excel`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(CSV_TYPE);
    const excel = parseExcelPt(res.body);
    expect(excel[0]).toEqual(plain[0]);
    const numeric = new Set(['value', 'percentile']);
    // `municipality` is a string of the schema (its code): its digits are kept as text, leading zeros and all.
    const digitsAsText = (text: string) => (/^[0-9]+$/.test(text) ? `="${text}"` : text);
    let decimals = 0;
    for (let r = 1; r < plain.length; r++) {
      plain[0].forEach((column, c) => {
        const excelOf = (text: string) => (column === 'municipality' ? digitsAsText(text) : text);
        const expected = numeric.has(column) ? plain[r][c].replace('.', ',') : excelOf(plain[r][c]);
        expect(excel[r][c], `${column} of row ${r}`).toBe(expected);
        if (numeric.has(column) && excel[r][c].includes(',')) decimals++;
      });
    }
    expect(decimals).toBeGreaterThan(0);
    expect(res.body).toContain('Águeda');
  });

  it('keeps codes, tax numbers and CPV codes as text in csv-excel (="0101"), and plain csv as it is', async () => {
    const municipalities = '/v1/municipalities?limit=2';
    expect((await t.get(`${municipalities}&format=csv-excel`)).body.split('\r\n').slice(1, 3)).toEqual([
      '"=""0101""";agueda;Águeda;Aveiro;Centro;Região de Aveiro;1',
      '"=""0102""";albergaria-a-velha;Albergaria-a-Velha;Aveiro;Centro;Região de Aveiro;2',
    ]);
    expect((await t.get(`${municipalities}&format=csv`)).body.split('\r\n')[1]).toBe(
      '0101,agueda,Águeda,Aveiro,Centro,Região de Aveiro,1',
    );
    // A contract: its main CPV, its buyer's and supplier's tax numbers, its municipalities; its id stays a number.
    const contracts = '/v1/procurement/contracts?limit=1&municipality=0101';
    const item = (await t.get(contracts)).json.items[0];
    const excel = parseExcelPt((await t.get(`${contracts}&format=csv-excel`)).body);
    const cell = (name: string) => excel[1][excel[0].indexOf(name)];
    expect(cell('cpv_main')).toBe(`="${item.cpv_main}"`);
    expect(cell('buyers.nif')).toBe(`="${item.buyers[0].nif}"`);
    expect(cell('suppliers.nif')).toBe(`="${item.suppliers[0].nif}"`);
    expect(cell('municipalities')).toBe('="0101"');
    expect(cell('id')).toBe(String(item.id));
    const raw = (await t.get(`${contracts}&format=csv-excel`)).body.split('\r\n')[1];
    expect(raw).toContain(`;"=""${item.cpv_main}""";`);
    expect((await t.get(`${contracts}&format=csv`)).body.split('\r\n')[1]).toContain(`,${item.cpv_main},`);
  });

  it('writes text a spreadsheet would run as a formula behind an apostrophe in csv-excel only', async () => {
    const indicators = '/v1/indicators?limit=100';
    const nameOfArea = (rows: string[][]) => rows.find((r) => r[0] === 'area')?.[rows[0].indexOf('name')];
    expect(nameOfArea(parseExcelPt((await t.get(`${indicators}&format=csv-excel`)).body))).toBe(`'${FORMULA_NAME}`);
    expect(nameOfArea(parseCsv((await t.get(`${indicators}&format=csv`)).body).rows)).toBe(FORMULA_NAME);
    // A negative number is a number, not a formula: only text is guarded.
    const negative = parseExcelPt(
      (await t.get('/v1/indicators/natural_increase_rate/snapshot?limit=308&format=csv-excel')).body,
    );
    const value = negative[0].indexOf('value');
    expect(negative.slice(1).some((row) => /^-\d/.test(row[value]))).toBe(true);
  });

  it('refuses an unknown format, and CSV of an operation that is not a list', async () => {
    const unknown = await t.get(`${snapshot}&format=xlsx`);
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors[0].field).toBe('format');
    const single = await t.get('/v1/municipalities/1106?format=csv');
    expect(single.status).toBe(422);
    expect(single.json.errors[0].field).toBe('format');
    expect((await t.get('/v1/municipalities/1106?format=json')).status).toBe(200);
  });

  it('answers the aggregate as CSV, one row per group, the same groups as the JSON', async () => {
    const url = '/v1/procurement/aggregate?group_by=year&group_by=cpv_division&executed_in=porto';
    const json = await t.get(url);
    expect(json.status).toBe(200);
    const res = await t.get(`${url}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="procurement-aggregate.csv"');
    const { header, rows } = records(res);
    expect(header).toEqual(
      expect.arrayContaining(['key.year', 'key.cpv_division', 'labels.cpv_division', 'count', 'total_eur']),
    );
    expect(rows.length).toBe(json.json.groups.length);
    // Each group carries the answer's synthetic flag (docs/api.md, CSV).
    const groups = json.json.groups.map((g: object) => ({ ...g, synthetic: json.json.synthetic }));
    expect(rows).toEqual(expectedRecords(groups, header));
    const viaAccept = await csvGet(url);
    expect(viaAccept.body).toBe(res.body);
  });

  it('says in a synthetic column of every aggregate row what the JSON says of the whole answer', async () => {
    // The demo store's contracts are all generated; `source=base` counts the real ones alone (none here).
    for (const [query, synthetic] of [
      ['group_by=year', 'true'],
      ['group_by=year&source=demo', 'true'],
      ['group_by=year&source=base', 'false'],
    ] as const) {
      const url = `/v1/procurement/aggregate?${query}`;
      const json = await t.get(url);
      expect(json.json.synthetic, url).toBe(synthetic === 'true');
      const { header, rows } = records(await t.get(`${url}&format=csv`));
      expect(header.at(-1), url).toBe('synthetic');
      expect(rows.length, url).toBe(json.json.groups.length);
      for (const row of rows) expect(row.synthetic, url).toBe(synthetic);
      const excel = (await t.get(`${url}&format=csv-excel`)).body.split('\r\n').filter(Boolean);
      expect(excel.slice(1).map((line) => line.split(';').at(-1))).toEqual(rows.map(() => synthetic));
    }
  });
});

describe('what is generated', () => {
  /** Whether an answer of this schema says `synthetic`, of itself or of its rows. */
  const saysSynthetic = (schema: TSchema): boolean => JSON.stringify(schema).includes('"synthetic":{');

  it('is a column of every CSV form whose JSON says it, of its rows or of the whole answer', () => {
    const withCsv = createRegistry().all.filter((op) => csvTable(op.output, op.csvRows) !== undefined);
    expect(withCsv.map((op) => op.name)).toContain('procurement_aggregate');
    for (const op of withCsv) {
      const columns = csvTable(op.output, op.csvRows)?.columns ?? [];
      expect(columns.includes('synthetic'), op.name).toBe(saysSynthetic(op.output));
    }
  });
});
