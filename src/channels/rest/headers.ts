/**
 * Limit headers (IETF draft-ietf-httpapi-ratelimit-headers): one policy for the per-minute limit and one for
 * the monthly quota, each with what remains and when it resets.
 */
import type { Admission } from '../../core/execute.js';

const MONTH_SECONDS = 30 * 24 * 3600;

export function rateLimitHeaders(admission: Admission | undefined): Record<string, string> {
  if (!admission) return {};
  const policies: string[] = [];
  const states: string[] = [];
  if (admission.minute) {
    policies.push(`"minute";q=${admission.minute.limit};w=60`);
    states.push(`"minute";r=${admission.minute.remaining};t=${admission.minute.resetSeconds}`);
  }
  if (admission.month) {
    policies.push(`"month";q=${admission.month.limit};w=${MONTH_SECONDS}`);
    states.push(`"month";r=${admission.month.remaining};t=${admission.month.resetSeconds}`);
  }
  if (policies.length === 0) return {};
  return { 'ratelimit-policy': policies.join(', '), ratelimit: states.join(', ') };
}
