import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../src/access/api-keys.js';
import { createKey, revokeKey } from '../src/admin/keys.js';
import { answer, CHANNELS, type Channel, dataRequest, isAdmitted } from './helpers/channels.js';
import { expectProblem } from './helpers/expectations.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function send(channel: Channel, key: string) {
  const request = dataRequest(channel, key);
  const res = await t.app.http.inject({
    method: request.method,
    url: request.url,
    headers: request.headers,
    payload: request.body,
  });
  return answer(res.statusCode, res.headers, res.body);
}

describe('authentication', () => {
  it('answers a valid Bearer key', async () => {
    const res = await t.get('/v1/me');
    expect(res.status).toBe(200);
    expect(res.json.account_id).toBe(t.accounts.premium);
  });

  it('accepts the key in X-API-Key as a fallback', async () => {
    const res = await t.get('/v1/me', { key: null, headers: { 'x-api-key': t.keys.premium } });
    expect(res.status).toBe(200);
    expect(res.json.plan_code).toBe('premium');
  });

  it('refuses a request without a key with 401 invalid-auth and WWW-Authenticate', async () => {
    const res = await t.get('/v1/indicators', { key: null });
    expectProblem(res, 401, 'invalid-auth');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a wrong key, a malformed key and a non-Bearer scheme', async () => {
    const wrong = `sk_live_${'A'.repeat(40)}`;
    expectProblem(await t.get('/v1/me', { key: wrong }), 401, 'invalid-auth');
    expectProblem(await t.get('/v1/me', { key: 'sk_live_short' }), 401, 'invalid-auth');
    expectProblem(
      await t.get('/v1/me', { key: null, headers: { authorization: `Basic ${t.keys.premium}` } }),
      401,
      'invalid-auth',
    );
  });

  it('says what is missing when the key is sent without "Bearer", on every channel', async () => {
    const headers = { authorization: t.keys.premium };
    for (const [path, method] of [
      ['/v1/me', 'GET'],
      ['/mcp', 'POST'],
      ['/a2a', 'POST'],
    ] as const) {
      const res = await t.app.http.inject({
        method,
        url: path,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: method === 'POST' ? '{}' : undefined,
      });
      expect(res.statusCode, path).toBe(401);
      const detail = JSON.stringify(res.json());
      expect(detail, path).toMatch(/without its scheme/);
      expect(detail, path).not.toMatch(/wrong, expired or revoked/);
      expect(detail, path).not.toContain(t.keys.premium);
    }
    const other = await t.get('/v1/me', { key: null, headers: { authorization: `Token ${t.keys.premium}` } });
    expectProblem(other, 401, 'invalid-auth');
    expect(other.json.detail).toMatch(/does not use the "Bearer" scheme/);
    expect(other.body).not.toContain(t.keys.premium);
    const empty = await t.get('/v1/me', { key: null, headers: { authorization: 'Bearer' } });
    expect(empty.json.detail).toMatch(/no key follows/);
  });

  it('refuses a key that differs from a real one in its last character', async () => {
    const last = t.keys.premium.at(-1) === 'a' ? 'b' : 'a';
    expectProblem(await t.get('/v1/me', { key: t.keys.premium.slice(0, -1) + last }), 401, 'invalid-auth');
  });

  it('refuses a revoked key at the very next request, on every channel, though its grant was just cached', async () => {
    const created = await createKey(t.store, { accountId: t.accounts.premium }, new Date(t.clock.now));
    for (const channel of CHANNELS)
      expect(isAdmitted(channel, await send(channel, created.secret)), channel).toBe(true);
    await revokeKey(t.store, created.key.id, new Date(t.clock.now));
    for (const channel of CHANNELS) expect((await send(channel, created.secret)).status, channel).toBe(401);
    expectProblem(await t.get('/v1/me', { key: created.secret }), 401, 'invalid-auth');
    // The other keys' cached grants are read again, and still answer.
    expect((await t.get('/v1/me')).status).toBe(200);
  });

  it('refuses an expired key', async () => {
    const today = new Date(t.clock.now).toISOString().slice(0, 10);
    const created = await createKey(t.store, { accountId: t.accounts.premium, expires: today }, new Date(t.clock.now));
    expect((await t.get('/v1/me', { key: created.secret })).status).toBe(200);
    t.clock.advance(2 * 86_400_000);
    const res = await t.get('/v1/me', { key: created.secret });
    expectProblem(res, 401, 'invalid-auth');
    expect(res.json.detail).toMatch(/expired/);
  });

  it('stores only a hash of the secret', async () => {
    const created = await createKey(t.store, { accountId: t.accounts.premium }, new Date(t.clock.now));
    const keys = await t.store.listApiKeys(t.accounts.premium);
    const record = keys.find((k) => k.id === created.key.id);
    expect(record?.hash).toBe(hashSecret(created.secret));
    expect(JSON.stringify(keys)).not.toContain(created.secret);
    expect(created.secret).toMatch(/^sk_live_[A-Za-z0-9]{46}$/);
  });
});

