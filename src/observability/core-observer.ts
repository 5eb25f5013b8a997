/**
 * The core's hooks (../core/core.ts): admission and each operation call run in a span of their own, and the
 * refusals they end in are counted by kind — credentials not accepted, the per-minute limit, the month's quota.
 * With metrics and tracing off each hook is the call itself.
 */
import { ApiError } from '../lib/errors.js';
import { metrics, metricsOn } from './metrics.js';
import { inSpan, tracingOn } from './tracing.js';

/**
 * Runs `admit` (origin, credential, per-minute limit); `credentialSent` tells, when it fails, whether the request
 * carried any credential (asked only then: this is every request's path).
 */
export function observeAdmission<T>(admit: () => Promise<T>, credentialSent: () => boolean): Promise<T> {
  if (!metricsOn && !tracingOn) return admit();
  return inSpan('admission', {}, () => counted(admit(), credentialSent));
}

/** Runs one operation call (plan and scope checks, quota, handler, rendering). */
export function observeCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  if (!metricsOn && !tracingOn) return call();
  return inSpan(`operation ${operation}`, { 'munidata.operation': operation }, () => counted(call(), () => true));
}

async function counted<T>(outcome: Promise<T>, credentialSent: () => boolean): Promise<T> {
  if (!metricsOn) return outcome;
  try {
    return await outcome;
  } catch (error) {
    if (error instanceof ApiError) countRefusal(error, credentialSent);
    throw error;
  }
}

function countRefusal(error: ApiError, credentialSent: () => boolean): void {
  if (error.kind === 'rate-limited') metrics.refusals.inc({ kind: 'rate_limited' });
  else if (error.kind === 'quota-exceeded') metrics.refusals.inc({ kind: 'quota_exceeded' });
  else if (error.kind === 'invalid-auth') {
    const kind = !credentialSent()
      ? 'missing_credential'
      : error.challenge === 'invalid_token'
        ? 'invalid_token'
        : 'invalid_api_key';
    metrics.authFailures.inc({ kind });
  }
}
