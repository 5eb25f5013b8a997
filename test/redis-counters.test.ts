/**
 * The Redis counters against a real Redis (REDIS_URL, else 127.0.0.1:6379), under a key prefix of this run:
 * the same decisions as the in-process counters, exact limits across two instances (two connections, as two
 * processes would have), a month rebuilt from the store when Redis loses it, leases that free what a dead
 * instance never settled, and fast failures when Redis cannot be reached.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Counters } from '../src/access/counters.js';
import { MemoryCounters } from '../src/access/memory-counters.js';
import { RedisCounters, type RedisCountersOptions } from '../src/access/redis-counters.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DependencyUnavailableError } from '../src/lib/dependency.js';
import type { Store } from '../src/store/store.js';
import { deleteKeys, freePort, REDIS_URL, sleep, uniquePrefix } from './helpers/redis.js';
import { BASE_URL, copyDemoStore } from './helpers/test-app.js';

const PREFIX = uniquePrefix('counters');
const PERIOD = '2026-03';
const T0 = Date.parse('2026-03-10T12:00:00Z');

let store: Store;
let raw: Redis;
const opened: Counters[] = [];

beforeAll(() => {
  store = copyDemoStore().store;
  raw = new Redis(REDIS_URL);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await deleteKeys(PREFIX);
  raw.disconnect();
  await store.close();
});

/** Counters on the shared Redis under `PREFIX + space`: two calls with the same space are two instances. */
async function instance(space: string, options: Partial<RedisCountersOptions> = {}): Promise<RedisCounters> {
  const counters = await RedisCounters.open({ url: REDIS_URL, store, prefix: `${PREFIX}${space}:`, ...options });
  opened.push(counters);
  return counters;
}

let accounts = 0;
async function account(): Promise<number> {
  return (
    await store.createAccount({
      name: `counters ${++accounts}`,
      plan_code: 'premium',
      beta: false,
      now: new Date(T0).toISOString(),
    })
  ).id;
}

/** Deletes a space's keys: Redis lost them (a restart without persistence, a flush, a failover to an empty replica). */
async function loseRedis(space: string): Promise<void> {
  await deleteKeys(`${PREFIX}${space}:`);
}

