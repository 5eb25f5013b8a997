/**
 * Dependency faults, on all three channels: Redis taken away and given back (a redis-server of the test's own,
 * killed and restarted empty; or, without that binary, a cut TCP proxy to the shared one) and store reads that
 * fail as a lost database connection does. Every refusal is 503 with Retry-After in the channel's form, nothing
 * refused is charged, nothing crashes, and service resumes by itself.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import { RedisCounters } from '../src/access/redis-counters.js';
import { createKey } from '../src/admin/keys.js';
import { savePlan } from '../src/admin/plans.js';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DependencyUnavailableError } from '../src/lib/dependency.js';
import type { Store } from '../src/store/store.js';
import {
  type Answer,
  answer,
  CHANNELS,
  type Channel,
  type DataInput,
  dataRequest,
  expectUnavailable,
  isAdmitted,
  startLoad,
} from './helpers/channels.js';
import { deleteKeys, type OutageRedis, sleep, startOutageRedis, uniquePrefix } from './helpers/redis.js';
import { startTcpProxy } from './helpers/tcp-proxy.js';
import { BASE_URL, copyDemoStore } from './helpers/test-app.js';

const PREFIX = uniquePrefix('faults');

let outage: OutageRedis;
let store: Store;
let app: App;
/** Store methods that currently fail as if the database connection were lost. */
const storeDown = new Set<string>();

