/**
 * Counters for the per-minute rate limit and the monthly quota. An interface with an in-process
 * implementation (one instance) and a Redis one (many instances sharing one limit and one quota).
 * A counter that cannot reach what it counts on throws DependencyUnavailableError (503, nothing charged).
 */

import type { LimitState } from '../lib/limit-state.js';

export interface RateDecision extends LimitState {
  readonly allowed: boolean;
  /** Seconds to wait before a refused request may be retried (0 when allowed). */
  readonly retryAfterSeconds: number;
}

export interface QuotaReservation {
  readonly granted: boolean;
  /** Committed plus reserved requests of the period, including this one when granted. */
  readonly used: number;
}

/**
 * The four counts every request makes may answer without a promise when nothing has to be waited for (the in-process
 * counters, once a period is loaded): the core's hot path then takes none. Callers await only a promise.
 */
export interface Counters {
  /** Counts one request against `key`'s per-minute limit (sliding window). */
  hitRate(key: string, perMinute: number, nowMs: number): RateDecision | Promise<RateDecision>;
  /** Reserves one request of the monthly quota; never grants more than `limit` (null: unlimited). */
  reserveQuota(accountId: number, period: string, limit: number | null): QuotaReservation | Promise<QuotaReservation>;
  /** Turns a reservation into a charged request (the answer was a success). */
  commitQuota(accountId: number, period: string): void | Promise<void>;
  /** Releases a reservation (the answer was an error or a 304). */
  refundQuota(accountId: number, period: string): void | Promise<void>;
  /** Charged requests of the period. */
  usage(accountId: number, period: string): Promise<number>;
  /** Resolves when the counters can be used (readiness); throws DependencyUnavailableError when they cannot. */
  ping(): Promise<void>;
  /** Persists what is pending. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The monthly period (`YYYY-MM`, UTC) an instant falls in, and its first and last day. */
export function monthlyPeriod(now: Date): { key: string; start: string; end: string; secondsLeft: number } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const start = new Date(Date.UTC(y, m, 1));
  const next = new Date(Date.UTC(y, m + 1, 1));
  const last = new Date(next.getTime() - 86_400_000);
  return {
    key: start.toISOString().slice(0, 7),
    start: start.toISOString().slice(0, 10),
    end: last.toISOString().slice(0, 10),
    secondsLeft: Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000)),
  };
}