describe('access policy', () => {
  it('refuses a browser request (Origin header) with 403 even with a valid key', async () => {
    const res = await t.get('/v1/me', { headers: { origin: 'https://evil.example' } });
    expectProblem(res, 403, 'origin-not-allowed');
  });

  it('lets a free plan read /v1/me but refuses data with 403 api-access-required', async () => {
    const me = await t.get('/v1/me', { key: t.keys.free });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ plan_code: 'free', domains: [] });
    const res = await t.get('/v1/indicators', { key: t.keys.free });
    expectProblem(res, 403, 'api-access-required');
    expect(res.json.upgrade_url).toBe(`${BASE_URL}/docs#plans`);
  });

  it('refuses a domain the plan lacks with 403 domain-not-in-plan', async () => {
    const res = await t.get('/v1/municipalities', { key: t.keys.noIndicatorsDomain });
    expectProblem(res, 403, 'domain-not-in-plan');
    expect(res.json.feature_key).toBe('indicators');
  });

  it('refuses a key without the scope with 403 insufficient-scope, while me still answers', async () => {
    expectProblem(
      await t.get('/v1/indicators/population', { key: t.keys.signalsOnlyScope }),
      403,
      'insufficient-scope',
    );
    const me = await t.get('/v1/me', { key: t.keys.signalsOnlyScope });
    expect(me.json.scopes).toEqual(['signals:read']);
  });

  it('refuses a beta-gated operation to accounts outside the beta group', async () => {
    await t.store.setBetaGate('indicators_stats', true);
    t.clock.advance(1_500); // reference data is re-read at most once a second
    try {
      expectProblem(await t.get('/v1/indicators/population/stats'), 403, 'beta-access-required');
      expect((await t.get('/v1/indicators/population/stats', { key: t.keys.beta })).status).toBe(200);
      expect((await t.get('/v1/indicators/population')).status).toBe(200);
    } finally {
      await t.store.setBetaGate('indicators_stats', false);
      t.clock.advance(1_500);
    }
    expect((await t.get('/v1/indicators/population/stats')).status).toBe(200);
  });

  it('reports plan, scopes, domains, limits and usage in /v1/me', async () => {
    const res = await t.get('/v1/me', { key: t.keys.indicatorsOnly });
    expect(res.json).toMatchObject({
      plan_code: 'premium_indicators',
      beta: false,
      domains: ['indicators'],
      raw_values: false,
      // A key made without --scopes holds them all; the plan decides which domains they reach.
      scopes: ['indicators:read', 'signals:read', 'procurement:read', 'alerts:read', 'bulk:read'],
      limits: { requests_per_minute: 300, requests_per_month: 50000, history_years: 10, alerts_history_days: null },
    });
    const now = new Date(t.clock.now);
    expect(res.json.usage.period_start).toBe(`${now.toISOString().slice(0, 7)}-01`);
    expect(res.json.usage.period_end.slice(0, 7)).toBe(now.toISOString().slice(0, 7));
  });
});
