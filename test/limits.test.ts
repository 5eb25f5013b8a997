import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStoreAt, storeEnv } from './helpers/backend.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function used(key: string): Promise<number> {
  return (await t.get('/v1/me', { key })).json.usage.requests_this_month;
}

describe('monthly quota', () => {
  it('never admits more than the quota with 200 requests in flight at the boundary', async () => {
    const { key } = await t.keyOnPlan('quota_edge', { requests_per_month: 60 });
    for (let i = 0; i < 50; i++) expect((await t.get('/v1/indicators/population', { key })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 200 }, () => t.get('/v1/indicators/population', { key })));
    const ok = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 402);
    expect(ok).toBe(10);
    expect(refused).toHaveLength(190);
    expect(refused[0].json.type).toBe(`${BASE_URL}/problems/quota-exceeded`);
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(0);
    expect(await used(key)).toBe(60);
  });

  it('charges successes only: errors, 304 answers and /v1/me are free', async () => {
    const { key } = await t.keyOnPlan('quota_free_things', { requests_per_month: 1000 });
    const first = await t.get('/v1/indicators/population', { key });
    expect(first.status).toBe(200);
    expect((await t.get('/v1/indicators/nope', { key })).status).toBe(404);
    expect((await t.get('/v1/indicators?limit=0', { key })).status).toBe(422);
    expect((await t.get('/v1/indicators?cursor=forged', { key })).status).toBe(400);
    const notModified = await t.get('/v1/indicators/population', {
      key,
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(notModified.status).toBe(304);
    for (let i = 0; i < 5; i++) await t.get('/v1/me', { key });
    expect(await used(key)).toBe(1);
  });

  it('reports requests_remaining and the month period', async () => {
    const { key } = await t.keyOnPlan('quota_report', { requests_per_month: 20 });
    for (let i = 0; i < 3; i++) await t.get('/v1/municipalities/1106', { key });
    const me = (await t.get('/v1/me', { key })).json;
    expect(me.usage).toMatchObject({ requests_this_month: 3, requests_remaining: 17 });
    expect(me.limits.requests_per_month).toBe(20);
  });

  it('keeps usage across a restart', async () => {
    const { key } = await t.keyOnPlan('quota_restart', { requests_per_month: 1000 });
    for (let i = 0; i < 7; i++) await t.get('/v1/municipalities?limit=1', { key });
    await t.app.counters.flush();
    // A second app on the same store file, as after a restart.
    const store = openStoreAt(t.dbPath);
    const app = await createApp({ config: loadConfig({ BASE_URL, ...storeEnv(t.dbPath) }), store });
    try {
      const res = await app.http.inject({ url: '/v1/me', headers: { authorization: `Bearer ${key}` } });
      expect(JSON.parse(res.body).usage.requests_this_month).toBe(7);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('per-minute rate limit', () => {
  it('answers 429 with Retry-After past the limit, and admits again after waiting', async () => {
    const { key } = await t.keyOnPlan('rate_small', { requests_per_minute: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.get('/v1/municipalities/1106', { key })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await t.get('/v1/municipalities/1106', { key });
    expect(refused.json.type).toBe(`${BASE_URL}/problems/rate-limited`);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    t.clock.advance(wait * 1000);
    expect((await t.get('/v1/municipalities/1106', { key })).status).toBe(200);
  });

  it('counts /v1/me and refused requests against the minute too', async () => {
    const { key } = await t.keyOnPlan('rate_me', { requests_per_minute: 3 });
    await t.get('/v1/me', { key });
    await t.get('/v1/indicators/nope', { key });
    await t.get('/v1/me', { key });
    expect((await t.get('/v1/me', { key })).status).toBe(429);
  });

  it('limits requests without a valid key by client address', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 70; i++) statuses.add((await t.get('/v1/me', { key: `sk_live_${'x'.repeat(40)}` })).status);
    expect(statuses).toEqual(new Set([401, 429]));
    t.clock.advance(60_000);
  });
});

describe('limit headers', () => {
  it('sends RateLimit-Policy and RateLimit for the minute and the month, and Request-Id', async () => {
    const { key } = await t.keyOnPlan('headers_plan', { requests_per_minute: 50, requests_per_month: 500 });
    const res = await t.get('/v1/indicators/population', { key });
    expect(res.headers['ratelimit-policy']).toBe('"minute";q=50;w=60, "month";q=500;w=2592000');
    expect(res.headers.ratelimit).toMatch(/^"minute";r=49;t=\d+, "month";r=499;t=\d+$/);
    expect(res.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
