/**
 * The delivery worker (docs/webhooks.md, Delivery): claims the deliveries that are due (a claim with an expiry in
 * the store, so that across instances each is attempted by one at a time, and one whose worker died is taken
 * again once the claim expires — with the same webhook-id), signs and posts each, and records the attempt and
 * what comes next: delivered on a 2xx; the endpoint disabled on a 410; otherwise another attempt on the retry
 * schedule (Retry-After honoured on 429 and 503), failed after the last, and the endpoint disabled once it has
 * failed for `disableAfterS`. The pipeline calls it each cycle; `munidata webhooks deliver` runs it once.
 */

import type { Store } from '../store/store.js';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/webhooks/records.js';
import type { AttemptOutcome } from '../store/webhooks/webhook-store.js';
import { checkWebhookAddress, type Resolver } from './address-guard.js';
import { Connections, postWebhook } from './post.js';
import { referenceFor, renderDelivery } from './render.js';
import { DEFAULT_DISABLE_AFTER_S, DEFAULT_RETRY_SCHEDULE_S, retryDelayMs } from './schedule.js';
import { webhookHeaders } from './signing.js';

export interface DeliverOptions {
  now: Date;
  /** http to loopback receivers (the operator's WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback?: boolean;
  /** Seconds after each failed attempt (default DEFAULT_RETRY_SCHEDULE_S); tests inject a short one. */
  schedule?: readonly number[];
  disableAfterS?: number;
  /** One attempt's limit (default 10 s). */
  timeoutMs?: number;
  /** The answer's bytes read and logged (default 1 024). */
  maxBytes?: number;
  /**
   * Attempts in flight at once (default 50): the worker claims more as attempts end, so that one slow receiver
   * holds one slot, not a round. Claims are made for at most this many at a time.
   */
  batchSize?: number;
  /** The run claims nothing new after this long (default 50 s) and ends when its attempts have: the next resumes. */
  budgetMs?: number;
  /** How long a claim holds (default 60 s, longer than an attempt's timeout). */
  leaseMs?: number;
  resolve?: Resolver;
  random?: () => number;
}

export interface DeliverSummary {
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
  /** Endpoints disabled by this run. */
  disabled: number;
}

export async function deliverWebhooks(store: Store, options: DeliverOptions): Promise<DeliverSummary> {
  const summary: DeliverSummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0, disabled: 0 };
  const reference = await referenceFor(store);
  const leaseMs = options.leaseMs ?? 60_000;
  const slots = options.batchSize ?? 50;
  const budgetMs = options.budgetMs ?? 50_000;
  // The run uses the clock from `now` on, so that a long run still claims and dates by the time it is.
  const started = Date.now();
  const clock = () => new Date(options.now.getTime() + (Date.now() - started));
  const connections = new Connections();
  const endpoints = new Map<number, Promise<WebhookEndpointRecord | undefined>>();
  const inFlight = new Set<Promise<void>>();
  const send = async (d: WebhookDeliveryRecord) => {
    if (!endpoints.has(d.endpoint_id)) endpoints.set(d.endpoint_id, store.webhooks.getEndpoint(d.endpoint_id));
    const endpoint = await endpoints.get(d.endpoint_id);
    if (!endpoint) return;
    const outcome = await attempt(store, reference, endpoint, d, clock(), options, connections);
    if (!(await store.webhooks.finishAttempt(outcome))) return;
    summary.attempted++;
    if (outcome.state === 'delivered') summary.delivered++;
    else if (outcome.state === 'failed') summary.failed++;
    else summary.retrying++;
    if (await disableIfDue(store, endpoint.id, outcome, options)) {
      summary.disabled++;
      endpoints.delete(endpoint.id);
    }
  };
  try {
    // Claims refill the free slots (once half are free, so that claims stay few) until nothing is due.
    while (Date.now() - started < budgetMs) {
      if (inFlight.size <= slots / 2) {
        const at = clock();
        const claimed = await store.webhooks.claimDeliveries(
          instant(at),
          instant(new Date(at.getTime() + leaseMs)),
          slots - inFlight.size,
        );
        for (const d of claimed) {
          const running: Promise<void> = send(d).finally(() => inFlight.delete(running));
          inFlight.add(running);
        }
        if (claimed.length === 0 && inFlight.size === 0) break;
        if (claimed.length === 0) await Promise.all(inFlight);
      }
      if (inFlight.size > slots / 2) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    connections.close();
  }
  return summary;
}

