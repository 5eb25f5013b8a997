import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ERROR_KINDS } from '../src/lib/errors.js';
import { BASE_URL, copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('problem documents', () => {
  it('serves a description at every problem type URI', async () => {
    for (const [kind, info] of Object.entries(ERROR_KINDS)) {
      const res = await t.get(`/problems/${kind}`, { key: null });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ type: `${BASE_URL}/problems/${kind}`, status: info.status, title: info.title });
      expect(res.json.description.length).toBeGreaterThan(20);
    }
    expect((await t.get('/problems/no-such-kind', { key: null })).status).toBe(404);
  });

  it('answers other methods with 405 method-not-allowed and Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.http.inject({
        method,
        url: '/v1/indicators',
        headers: { authorization: `Bearer ${t.keys.premium}` },
      });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body).type).toBe(`${BASE_URL}/problems/method-not-allowed`);
    }
  });

  it('answers an unknown route with 404 not-found', async () => {
    const res = await t.get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.json.type).toBe(`${BASE_URL}/problems/not-found`);
  });

  it('names every offending parameter of a 422', async () => {
    const res = await t.get('/v1/indicators?limit=500&category=weather&colour=blue');
    expect(res.status).toBe(422);
    expect(res.json.type).toBe(`${BASE_URL}/problems/validation-error`);
    const fields = res.json.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['category', 'colour', 'limit']);
  });

  it('refuses a tampered cursor, and a cursor reused with other filters, with 400 invalid-cursor', async () => {
    const page = await t.get('/v1/municipalities?limit=5');
    const cursor: string = page.json.next_cursor;
    const [payload, mac] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify('1106')).toString('base64url')}.${mac}`;
    expect(payload).not.toBe(forged.split('.')[0]);
    for (const url of [
      `/v1/municipalities?limit=5&cursor=${forged}`,
      `/v1/municipalities?limit=5&district=Lisboa&cursor=${cursor}`,
      `/v1/indicators?cursor=${cursor}`,
      '/v1/municipalities?cursor=%F0%9F%92%A5',
    ]) {
      const res = await t.get(url);
      expect(res.status, url).toBe(400);
      expect(res.json.type).toBe(`${BASE_URL}/problems/invalid-cursor`);
    }
    // The page size may change between pages: it is not a filter.
    expect((await t.get(`/v1/municipalities?limit=20&cursor=${cursor}`)).status).toBe(200);
  });

  it('never leaks a stack or SQL in a 500', async () => {
    const { store } = copyDemoStore();
    const account = await store.createAccount({
      name: 'x',
      plan_code: 'premium',
      beta: false,
      now: new Date().toISOString(),
    });
    const { secret } = await createKey(store, { accountId: account.id }, new Date());
    store.series = async () => {
      throw new Error('SqliteError: no such column: secret_col in SELECT * FROM observations');
    };
    const app = await createApp({ config: loadConfig({ BASE_URL }), store });
    try {
      const res = await app.http.inject({
        url: '/v1/indicators/population/series?municipality=1106',
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.statusCode).toBe(500);
      const problem = JSON.parse(res.body);
      expect(problem).toMatchObject({
        type: `${BASE_URL}/problems/internal`,
        status: 500,
        request_id: res.headers['request-id'],
      });
      expect(res.body).not.toMatch(/Sqlite|secret_col|SELECT|\.ts:\d+/);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('conventions', () => {
  it('answers If-None-Match with 304 and no body', async () => {
    const first = await t.get('/v1/indicators/population/snapshot?limit=50');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    const again = await t.get('/v1/indicators/population/snapshot?limit=50', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const other = await t.get('/v1/indicators/population/snapshot?limit=49', {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(other.status).toBe(200);
  });

  it('compresses large answers with br or gzip on request', async () => {
    const plain = await t.get('/v1/indicators/population/snapshot?limit=200');
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.http.inject({
        url: '/v1/indicators/population/snapshot?limit=200',
        headers: { authorization: `Bearer ${t.keys.premium}`, 'accept-encoding': encoding },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(decode(res.rawPayload).toString()).toBe(plain.body);
      expect(res.rawPayload.length).toBeLessThan(plain.body.length / 3);
    }
  });

  it('honours the weights of Accept-Encoding, and leaves small answers uncompressed', async () => {
    const url = '/v1/indicators/population/snapshot?limit=200';
    const encodingFor = async (acceptEncoding: string, path = url) =>
      (
        await t.app.http.inject({
          url: path,
          headers: { authorization: `Bearer ${t.keys.premium}`, 'accept-encoding': acceptEncoding },
        })
      ).headers['content-encoding'];
    expect(await encodingFor('gzip, deflate, br')).toBe('br');
    expect(await encodingFor('br;q=0, gzip')).toBe('gzip');
    expect(await encodingFor('gzip;q=1.0, br;q=0.5')).toBe('gzip');
    expect(await encodingFor('*')).toBe('br');
    expect(await encodingFor('identity')).toBeUndefined();
    expect(await encodingFor('deflate')).toBeUndefined();
    // One municipality is a few hundred bytes: not worth compressing.
    const small = '/v1/municipalities/1106';
    expect((await t.get(small)).body.length).toBeLessThan(1024);
    expect(await encodingFor('br', small)).toBeUndefined();
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await t.get('/v1/indicators/population/snapshot?limit=50');
    const head = await t.app.http.inject({
      method: 'HEAD',
      url: '/v1/indicators/population/snapshot?limit=50',
      headers: { authorization: `Bearer ${t.keys.premium}` },
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['request-id']).toMatch(/^req_/);
  });

  it('mirrors next_cursor in a Link rel="next" header', async () => {
    const res = await t.get('/v1/municipalities?limit=3&district=Faro');
    const link = String(res.headers.link);
    expect(link).toMatch(/^<http:\/\/munidata\.test\/v1\/municipalities\?.*>; rel="next"$/);
    const next = new URL(link.slice(1, link.indexOf('>')));
    expect(next.searchParams.get('cursor')).toBe(res.json.next_cursor);
    expect(next.searchParams.get('district')).toBe('Faro');
    const last = await t.get('/v1/municipalities?district=Faro');
    expect(last.json.has_more).toBe(false);
    expect(last.headers.link).toBeUndefined();
  });

  it('marks caller data private and /v1/me not storable', async () => {
    expect((await t.get('/v1/indicators')).headers['cache-control']).toBe('private, max-age=60');
    expect((await t.get('/v1/me')).headers['cache-control']).toBe('private, no-store');
  });

  it('serves the OpenAPI document and the reference page without a key', async () => {
    const openapi = await t.get('/v1/openapi.json', { key: null });
    expect(openapi.status).toBe(200);
    expect(openapi.json.info).toMatchObject({ version: '1.0.0', 'x-service-api-version': '2026-07' });
    const docs = await t.get('/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
  });
});
