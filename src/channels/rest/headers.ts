/**
 * Limit headers (IETF draft-ietf-httpapi-ratelimit-headers): one policy for the per-minute limit and one for
 * the monthly quota, each with what remains and when it resets.
 */
import type { Admission } from '../../core/execute.js';

const MONTH_SECONDS = 30 * 24 * 3600;

/** Policies depend only on a plan's two limits: built once per pair, not on every answer. */
const policies = new Map<string, string>();

export function rateLimitHeaders(admission: Admission | undefined): Record<string, string> {
  if (!admission || (!admission.minute && !admission.month)) return {};
  const { minute, month } = admission;
  const policyKey = `${minute?.limit}|${month?.limit}`;
  let policy = policies.get(policyKey);
  if (policy === undefined) {
    const parts: string[] = [];
    if (minute) parts.push(`"minute";q=${minute.limit};w=60`);
    if (month) parts.push(`"month";q=${month.limit};w=${MONTH_SECONDS}`);
    policy = parts.join(', ');
    policies.set(policyKey, policy);
  }
  const minuteState = minute ? `"minute";r=${minute.remaining};t=${minute.resetSeconds}` : '';
  const monthState = month ? `"month";r=${month.remaining};t=${month.resetSeconds}` : '';
  return { 'ratelimit-policy': policy, ratelimit: minuteState && monthState ? `${minuteState}, ${monthState}` : minuteState || monthState };
}
