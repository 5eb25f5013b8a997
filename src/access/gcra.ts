/**
 * GCRA (generic cell rate algorithm): a sliding one-minute window without buckets to reset. Each key keeps one
 * "theoretical arrival time" (TAT); a request moves it one interval (a minute / the limit) ahead and is admitted
 * while the TAT stays within one window of now. Both counters take the decision with these numbers: the
 * in-process ones here, the Redis ones in a script that applies the same test to the same doubles and returns
 * the TAT it saw, from which `gcra` gives the figures.
 */
import type { RateDecision } from './counters.js';

export const WINDOW_MS = 60_000;

export function gcraInterval(perMinute: number): number {
  return WINDOW_MS / perMinute;
}

/**
 * The decision for a request at `nowMs` on a key whose TAT is `tat` (at least `nowMs`: a TAT in the past is
 * now), and the TAT to keep when it is admitted.
 */
export function gcra(tat: number, nowMs: number, perMinute: number): { decision: RateDecision; next: number } {
  const interval = gcraInterval(perMinute);
  const next = tat + interval;
  const ahead = next - nowMs;
  if (ahead > WINDOW_MS) {
    return {
      decision: {
        allowed: false,
        limit: perMinute,
        remaining: 0,
        resetSeconds: Math.ceil((tat - nowMs) / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil((ahead - WINDOW_MS) / 1000)),
      },
      next: tat,
    };
  }
  return {
    decision: {
      allowed: true,
      limit: perMinute,
      remaining: Math.floor((WINDOW_MS - ahead) / interval),
      resetSeconds: Math.ceil(ahead / 1000),
      retryAfterSeconds: 0,
    },
    next,
  };
}
