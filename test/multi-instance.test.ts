/**
 * Several stateless instances, as behind a load balancer: three real server processes (`munidata serve`, the
 * compiled CLI) on one PostgreSQL database and one Redis, sent concurrent requests round-robin on REST, A2A and
 * MCP. However the requests are spread, the monthly quota admits exactly its number and refuses the rest (402,
 * in each channel's form), every instance reports the same usage, the per-minute limit admits exactly its number
 * across the three (then 429 with Retry-After), and what was charged is in the store once the instances stop.
 *
 * Runs on PostgreSQL and Redis whatever MUNIDATA_TEST_BACKEND says (the server at MUNIDATA_TEST_POSTGRES_URL or
 * 127.0.0.1:5432, Redis at REDIS_URL or 127.0.0.1:6379), on a database of its own and under a Redis key prefix
 * of its own (REDIS_PREFIX). Needs the build (dist/), as quickstart.test.ts does: `npm test` builds first.
 */
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { databaseUrl, dropDatabase, newDatabaseName } from './helpers/backend.js';
import { type Answer, CHANNELS, type Channel, dataRequest, fetchAnswer } from './helpers/channels.js';
import {
  createDemoDatabase,
  customer,
  type Instance,
  killInstances,
  requireBuild,
  startInstance,
} from './helpers/deployment.js';
import { deleteKeys, freePort, REDIS_URL, uniquePrefix } from './helpers/redis.js';

/** The balancer's address: every instance is configured with it, so their answers name the same problem types. */
const BASE_URL = 'https://api.munidata.test';
const PREFIX = uniquePrefix('multi-instance');
const INSTANCES = 3;
const QUOTA = 40;
/** Requests in flight at once against the quota: more than twice it (a multiple of instances × channels). */
const QUOTA_BURST = 90;
const PER_MINUTE = 12;
/** Requests in flight at once against the per-minute limit: three times it. */
const MINUTE_BURST = 36;

const database = newDatabaseName(); // carries the run's prefix: the global teardown drops it should this file crash
let store: PostgresStore;
const instances: Instance[] = [];

beforeAll(async () => {
  requireBuild();
  store = await createDemoDatabase(database);
  const ports = new Set<number>(); // chosen one after another, so no two instances are given the same
  while (ports.size < INSTANCES) ports.add(await freePort());
  // Configured as every instance of one deployment is.
  const deployment = { DATABASE_URL: databaseUrl(database), REDIS_PREFIX: PREFIX, BASE_URL };
  instances.push(...(await Promise.all([...ports].map((port) => startInstance(port, deployment)))));
}, 120_000);

afterAll(async () => {
  killInstances();
  await store?.close();
  await dropDatabase(database);
  await deleteKeys(PREFIX);
});

/** One charged data request (the population indicator) on a channel of an instance. */
function call(instance: Instance, channel: Channel, key: string): Promise<Answer> {
  return fetchAnswer(`http://127.0.0.1:${instance.port}`, dataRequest(channel, key));
}

/**
 * What an answer is, read from the channel's own form: a data answer, a refusal of the monthly quota (402: a
 * problem document on REST, JSON-RPC -32004 QUOTA_EXCEEDED on A2A, an isError result on MCP), a refusal of the
 * per-minute limit (HTTP 429 with Retry-After on every channel), or anything else (described, for the message).
 */
function classify(channel: Channel, res: Answer): 'admitted' | 'quota-exceeded' | 'rate-limited' | string {
  const problem = (kind: string) => `${BASE_URL}/problems/${kind}`;
  const retryAfter = Number(res.headers['retry-after']);
  if (res.status === 200) {
    if (channel === 'rest' && res.json?.key === 'population') return 'admitted';
    if (channel === 'a2a' && res.json?.result?.message?.parts?.[0]?.data?.key === 'population') return 'admitted';
    if (
      channel === 'mcp' &&
      res.json?.result?.isError === undefined &&
      res.json?.result?.structuredContent?.key === 'population'
    ) {
      return 'admitted';
    }
    const error = res.json?.error;
    if (channel === 'a2a' && error?.code === -32004 && error.data?.[0]?.reason === 'QUOTA_EXCEEDED') {
      if (error.data[1]?.type === problem('quota-exceeded') && Number(error.data[0].metadata?.retry_after) > 0)
        return 'quota-exceeded';
    }
    const result = res.json?.result;
    if (channel === 'mcp' && result?.isError === true && result.structuredContent?.type === problem('quota-exceeded')) {
      if (result.structuredContent.status === 402) return 'quota-exceeded';
    }
  }
  if (channel === 'rest' && res.status === 402 && res.json?.type === problem('quota-exceeded') && retryAfter > 0) {
    if (String(res.headers['content-type']).startsWith('application/problem+json')) return 'quota-exceeded';
  }
  if (res.status === 429 && retryAfter >= 1 && retryAfter <= 60) {
    const type =
      channel === 'rest'
        ? res.json?.type
        : channel === 'a2a'
          ? res.json?.error?.data?.[1]?.type
          : res.json?.error?.data?.type;
    const reasonOk = channel !== 'a2a' || res.json?.error?.data?.[0]?.reason === 'RATE_LIMITED';
    if (type === problem('rate-limited') && reasonOk) return 'rate-limited';
  }
  return `${channel} ${res.status} retry-after=${res.headers['retry-after']} ${res.body.slice(0, 300)}`;
}

