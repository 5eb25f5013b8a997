/**
 * Counters on Redis, shared by every instance: N instances keep one per-minute limit and one monthly quota,
 * exactly, because each check is one Lua script (atomic on the server). Keys (under `prefix`): `rate:<key>`, the
 * GCRA arrival time; `{q:<account>:<period>}:used`, the month's charges; `…:held`, reservations in flight scored
 * by their lease's end (Redis time). Rate checks run on the caller's clock, leases on Redis's.
 * A dead instance's reservation lapses with its lease; commit and refund settle this instance's oldest one.
 * Redis decides admission, the store keeps charges: a lost `used` is rebuilt from the store before admitting.
 * Unreachable before a reservation → DependencyUnavailableError (503, nothing charged); after it, settlements
 * are queued (MAX_UNSETTLED) and replayed idempotently. Why each choice: docs/deploy.md, "What Redis holds, and
 * why the limits are exact" and "When a dependency fails".
 */
import { randomBytes } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import { DependencyUnavailableError } from '../lib/dependency.js';
import type { UsageStore } from '../store/store.js';
import type { Counters, QuotaReservation, RateDecision } from './counters.js';
import { gcra, gcraInterval, WINDOW_MS } from './gcra.js';
import { UsageJournal } from './usage-journal.js';

/** How long an unsettled reservation holds its unit of quota. */
const LEASE_MS = 5 * 60_000;
/** A month's count outlives its month by a few days, then goes. */
const USED_TTL_MS = 40 * 86_400_000;
const COMMAND_TIMEOUT_MS = 1_000;
/** How often settlements left by a fault are retried, while there are any. */
const RETRY_EVERY_MS = 500;
/** Settlements kept for Redis's return; past this the oldest go (see the header). */
const MAX_UNSETTLED = 100_000;

/** Replies that mean "not now" rather than "wrong": a server loading, busy, failing over or read-only. */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY|NOREPLICAS)\b/;

// The scripts print doubles with %.17g, which reads back as the same double in JS and Lua.
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])
if tat < now then tat = now end
local ahead = tat + tonumber(ARGV[2]) - now
if ahead > tonumber(ARGV[3]) then return {0, string.format('%.17g', tat)} end
-- At least 1 ms: an interval below the resolution of the timestamps (a limit of ~1e9 a minute) leaves ahead at 0.
redis.call('SET', KEYS[1], string.format('%.17g', tat + tonumber(ARGV[2])), 'PX', math.max(1, math.ceil(ahead)))
return {1, string.format('%.17g', tat)}
`;

/** {-1, 0}: `used` is missing, rebuild it first; {0, used}: refused; {1, used including this one}: granted. */
const RESERVE_SCRIPT = `
local committed = redis.call('GET', KEYS[1])
if not committed then return {-1, 0} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local used = tonumber(committed) + redis.call('ZCARD', KEYS[2])
local limit = tonumber(ARGV[1])
if limit >= 0 and used >= limit then return {0, used} end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {1, used + 1}
`;

/**
 * Settles a reservation as charged, once: only when it is still held (a replay after a lost reply, or a
 * reservation already dropped, counts nothing). A missing `used` is left missing (its rebuild includes this charge).
 */
const COMMIT_SCRIPT = `
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCR', KEYS[1]) end
return 1
`;

interface Scripts {
  munidataGcra(key: string, nowMs: number, intervalMs: number, windowMs: number): Promise<[number, string]>;
  munidataReserve(
    usedKey: string,
    heldKey: string,
    limit: number,
    leaseMs: number,
    id: string,
  ): Promise<[number, number]>;
  munidataCommit(usedKey: string, heldKey: string, id: string): Promise<number>;
}

/** Where connection changes are reported (Fastify's logger fits). */
export interface CountersLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RedisCountersOptions {
  /** `redis://…` or `rediss://…` */
  readonly url: string;
  /** Where charges are persisted and whence a lost month is rebuilt. */
  readonly store: UsageStore;
  /** Prefix of every key; distinct prefixes keep deployments (or test runs) apart on one Redis. */
  readonly prefix?: string;
  readonly leaseMs?: number;
  readonly log?: CountersLog;
}

/** A settlement Redis has not confirmed: a commit, or a release of a reservation. */
interface Unsettled {
  readonly kind: 'commit' | 'release';
  readonly month: Month;
  readonly id: string;
}

interface Month {
  readonly id: string;
  readonly accountId: number;
  readonly period: string;
  readonly usedKey: string;
  readonly heldKey: string;
}

