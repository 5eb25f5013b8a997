/**
 * When a failed delivery is tried again (docs/webhooks.md, Retries): the Standard Webhooks schedule — 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h after each failure, about 27.5 h in all — each delay spread by ±20 % (jitter, so that
 * the deliveries of an endpoint that came back do not all arrive at once); a `Retry-After` of a 429 or 503
 * replaces the delay (capped at the longest step). After the last step the delivery has failed.
 */
export const DEFAULT_RETRY_SCHEDULE_S: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

/** An endpoint whose deliveries have all failed for this long is disabled (docs/webhooks.md). */
export const DEFAULT_DISABLE_AFTER_S = 5 * 24 * 3_600;

/** Each delay is spread by this fraction either way. */
export const RETRY_JITTER = 0.2;

/**
 * The delay before the next attempt after `attempts` failed ones (1 after the first), in ms; null: give up.
 * `random` in [0, 1).
 */
export function retryDelayMs(
  attempts: number,
  schedule: readonly number[],
  retryAfter: string | null,
  now: Date,
  random: () => number = Math.random,
): number | null {
  const step = schedule[attempts - 1];
  if (step === undefined) return null;
  const asked = retryAfter === null ? null : retryAfterMs(retryAfter, now);
  if (asked !== null) return Math.min(asked, Math.max(...schedule) * 1_000);
  return Math.round(step * 1_000 * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; null when unreadable. */
export function retryAfterMs(value: string, now: Date): number | null {
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