beforeAll(async () => {
  outage = await startOutageRedis();
  const copy = copyDemoStore();
  store = copy.store;
  // The real store, except the methods named in `storeDown`, which throw what a store throws when its server is gone.
  const faulty = new Proxy(store, {
    get(target, property) {
      if (typeof property === 'string' && storeDown.has(property)) {
        return async () => {
          throw new DependencyUnavailableError('store', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as Store;
  const counters = await RedisCounters.open({ url: outage.url, store: faulty, prefix: PREFIX });
  app = await createApp({
    config: loadConfig({ BASE_URL, MUNIDATA_DB: copy.dbPath, LOG_LEVEL: 'silent' }),
    store: faulty,
    counters,
  });
  const limits = { api_access: true, domains: ['indicators'], raw_values: true, requests_per_month: 1_000_000 };
  await savePlan(store, 'faults_metered', { ...limits, requests_per_minute: 100_000 }, 'create');
  await savePlan(store, 'faults_unmetered', { ...limits, requests_per_minute: null }, 'create');
});

afterAll(async () => {
  await app?.close();
  await store?.close();
  await outage?.close();
  if (outage?.kind === 'proxy') await deleteKeys(PREFIX);
});

async function customer(plan: 'faults_metered' | 'faults_unmetered' = 'faults_metered') {
  const now = new Date();
  const account = await store.createAccount({
    name: `faults ${plan}`,
    plan_code: plan,
    beta: false,
    now: now.toISOString(),
  });
  return { accountId: account.id, key: (await createKey(store, { accountId: account.id }, now)).secret };
}

/** One data request (an indicator's detail, or a municipality's series, which reads the store) on a channel. */
async function call(channel: Channel, key: string, input?: DataInput): Promise<Answer> {
  const { method, url, headers, body } = dataRequest(channel, key, input);
  const res = await app.http.inject({ method, url, headers, payload: body });
  return answer(res.statusCode, res.headers, res.body);
}

async function used(key: string): Promise<number> {
  const res = await app.http.inject({ url: '/v1/me', headers: { authorization: `Bearer ${key}` } });
  expect(res.statusCode, res.body).toBe(200);
  return JSON.parse(res.body).usage.requests_this_month;
}

async function charged(accountId: number): Promise<number> {
  await app.counters.flush();
  return store.getUsage(accountId, monthlyPeriod(new Date()).key);
}

/** Reservations of the month Redis still holds (what the next reservation counts as in flight). */
async function held(accountId: number, period: string): Promise<number> {
  const redis = new Redis(outage.url);
  try {
    return await redis.zcard(`${PREFIX}{q:${accountId}:${period}}:held`);
  } finally {
    redis.disconnect();
  }
}

/** Until the counters have settled in Redis what a cut left (released reservations, commits); within 3 s. */
async function untilSettled(): Promise<void> {
  const counters = app.counters as RedisCounters;
  const deadline = Date.now() + 3_000;
  while (counters.unsettled > 0 && Date.now() < deadline) await sleep(50);
  expect(counters.unsettled).toBe(0);
}

async function readiness() {
  const res = await app.http.inject({ url: '/readyz' });
  return { status: res.statusCode, json: JSON.parse(res.body), retryAfter: res.headers['retry-after'] };
}

async function untilReady(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await readiness()).status === 200) return;
    await sleep(100);
  }
  throw new Error('not ready 10 s after the dependency returned');
}

describe('health endpoints', () => {
  it('/healthz and /readyz answer without a credential, and count against nothing', async () => {
    const { key } = await customer();
    expect(await readiness()).toEqual({
      status: 200,
      // The pipeline's detail (docs/pipeline.md): the default cycle, and no step run yet on this store.
      json: {
        status: 'ok',
        checks: { store: 'ok', counters: 'ok' },
        pipeline: { interval_s: 60, steps: [] },
        // Each dependency's state and since when (docs/deploy.md, Operating); this app has no replica or REDIS_URL.
        dependencies: {
          store_primary: { status: 'ok', since: expect.any(String) },
          pipeline: { status: 'ok', since: expect.any(String) },
        },
      },
      retryAfter: undefined,
    });
    const live = await app.http.inject({ url: '/healthz' });
    expect([live.statusCode, JSON.parse(live.body)]).toEqual([200, { status: 'ok' }]);
    expect(live.headers['ratelimit-policy']).toBeUndefined();
    expect(await used(key)).toBe(0);
    const openapi = JSON.parse((await app.http.inject({ url: '/v1/openapi.json' })).body);
    expect(Object.keys(openapi.paths).filter((path) => /healthz|readyz/.test(path))).toEqual([]);
  });
});

describe('Redis stops and returns', () => {
  it('answers 503 with Retry-After on every channel, charges nothing, and resumes by itself', async () => {
    const metered = await customer();
    const unmetered = await customer('faults_unmetered');
    for (const channel of CHANNELS) expect(isAdmitted(channel, await call(channel, metered.key))).toBe(true);
    expect(await used(metered.key)).toBe(3);

    await outage.cut();
    try {
      // Met at the per-minute check, and (a plan without one) at the quota reservation: the same answer.
      for (const channel of CHANNELS) expectUnavailable(channel, await call(channel, metered.key));
      for (const channel of CHANNELS) expectUnavailable(channel, await call(channel, unmetered.key));
      const ready = await readiness();
      expect(ready).toMatchObject({
        status: 503,
        json: { status: 'unavailable', checks: { store: 'ok', counters: 'unavailable' } },
      });
      expect(Number(ready.retryAfter)).toBeGreaterThanOrEqual(1);
      expect((await app.http.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await outage.restore();
    }
    await untilReady();
    for (const channel of CHANNELS) expect(isAdmitted(channel, await call(channel, metered.key))).toBe(true);
    for (const channel of CHANNELS) expect(isAdmitted(channel, await call(channel, unmetered.key))).toBe(true);
    // A restarted Redis has lost the month: it is rebuilt from the store, not restarted from zero.
    expect(await used(metered.key)).toBe(6);
    expect(await used(unmetered.key)).toBe(3);
    expect(await charged(metered.accountId)).toBe(6);
    expect(await charged(unmetered.accountId)).toBe(3);
  });

  it('under load: every answer is a success or a 503, and exactly the successes are charged', async () => {
    const { accountId, key } = await customer();
    const load = startLoad((channel) => call(channel, key));
    const { tally } = load;

    let admittedAtRecovery: number;
    try {
      await sleep(300);
      await outage.cut();
      await sleep(1_000);
      await outage.restore();
      await untilReady();
      admittedAtRecovery = tally.admitted;
      await sleep(300);
    } finally {
      await outage.restore();
      await load.stop();
    }

    expect(tally.unexpected).toEqual([]);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.admitted).toBeGreaterThan(admittedAtRecovery); // served again after the return
    // Exact: Redis and the store hold the successful answers, no more, and no reservation is left held.
    await untilSettled();
    expect(await held(accountId, monthlyPeriod(new Date()).key)).toBe(0);
    expect(await charged(accountId)).toBe(tally.admitted);
    expect(await used(key)).toBe(tally.admitted);
  });
});

describe('Redis stalls (packets held, not refused)', () => {
  const redisAwayAnswers503 =
    "every channel answers 503 with Retry-After within the counters' command timeout, " +
    'and nothing is charged when it ends';
  it(redisAwayAnswers503, async () => {
    // The same store, with counters that reach Redis through a proxy that can hold every packet.
    const redis = new URL(outage.url);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port) });
    const counters = await RedisCounters.open({ url: `redis://127.0.0.1:${proxy.port}`, store, prefix: PREFIX });
    const stallApp = await createApp({ config: loadConfig({ BASE_URL, LOG_LEVEL: 'silent' }), store, counters });
    const send = async (channel: Channel, key: string) => {
      const { method, url, headers, body } = dataRequest(channel, key);
      const res = await stallApp.http.inject({ method, url, headers, payload: body });
      return answer(res.statusCode, res.headers, res.body);
    };
    const usedThere = async (key: string) =>
      JSON.parse((await stallApp.http.inject({ url: '/v1/me', headers: { authorization: `Bearer ${key}` } })).body);
    try {
      const { accountId, key } = await customer();
      for (const channel of CHANNELS) expect(isAdmitted(channel, await send(channel, key))).toBe(true);
      proxy.stall();
      try {
        for (const channel of CHANNELS) {
          const sent = performance.now();
          expectUnavailable(channel, await send(channel, key));
          // One command given up on (a second) before the answer; room for a shared machine.
          expect(performance.now() - sent, channel).toBeLessThan(2_500);
        }
      } finally {
        await proxy.restore();
      }
      // What the stall held reaches Redis now: the rate checks count, no reservation is charged.
      const deadline = Date.now() + 3_000;
      while (counters.unsettled > 0 && Date.now() < deadline) await sleep(50);
      expect(counters.unsettled).toBe(0);
      expect(await held(accountId, monthlyPeriod(new Date()).key)).toBe(0);
      expect((await usedThere(key)).usage.requests_this_month).toBe(3);
      await counters.flush();
      expect(await store.getUsage(accountId, monthlyPeriod(new Date()).key)).toBe(3);
    } finally {
      await stallApp.close();
      await proxy.close();
    }
  });
});

describe('the store fails', () => {
  it('a read that loses the database: 503 on every channel, the reservation refunded, then served again', async () => {
    const { accountId, key } = await customer();
    expect(isAdmitted('rest', await call('rest', key))).toBe(true);

    storeDown.add('series');
    const municipalities = { rest: '1106', a2a: '1312', mcp: '0308' };
    for (const channel of CHANNELS)
      expectUnavailable(
        channel,
        await call(channel, key, { key: 'population', municipality: municipalities[channel] }),
      );
    // Reserved before the handler ran, refunded when it failed: one charged request, nothing held.
    expect(await used(key)).toBe(1);
    const period = monthlyPeriod(new Date()).key;
    expect(await app.counters.reserveQuota(accountId, period, null)).toEqual({ granted: true, used: 2 });
    await app.counters.refundQuota(accountId, period);

    storeDown.clear();
    for (const channel of CHANNELS) {
      expect(
        isAdmitted(channel, await call(channel, key, { key: 'population', municipality: municipalities[channel] })),
      ).toBe(true);
    }
    expect(await charged(accountId)).toBe(4);
  });

  it('a credential that cannot be checked, and /readyz, say so with 503', async () => {
    const { key } = await customer(); // never used: its grant is not cached
    storeDown.add('findKeyGrant');
    try {
      for (const channel of CHANNELS) expectUnavailable(channel, await call(channel, key));
    } finally {
      storeDown.clear();
    }
    storeDown.add('dataVersion');
    try {
      expect(await readiness()).toMatchObject({
        status: 503,
        json: { checks: { store: 'unavailable', counters: 'ok' } },
      });
    } finally {
      storeDown.clear();
    }
    expect((await readiness()).status).toBe(200);
    expect(isAdmitted('mcp', await call('mcp', key))).toBe(true);
  });
});

describe('no unit of quota is lost to a failure', () => {
  const reservationReleasedOnReturn =
    'a reservation whose request fails while Redis is away is released within seconds of its return, ' +
    'not at the lease end';
  it(reservationReleasedOnReturn, async () => {
    const { accountId, key } = await customer('faults_unmetered');
    const period = monthlyPeriod(new Date()).key;
    expect(isAdmitted('rest', await call('rest', key))).toBe(true);
    expect((await app.counters.reserveQuota(accountId, period, null)).granted).toBe(true);
    await outage.cut();
    try {
      // The request failed: the core refunds, which cannot reach Redis now.
      await expect(app.counters.refundQuota(accountId, period)).resolves.toBeUndefined();
    } finally {
      await outage.restore();
    }
    await untilReady();
    await untilSettled();
    expect(await held(accountId, period)).toBe(0);
    expect(await charged(accountId)).toBe(1);
    expect(await used(key)).toBe(1);
  });

  it('a reservation whose answer succeeded is charged once, though its commit could not reach Redis', async () => {
    const { accountId, key } = await customer('faults_unmetered');
    const period = monthlyPeriod(new Date()).key;
    expect(isAdmitted('rest', await call('rest', key))).toBe(true);
    expect((await app.counters.reserveQuota(accountId, period, null)).granted).toBe(true);
    await outage.cut();
    try {
      // The answer is a success: charged now (the usage journal), settled in Redis when it returns.
      await expect(app.counters.commitQuota(accountId, period)).resolves.toBeUndefined();
    } finally {
      await outage.restore();
    }
    await untilReady();
    await untilSettled();
    expect(await held(accountId, period)).toBe(0);
    expect(await charged(accountId)).toBe(2);
    expect(await used(key)).toBe(2);
  });
});
