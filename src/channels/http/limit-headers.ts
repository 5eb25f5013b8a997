/**
 * Limit headers (IETF draft-ietf-httpapi-ratelimit-headers): one policy for the per-minute limit and one for
 * the monthly quota, each with what remains and when it resets (docs/api.md, Limits and quota).
 */
import type { LimitState } from '../../lib/limit-state.js';

const MONTH_SECONDS = 30 * 24 * 3600;

/**
 * Policies depend only on a plan's two limits: built once per pair, not on every answer, and found by the two
 * numbers (per-minute limit, then monthly; undefined when there is none) without building a key.
 */
const policies = new Map<number | undefined, Map<number | undefined, string>>();

/** Appends the limit headers to a flat `[name, value, …]` list (the REST hot path writes headers so). */
export function rateLimitHeaderList(
  minute: LimitState | undefined,
  month: LimitState | undefined,
  list: string[],
): void {
  if (!minute && !month) return;
  let byMonth = policies.get(minute?.limit);
  if (byMonth === undefined) {
    byMonth = new Map();
    policies.set(minute?.limit, byMonth);
  }
  let policy = byMonth.get(month?.limit);
  if (policy === undefined) {
    const parts: string[] = [];
    if (minute) parts.push(`"minute";q=${minute.limit};w=60`);
    if (month) parts.push(`"month";q=${month.limit};w=${MONTH_SECONDS}`);
    policy = parts.join(', ');
    byMonth.set(month?.limit, policy);
  }
  const minuteState = minute ? `"minute";r=${minute.remaining};t=${minute.resetSeconds}` : '';
  const monthState = month ? `"month";r=${month.remaining};t=${month.resetSeconds}` : '';
  list.push(
    'ratelimit-policy',
    policy,
    'ratelimit',
    minuteState && monthState ? `${minuteState}, ${monthState}` : minuteState || monthState,
  );
}

/** The same headers as an object, for replies built through Fastify (problems, A2A, MCP). */
export function rateLimitHeaders(
  minute: LimitState | undefined,
  month: LimitState | undefined,
): Record<string, string> {
  const list: string[] = [];
  rateLimitHeaderList(minute, month, list);
  const headers: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]] = list[i + 1];
  return headers;
}
