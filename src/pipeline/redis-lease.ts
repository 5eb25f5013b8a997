/**
 * Leases in Redis, when the deployment has one (`REDIS_URL`): a key per step holding its holder's id, with Redis's
 * own expiry (`SET … NX PX`), so that no instance's clock is compared with another's. Renewing and releasing check
 * the holder in one script, so that a lease taken over since is never extended or deleted by its former holder.
 */
import type { Redis } from 'ioredis';
import type { Lease } from './lease.js';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/** `prefix` keeps deployments sharing one Redis apart (`REDIS_PREFIX`, as the counters' keys). */
export function redisLease(redis: Redis, prefix: string): Lease {
  const key = (step: string) => `${prefix}pipeline:lease:${step}`;
  return {
    kind: 'redis',
    async acquire(step, holder, ttlMs) {
      if ((await redis.set(key(step), holder, 'PX', ttlMs, 'NX')) === 'OK') return true;
      return (await redis.eval(RENEW, 1, key(step), holder, String(ttlMs))) === 1;
    },
    async renew(step, holder, ttlMs) {
      return (await redis.eval(RENEW, 1, key(step), holder, String(ttlMs))) === 1;
    },
    async release(step, holder) {
      await redis.eval(RELEASE, 1, key(step), holder);
    },
  };
}
