/**
 * The pipeline's leases in Redis (docs/pipeline.md, "Several instances"), when the deployment has one: of holders
 * asking at once exactly one gets a step; a lease not renewed runs out by Redis's own expiry and is taken over; a
 * former holder can neither renew nor release the lease taken over since. Redis at REDIS_URL or 127.0.0.1:6379.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisLease } from '../src/pipeline/redis-lease.js';
import { deleteKeys, REDIS_URL, sleep, uniquePrefix } from './helpers/redis.js';

const PREFIX = uniquePrefix('pipeline-lease');
const redis = new Redis(REDIS_URL);
const lease = redisLease(redis, PREFIX);

afterAll(async () => {
  await deleteKeys(PREFIX);
  redis.disconnect();
});

describe('a lease in Redis', () => {
  it('goes to exactly one of the holders asking at once', async () => {
    const holders = Array.from({ length: 8 }, (_, i) => `instance-${i}`);
    const taken = await Promise.all(holders.map((holder) => lease.acquire('detect', holder, 5_000)));
    expect(taken.filter(Boolean)).toHaveLength(1);
    const winner = holders[taken.indexOf(true)];
    expect(await lease.acquire('detect', winner, 5_000)).toBe(true); // its own, renewed
    await lease.release('detect', winner);
    expect(await lease.acquire('detect', 'instance-x', 5_000)).toBe(true);
  });

  it('runs out when not renewed, and the former holder cannot renew or release it once taken over', async () => {
    expect(await lease.acquire('match', 'dead-instance', 300)).toBe(true);
    expect(await lease.acquire('match', 'survivor', 300)).toBe(false);
    await sleep(400);
    expect(await lease.acquire('match', 'survivor', 5_000)).toBe(true);
    expect(await lease.renew('match', 'dead-instance', 5_000)).toBe(false);
    await lease.release('match', 'dead-instance');
    expect(await lease.acquire('match', 'other', 5_000)).toBe(false);
    expect(await lease.renew('match', 'survivor', 5_000)).toBe(true);
  });
});