async function attempt(
  store: Store,
  reference: Awaited<ReturnType<typeof referenceFor>>,
  endpoint: WebhookEndpointRecord,
  d: WebhookDeliveryRecord,
  now: Date,
  options: DeliverOptions,
  connections: Connections,
): Promise<AttemptOutcome> {
  const base = { delivery_id: d.id, claim_token: d.claim_token as string, attempted_at: instant(now) };
  let payload = d.payload;
  if (payload === null) {
    const rendered = await renderDelivery(store, reference, endpoint.account_id, d);
    if ('refused' in rendered)
      return { ...base, ...noAnswer(rendered.refused, 0), state: 'failed', next_attempt_at: null, payload: null };
    payload = rendered.body;
  }
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const retry = (status: number | null, retryAfter: string | null) => {
    const delay = retryDelayMs(
      d.attempts + 1,
      options.schedule ?? DEFAULT_RETRY_SCHEDULE_S,
      status === 429 || status === 503 ? retryAfter : null,
      now,
      options.random,
    );
    return delay === null
      ? { state: 'failed' as const, next_attempt_at: null }
      : { state: 'pending' as const, next_attempt_at: instant(new Date(now.getTime() + delay)) };
  };
  try {
    const target = await checkWebhookAddress(endpoint.url, options.allowLoopback ?? false, options.resolve);
    const secrets = (await store.webhooks.signingSecrets(endpoint.id, instant(now))).map((s) => s.secret);
    const headers = webhookHeaders(secrets, d.message_id, Math.floor(now.getTime() / 1_000), payload);
    const answer = await postWebhook(target, headers, payload, {
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 1_024,
      agent: connections.to(target),
    });
    const logged = { status: answer.status, latency_ms: latency(), error: null, response_head: answer.head, payload };
    if (answer.status >= 200 && answer.status < 300)
      return { ...base, ...logged, state: 'delivered', next_attempt_at: null };
    if (answer.status === 410) return { ...base, ...logged, state: 'failed', next_attempt_at: null };
    return { ...base, ...logged, ...retry(answer.status, answer.retryAfter) };
  } catch (error) {
    return { ...base, ...noAnswer((error as Error).message, latency()), payload, ...retry(null, null) };
  }
}

function noAnswer(error: string, latency: number) {
  return { status: null, latency_ms: latency, error, response_head: null };
}

/** A 410 disables the endpoint at once; other failures once it has failed (no success) for `disableAfterS`. */
async function disableIfDue(
  store: Store,
  endpointId: number,
  outcome: AttemptOutcome,
  options: DeliverOptions,
): Promise<boolean> {
  if (outcome.state === 'delivered') return false;
  if (outcome.status === 410)
    return store.webhooks.disableEndpoint(endpointId, `answered 410 Gone at ${outcome.attempted_at}`);
  const endpoint = await store.webhooks.getEndpoint(endpointId);
  if (!endpoint?.enabled || endpoint.failing_since === null) return false;
  const failingS = (Date.parse(outcome.attempted_at) - Date.parse(endpoint.failing_since)) / 1_000;
  if (failingS < (options.disableAfterS ?? DEFAULT_DISABLE_AFTER_S)) return false;
  return store.webhooks.setEndpointEnabled(endpointId, false, `every delivery failed since ${endpoint.failing_since}`);
}

/** To the millisecond, as the store compares instants (text). */
function instant(at: Date): string {
  return at.toISOString();
}