describe('the Counters contract, side by side with the in-process counters', () => {
  it('rate limit: the same decisions and figures, with a limit whose interval is not a whole number', async () => {
    const redis = await instance('rate-same');
    const memory = new MemoryCounters(store);
    opened.push(memory);
    // Steps in ms between requests: a burst past the limit, waits shorter and longer than Retry-After, a quiet minute.
    const steps = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1_500, 0, 8_000, 0, 0, 30_000, 0, 0, 0, 61_000, 0, 0, 0, 0, 0, 0, 0, 0];
    let now = T0;
    const allowed: boolean[] = [];
    for (const step of steps) {
      now += step;
      const fromRedis = await redis.hitRate('acct:1', 7, now);
      expect(fromRedis).toEqual(await memory.hitRate('acct:1', 7, now));
      allowed.push(fromRedis.allowed);
    }
    // 7 of a burst of 9; one more per interval (8.57 s) after that; 7 again after a quiet minute.
    expect(allowed.map(Number).join('')).toBe('111111100001001110111111100');
  });

  const hugeRateLimit =
    'rate limit: a limit so large that its interval is below the clock resolution (1e9 a minute) admits, never fails';
  it(hugeRateLimit, async () => {
    // 60 000 / 1e9 ms is lost when added to a timestamp of 1.8e12 ms: the key's expiry must still be at least 1 ms.
    const redis = await instance('rate-huge');
    const memory = new MemoryCounters(store);
    opened.push(memory);
    for (let i = 0; i < 3; i++)
      expect(await redis.hitRate('acct:3', 1e9, T0)).toEqual(await memory.hitRate('acct:3', 1e9, T0));
    expect((await redis.hitRate('acct:3', 1e9, T0)).allowed).toBe(true);
  });

  it('rate limit: Retry-After is honest — refused just before it, admitted at it', async () => {
    const redis = await instance('rate-retry');
    for (let i = 0; i < 3; i++) expect((await redis.hitRate('acct:2', 3, T0)).allowed).toBe(true);
    const refused = await redis.hitRate('acct:2', 3, T0);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
    expect(refused.retryAfterSeconds).toBe(20);
    expect((await redis.hitRate('acct:2', 3, T0 + 19_999)).allowed).toBe(false);
    expect(await redis.hitRate('acct:2', 3, T0 + 20_000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('quota: the same grants and counts for reserve, commit, refund and usage; charges reach the store', async () => {
    const redis = await instance('quota-same');
    const memory = new MemoryCounters(store);
    opened.push(memory);
    const [a, b] = [await account(), await account()];
    const script: [string, number, number | null][] = [
      ['reserve', a, 3],
      ['reserve', a, 3],
      ['reserve', a, 3],
      ['reserve', a, 3], // refused: three in flight
      ['commit', a, null],
      ['refund', a, null],
      ['reserve', a, 3], // granted again: one charged, one in flight
      ['reserve', a, 3], // refused
      ['commit', a, null],
      ['commit', a, null],
      ['reserve', b, null], // no limit
      ['commit', b, null],
    ];
    for (const [op, id, limit] of script) {
      const results = await Promise.all(
        [redis, memory].map(async (c) => {
          if (op === 'reserve') return c.reserveQuota(id, PERIOD, limit);
          if (op === 'commit') await c.commitQuota(id, PERIOD);
          else await c.refundQuota(id, PERIOD);
          return [await c.usage(a, PERIOD), await c.usage(b, PERIOD)];
        }),
      );
      expect(results[0], `${op} ${id}`).toEqual(results[1]);
    }
    expect(await redis.usage(a, PERIOD)).toBe(3);
    expect(await redis.reserveQuota(a, PERIOD, 3)).toEqual({ granted: false, used: 3 });
    // Both counters charged the same requests: 2 × (3 + 1) once written.
    await redis.flush();
    await memory.flush();
    expect(await store.getUsage(a, PERIOD)).toBe(6);
    expect(await store.getUsage(b, PERIOD)).toBe(2);
  });

  it('answers a ping', async () => {
    await expect((await instance('ping')).ping()).resolves.toBeUndefined();
  });
});

describe('many instances, one limit', () => {
  it('two instances reserving concurrently never grant one request more than the quota', async () => {
    const [one, two] = [await instance('race'), await instance('race')];
    const id = await account();
    await one.reserveQuota(id, PERIOD, null).then(() => one.commitQuota(id, PERIOD)); // 1 charged already
    const attempts = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? one : two));
    const results = await Promise.all(attempts.map((c) => c.reserveQuota(id, PERIOD, 101)));
    expect(results.filter((r) => r.granted)).toHaveLength(100);
    expect(Math.max(...results.map((r) => r.used))).toBe(101);
    // Settle every grant on the instance that got it: half commit, half refund.
    let n = 0;
    await Promise.all(
      results.map((r, i) =>
        r.granted ? (n++ % 2 === 0 ? attempts[i].commitQuota(id, PERIOD) : attempts[i].refundQuota(id, PERIOD)) : null,
      ),
    );
    expect(await one.usage(id, PERIOD)).toBe(51);
    expect(await two.usage(id, PERIOD)).toBe(51);
    // The refunded 50 are free again, and no more.
    const again = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? one : two).reserveQuota(id, PERIOD, 101)),
    );
    expect(again.filter((r) => r.granted)).toHaveLength(50);
    await Promise.all([one.flush(), two.flush()]);
    expect(await store.getUsage(id, PERIOD)).toBe(51);
  });

  it('two instances share one per-minute limit under concurrent requests', async () => {
    const [one, two] = [await instance('rate-race'), await instance('rate-race')];
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 ? one : two).hitRate('acct:9', 30, T0)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds >= 1)).toBe(true);
    expect((await one.hitRate('acct:9', 30, T0 + 2_000)).allowed).toBe(true); // one interval later
  });
});