export class RedisCounters implements Counters {
  readonly #redis: Redis & Scripts;
  readonly #store: UsageStore;
  readonly #journal: UsageJournal;
  readonly #prefix: string;
  readonly #leaseMs: number;
  /** This instance's part of every reservation id. */
  readonly #instance = randomBytes(6).toString('hex');
  #sequence = 0;
  /** This instance's open reservations (granted, not yet committed or refunded): their ids per month, oldest first. */
  readonly #openReservations = new Map<string, string[]>();
  readonly #rebuilding = new Map<string, Promise<void>>();
  #reachable: boolean | undefined;
  /** Settlements a fault left for later, oldest first. */
  #unsettled: Unsettled[] = [];
  #retrying: Promise<void> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  readonly #log: CountersLog | undefined;

  /** Connects (waiting up to two seconds) and returns the counters; unreachable, they answer 503 until Redis is. */
  static async open(options: RedisCountersOptions): Promise<RedisCounters> {
    const counters = new RedisCounters(options);
    await counters.connected(2_000);
    return counters;
  }

  constructor(options: RedisCountersOptions) {
    this.#store = options.store;
    this.#journal = new UsageJournal(options.store);
    this.#prefix = options.prefix ?? 'munidata:';
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#log = options.log;
    const redis = new Redis(options.url, {
      enableOfflineQueue: false, // while disconnected a command fails at once: the request gets 503, it does not wait
      maxRetriesPerRequest: 0, // a command caught by a dropped connection fails instead of being replayed
      commandTimeout: COMMAND_TIMEOUT_MS, // a Redis that hangs fails the request within a second
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2_000), // reconnect for ever, at most every 2 s
    });
    redis.defineCommand('munidataGcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });
    redis.defineCommand('munidataReserve', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
    redis.defineCommand('munidataCommit', { numberOfKeys: 2, lua: COMMIT_SCRIPT });
    // Without a listener ioredis prints every failed reconnection; report changes of state once instead.
    redis.on('error', (error: Error) => {
      if (this.#reachable !== false)
        options.log?.warn({ err: error }, 'counters: Redis unreachable; answering 503 until it returns');
      this.#reachable = false;
    });
    redis.on('ready', () => {
      if (this.#reachable === false) options.log?.info({}, 'counters: Redis reachable again');
      this.#reachable = true;
      void this.#retryUnsettled();
    });
    this.#redis = redis as Redis & Scripts;
  }

  /** Resolves true once connected, false after the first connection error or `timeoutMs`. */
  connected(timeoutMs: number): Promise<boolean> {
    const redis = this.#redis;
    if (redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', onError);
        resolve(ok);
      };
      const onReady = () => done(true);
      const onError = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      redis.on('ready', onReady);
      redis.on('error', onError);
    });
  }

  async hitRate(key: string, perMinute: number, nowMs: number): Promise<RateDecision> {
    const [, tat] = await this.#command(() =>
      this.#redis.munidataGcra(`${this.#prefix}rate:${key}`, nowMs, gcraInterval(perMinute), WINDOW_MS),
    );
    return gcra(Number(tat), nowMs, perMinute).decision;
  }

  async reserveQuota(accountId: number, period: string, limit: number | null): Promise<QuotaReservation> {
    const month = this.#month(accountId, period);
    const id = `${this.#instance}:${(this.#sequence++).toString(36)}`;
    const tryReserve = () =>
      this.#command(() => this.#redis.munidataReserve(month.usedKey, month.heldKey, limit ?? -1, this.#leaseMs, id));
    let status: number;
    let used: number;
    try {
      [status, used] = await tryReserve();
      if (status === -1) {
        await this.#rebuild(month);
        [status, used] = await tryReserve();
        if (status === -1)
          throw new DependencyUnavailableError('counters', { cause: new Error('the month count vanished twice') });
      }
    } catch (error) {
      // Redis may have applied the reservation before the reply was lost: release it when Redis answers again.
      if (error instanceof DependencyUnavailableError) this.#retryLater({ kind: 'release', month, id });
      throw error;
    }
    if (status === 0) return { granted: false, used };
    const ids = this.#openReservations.get(month.id);
    if (ids) ids.push(id);
    else this.#openReservations.set(month.id, [id]);
    return { granted: true, used };
  }

  async commitQuota(accountId: number, period: string): Promise<void> {
    const month = this.#month(accountId, period);
    const id = this.#takeOldestReservation(month);
    // Charged whatever Redis says now: the reservation was granted and the answer succeeded.
    this.#journal.add(accountId, period);
    try {
      await this.#redis.munidataCommit(month.usedKey, month.heldKey, id);
    } catch (error) {
      if (unavailable(error) === error) throw error; // an error Redis replied to a valid connection: a bug
      this.#retryLater({ kind: 'commit', month, id });
    }
  }

