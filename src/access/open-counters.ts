/**
 * Opens the counters the configuration names: on Redis when `REDIS_URL` is set (keys under `REDIS_PREFIX`), else in
 * this process.
 */
import type { UsageStore } from '../store/store.js';
import type { Counters } from './counters.js';
import { MemoryCounters } from './memory-counters.js';
import { type CountersLog, RedisCounters } from './redis-counters.js';

/** Where the counters are, as the configuration says (src/config.ts). */
export interface CountersLocation {
  readonly redisUrl?: string;
  readonly redisPrefix?: string;
}

export async function openCounters(config: CountersLocation, store: UsageStore, log?: CountersLog): Promise<Counters> {
  if (config.redisUrl === undefined) return new MemoryCounters(store);
  return RedisCounters.open({
    url: config.redisUrl,
    store,
    ...(config.redisPrefix && { prefix: config.redisPrefix }),
    ...(log && { log }),
  });
}