describe('durability and leases', () => {
  it('rebuilds a month Redis lost from the store and the charges not yet written — never from zero', async () => {
    const counters = await instance('lost');
    const id = await account();
    const charge = async () => {
      expect((await counters.reserveQuota(id, PERIOD, 10)).granted).toBe(true);
      await counters.commitQuota(id, PERIOD);
    };
    for (let i = 0; i < 5; i++) await charge();
    await counters.flush();
    for (let i = 0; i < 2; i++) await charge(); // charged, not yet written
    expect(await store.getUsage(id, PERIOD)).toBe(5);

    await loseRedis('lost');
    expect(await counters.usage(id, PERIOD)).toBe(7);
    await charge();
    await charge();
    await charge();
    expect(await counters.reserveQuota(id, PERIOD, 10)).toEqual({ granted: false, used: 10 });

    // Lost between a reservation and its commit: the charge still counts, in the store and in the rebuilt month.
    const other = await account();
    expect((await counters.reserveQuota(other, PERIOD, 10)).granted).toBe(true);
    await loseRedis('lost');
    await counters.commitQuota(other, PERIOD);
    expect(await counters.usage(other, PERIOD)).toBe(1);
    await counters.flush();
    expect(await store.getUsage(id, PERIOD)).toBe(10);
    expect(await store.getUsage(other, PERIOD)).toBe(1);

    // Another instance, after another loss, rebuilds from the store alone.
    await loseRedis('lost');
    const fresh = await instance('lost');
    expect(await fresh.usage(id, PERIOD)).toBe(10);
  });

  it('frees a reservation its instance never settled (it died) when the lease ends', async () => {
    const id = await account();
    const dying = await instance('lease', { leaseMs: 300 });
    expect((await dying.reserveQuota(id, PERIOD, 1)).granted).toBe(true);
    await dying.close(); // gone without committing or refunding
    const survivor = await instance('lease', { leaseMs: 300 });
    expect(await survivor.reserveQuota(id, PERIOD, 1)).toEqual({ granted: false, used: 1 });
    await sleep(400);
    expect(await survivor.reserveQuota(id, PERIOD, 1)).toEqual({ granted: true, used: 1 });
  });

  const keysExpire =
    'sets its keys to expire: the TAT when it is past, leases with the newest, the month after forty days';
  it(keysExpire, async () => {
    const counters = await instance('ttl');
    const id = await account();
    await counters.hitRate('acct:ttl', 60, Date.now());
    await counters.reserveQuota(id, PERIOD, null);
    const ttl = async (suffix: string) => raw.pttl(`${PREFIX}ttl:${suffix}`);
    expect(await ttl('rate:acct:ttl')).toBeGreaterThan(0);
    expect(await ttl('rate:acct:ttl')).toBeLessThanOrEqual(1_000);
    expect(await ttl(`{q:${id}:${PERIOD}}:held`)).toBeGreaterThan(4 * 60_000);
    expect(await ttl(`{q:${id}:${PERIOD}}:used`)).toBeGreaterThan(39 * 86_400_000);
    await counters.refundQuota(id, PERIOD);
  });
});

describe('when Redis cannot be reached', () => {
  const failsFast =
    'fails fast with DependencyUnavailableError; a commit or a refund never fails (settled once Redis answers)';
  it(failsFast, async () => {
    const counters = await RedisCounters.open({ url: `redis://127.0.0.1:${await freePort()}`, store, prefix: PREFIX });
    opened.push(counters);
    const started = Date.now();
    await expect(counters.hitRate('acct:1', 60, T0)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(counters.reserveQuota(1, PERIOD, 10)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(counters.commitQuota(1, PERIOD)).resolves.toBeUndefined();
    await expect(counters.usage(1, PERIOD)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(counters.ping()).rejects.toMatchObject({ dependency: 'counters', retryAfter: 5 });
    await expect(counters.refundQuota(1, PERIOD)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('configuration', () => {
  it('REDIS_URL selects the Redis counters; without it the app counts in process', async () => {
    const { store: own, dbPath } = copyDemoStore();
    const withRedis = await createApp({ config: loadConfig({ BASE_URL, MUNIDATA_DB: dbPath, REDIS_URL }), store: own });
    const without = await createApp({ config: loadConfig({ BASE_URL, MUNIDATA_DB: dbPath }), store: own });
    try {
      expect(withRedis.counters).toBeInstanceOf(RedisCounters);
      expect(without.counters).toBeInstanceOf(MemoryCounters);
    } finally {
      await withRedis.close();
      await without.close();
      await own.close();
    }
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380/2' }).redisUrl).toBe(
      'rediss://:secret@cache.internal:6380/2',
    );
  });

  const keysUnderPrefix =
    'REDIS_PREFIX puts every key under a prefix of its own (checked on real servers by multi-instance.test.ts)';
  it(keysUnderPrefix, () => {
    expect(loadConfig({}).redisPrefix).toBeUndefined(); // the counters' default, munidata:
    expect(loadConfig({ REDIS_PREFIX: ' staging:munidata: ' }).redisPrefix).toBe('staging:munidata:');
    expect(() => loadConfig({ REDIS_PREFIX: 'two words' })).toThrow(/REDIS_PREFIX/);
  });
});