/**
 * `rounds` × instances × channels requests, all in flight at once, sent round-robin across the instances (each
 * instance gets every channel); the outcomes counted by class.
 */
async function burst(key: string, rounds: number): Promise<Map<string, number>> {
  const requests: Promise<string>[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const channel of CHANNELS) {
      for (const instance of instances)
        requests.push(call(instance, channel, key).then((res) => classify(channel, res)));
    }
  }
  const counts = new Map<string, number>();
  for (const outcome of await Promise.all(requests)) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return counts;
}

async function me(instance: Instance, key: string) {
  const res = await fetch(`http://127.0.0.1:${instance.port}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { usage: { requests_this_month: number; requests_remaining: number | null } }).usage;
}

let quotaCustomer: { accountId: number; key: string };
let minuteCustomer: { accountId: number; key: string };

describe('three instances on one PostgreSQL and one Redis', () => {
  it('are ready: each reaches the store and the counters', async () => {
    expect(instances).toHaveLength(INSTANCES);
    for (const instance of instances) {
      const res = await fetch(`http://127.0.0.1:${instance.port}/readyz`);
      // With the pipeline's detail (docs/pipeline.md): the default cycle; steps once the first has run.
      expect(await res.json()).toEqual({
        status: 'ok',
        checks: { store: 'ok', counters: 'ok' },
        pipeline: { interval_s: 60, steps: expect.any(Array) },
        // Each dependency's state and since when (docs/deploy.md, Operating): PostgreSQL, Redis, the pipeline.
        dependencies: {
          store_primary: { status: 'ok', since: expect.any(String) },
          redis: { status: 'ok', since: expect.any(String) },
          pipeline: { status: 'ok', since: expect.any(String) },
        },
      });
    }
  });

  const monthlyQuotaAcrossChannels =
    `admit exactly the monthly quota (${QUOTA}) of ${QUOTA_BURST} concurrent requests on REST, A2A and MCP, ` +
    'and refuse the rest with 402';
  it(monthlyQuotaAcrossChannels, async () => {
    quotaCustomer = await customer(store, 'multi_quota', { requests_per_minute: null, requests_per_month: QUOTA });
    const counts = await burst(quotaCustomer.key, QUOTA_BURST / (INSTANCES * CHANNELS.length));
    expect(Object.fromEntries(counts)).toEqual({ admitted: QUOTA, 'quota-exceeded': QUOTA_BURST - QUOTA });

    // Every instance reads the same month from Redis; nothing held back, nothing left to admit.
    for (const instance of instances) {
      expect(await me(instance, quotaCustomer.key)).toMatchObject({
        requests_this_month: QUOTA,
        requests_remaining: 0,
      });
    }
    for (const [i, instance] of instances.entries()) {
      expect(classify(CHANNELS[i], await call(instance, CHANNELS[i], quotaCustomer.key))).toBe('quota-exceeded');
    }

    // The month is counted in the shared Redis, under this deployment's prefix (REDIS_PREFIX).
    const redis = new Redis(REDIS_URL);
    try {
      const used = await redis.get(`${PREFIX}{q:${quotaCustomer.accountId}:${monthlyPeriod(new Date()).key}}:used`);
      expect(used, 'no count under REDIS_PREFIX: is dist/ older than src/? (npm run build)').toBe(String(QUOTA));
    } finally {
      redis.disconnect();
    }
  });

  const perMinuteLimitAcrossChannels =
    `admit exactly the per-minute limit (${PER_MINUTE}) of a burst across the three, ` +
    'then answer 429 with Retry-After';
  it(perMinuteLimitAcrossChannels, async () => {
    minuteCustomer = await customer(store, 'multi_minute', {
      requests_per_minute: PER_MINUTE,
      requests_per_month: 1_000_000,
    });
    // Sent within far less than the 60 / PER_MINUTE = 5 s after which the limit admits one more.
    const counts = await burst(minuteCustomer.key, MINUTE_BURST / (INSTANCES * CHANNELS.length));
    expect(Object.fromEntries(counts)).toEqual({ admitted: PER_MINUTE, 'rate-limited': MINUTE_BURST - PER_MINUTE });
  });

  it('write what they charged to the store when they stop (SIGTERM)', async () => {
    await Promise.all(
      instances.map(async ({ child, output }) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const [code] = await exited;
        expect(code, output.stderr).toBe(0);
      }),
    );
    const period = monthlyPeriod(new Date()).key;
    expect(await store.getUsage(quotaCustomer.accountId, period)).toBe(QUOTA);
    expect(await store.getUsage(minuteCustomer.accountId, period)).toBe(PER_MINUTE);
  });
});