  async refundQuota(accountId: number, period: string): Promise<void> {
    const month = this.#month(accountId, period);
    const id = this.#takeOldestReservation(month);
    // Not reaching Redis here costs the caller nothing; the unit comes back once Redis answers again.
    await this.#redis.zrem(month.heldKey, id).catch(() => this.#retryLater({ kind: 'release', month, id }));
  }

  /** Settlements left by a fault, not yet confirmed by Redis. */
  get unsettled(): number {
    return this.#unsettled.length;
  }

  /** Retries the settlements a fault left, in order, until one fails; concurrent calls share one pass. */
  #retryUnsettled(): Promise<void> {
    this.#retrying ??= this.#retryPass().finally(() => {
      this.#retrying = undefined;
    });
    return this.#retrying;
  }

  async #retryPass(): Promise<void> {
    while (this.#unsettled.length > 0) {
      const next = this.#unsettled[0] as Unsettled;
      const { month, id } = next;
      try {
        if (next.kind === 'commit') await this.#redis.munidataCommit(month.usedKey, month.heldKey, id);
        else await this.#redis.zrem(month.heldKey, id);
      } catch (error) {
        // Still unreachable: the timer or the reconnection tries again. (A script error would never pass: dropped.)
        if (unavailable(error) !== error) return;
      }
      this.#unsettled.shift();
    }
    clearInterval(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  /** Keeps a settlement for when Redis answers again; bounded, the oldest dropped past MAX_UNSETTLED. */
  #retryLater(settlement: Unsettled): void {
    this.#unsettled.push(settlement);
    if (this.#unsettled.length > MAX_UNSETTLED) {
      this.#unsettled.splice(0, this.#unsettled.length - MAX_UNSETTLED);
      this.#log?.warn(
        { kept: MAX_UNSETTLED },
        'counters: too many settlements waiting for Redis; the oldest were dropped',
      );
    }
    if (!this.#retryTimer) {
      this.#retryTimer = setInterval(() => void this.#retryUnsettled(), RETRY_EVERY_MS);
      this.#retryTimer.unref();
    }
  }

  async usage(accountId: number, period: string): Promise<number> {
    const month = this.#month(accountId, period);
    let used = await this.#command(() => this.#redis.get(month.usedKey));
    if (used === null) {
      await this.#rebuild(month);
      used = await this.#command(() => this.#redis.get(month.usedKey));
    }
    return Number(used ?? 0);
  }

  async ping(): Promise<void> {
    await this.#command(() => this.#redis.ping());
  }

  flush(): Promise<void> {
    return this.#journal.flush();
  }

  async close(): Promise<void> {
    clearInterval(this.#retryTimer);
    await this.#retryUnsettled().catch(() => {});
    try {
      await this.#journal.close();
    } finally {
      await this.#redis.quit().catch(() => this.#redis.disconnect());
    }
  }

  #month(accountId: number, period: string): Month {
    const id = `${accountId}:${period}`;
    const base = `${this.#prefix}{q:${id}}`;
    return { id, accountId, period, usedKey: `${base}:used`, heldKey: `${base}:held` };
  }

  /** Takes this instance's oldest unsettled reservation of the month. */
  #takeOldestReservation(month: Month): string {
    const ids = this.#openReservations.get(month.id);
    const id = ids?.shift() ?? '';
    if (ids?.length === 0) this.#openReservations.delete(month.id);
    return id;
  }

  /**
   * Sets a missing month count from the store. Runs between journal batches, so the store's usage plus this
   * instance's pending charges is all it has charged; concurrent callers share one rebuild.
   */
  #rebuild(month: Month): Promise<void> {
    let running = this.#rebuilding.get(month.id);
    if (!running) {
      running = this.#journal
        .exclusive(async () => {
          const persisted = await this.#store.getUsage(month.accountId, month.period);
          const count = persisted + this.#journal.pending(month.accountId, month.period);
          await this.#command(() => this.#redis.set(month.usedKey, count, 'PX', USED_TTL_MS, 'NX'));
        })
        .finally(() => this.#rebuilding.delete(month.id));
      this.#rebuilding.set(month.id, running);
    }
    return running;
  }

  async #command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw unavailable(error);
    }
  }
}

/** A failure to reach Redis as DependencyUnavailableError; an error Redis replied to a valid connection is a bug. */
function unavailable(error: unknown): unknown {
  if (error instanceof ReplyError && !TRANSIENT_REPLY.test((error as Error).message)) return error;
  return new DependencyUnavailableError('counters', { cause: error });
}
