/**
 * TRUST_PROXY (docs/deploy.md, Behind a load balancer): with the balancer trusted, the per-address limit of
 * requests without a valid key (60 a minute, docs/api.md) counts each client by the address the balancer puts in
 * X-Forwarded-For; off (the default), X-Forwarded-For is ignored and every request counts against its peer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const BALANCER = '10.0.0.5';
const BAD_KEY = `sk_live_${'x'.repeat(40)}`;

describe('TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function badKeyFrom(app: TestApp, client: string, peer = BALANCER) {
    const res = await app.app.http.inject({
      method: 'GET',
      url: '/v1/indicators/population',
      remoteAddress: peer,
      headers: { authorization: `Bearer ${BAD_KEY}`, 'x-forwarded-for': `${client}` },
    });
    return res.statusCode;
  }

  /** 61 bad requests from `first`, then one from `second`: the statuses of the 61st and of the other's. */
  async function exhaust(app: TestApp, first: string, second: string) {
    for (let i = 0; i < 60; i++) expect(await badKeyFrom(app, first)).toBe(401);
    return { first: await badKeyFrom(app, first), second: await badKeyFrom(app, second) };
  }

  it('behind a trusted balancer, each client behind it has its own per-address limit', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    expect(await exhaust(t, '203.0.113.1', '203.0.113.2')).toEqual({ first: 429, second: 401 });
  });

  it('a hop count trusts that many proxies', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    expect(await exhaust(t, '203.0.113.1', '203.0.113.2')).toEqual({ first: 429, second: 401 });
  });

  it('off by default: X-Forwarded-For is ignored, so a client cannot pick the address it is counted by', async () => {
    t = await startTestApp();
    expect(await exhaust(t, '203.0.113.1', '203.0.113.2')).toEqual({ first: 429, second: 429 });
  });

  it('an address in X-Forwarded-For from a peer that is not trusted is ignored', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    for (let i = 0; i < 60; i++) expect(await badKeyFrom(t, `198.51.100.${i}`, '192.0.2.9')).toBe(401);
    expect(await badKeyFrom(t, '198.51.100.200', '192.0.2.9')).toBe(429);
  });
});
