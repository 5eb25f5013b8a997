/**
 * Registering and managing an account's webhook endpoints, with the same checks on every channel that offers it
 * (docs/webhooks.md): the URL (address-guard.ts, resolved and checked now, and again at every delivery), event
 * types of the catalogue whose domain the account's plan includes, families and types of the signal catalogue.
 * The secret is shown once, on creation and on rotation.
 */
import { AdminError } from '../lib/admin-error.js';
import { SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';
import type { Store } from '../store/store.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointRecord, type WebhookEventType } from '../store/webhooks/records.js';
import { checkWebhookAddress, type Resolver, WebhookAddressError } from './address-guard.js';
import { type EndpointWording, OPERATOR_WORDING } from './endpoint-wording.js';
import { EVENT_DOMAIN } from './render.js';
import { newWebhookSecret } from './signing.js';

/** The families an endpoint's signal and case events may be narrowed to: the signal catalogue's. */
export const WEBHOOK_FAMILIES: readonly string[] = SIGNAL_FAMILY_KEYS;

/** How long a rotated-out secret keeps signing alongside the new one. */
export const SECRET_OVERLAP_S = 24 * 3_600;

export interface EndpointRequest {
  account: number;
  url: string;
  events: readonly string[];
  families?: readonly string[];
  types?: readonly string[];
}

export async function createWebhookEndpoint(
  store: Store,
  request: EndpointRequest,
  options: { now: Date; allowLoopback: boolean; resolve?: Resolver; wording?: EndpointWording },
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const account = await store.getAccount(request.account);
  if (!account) throw new AdminError(`no account ${request.account}`);
  const plan = await store.getPlan(account.plan_code);
  const events = [...new Set(request.events)];
  const wording = options.wording ?? OPERATOR_WORDING;
  if (events.length === 0) throw new AdminError(wording.noEvents(WEBHOOK_EVENT_TYPES));
  for (const event of events) {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event))
      throw new AdminError(`unknown event "${event}"; events: ${WEBHOOK_EVENT_TYPES.join(', ')}`);
    const domain = EVENT_DOMAIN[event as WebhookEventType];
    if (!plan?.domains.includes(domain))
      throw new AdminError(`${event} needs the ${domain} domain, which plan ${account.plan_code} does not include`);
  }
  const families = known(request.families ?? [], WEBHOOK_FAMILIES, 'family');
  const types = known(request.types ?? [], SIGNAL_TYPE_KEYS, 'signal type');
  await checkedUrl(request.url, options);
  const secret = newWebhookSecret();
  const endpoint = await store.webhooks.createEndpoint({
    account_id: account.id,
    url: request.url,
    events,
    families,
    types,
    secret,
    created_at: options.now.toISOString(),
  });
  return { endpoint, secret };
}

/** A new secret; the old one signs alongside it for SECRET_OVERLAP_S. */
export async function rotateWebhookSecret(
  store: Store,
  endpointId: number,
  now: Date,
): Promise<{ secret: string; old_secret_signs_until: string }> {
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + SECRET_OVERLAP_S * 1_000).toISOString();
  if (!(await store.webhooks.rotateSecret(endpointId, secret, now.toISOString(), until)))
    throw new AdminError(`no webhook endpoint ${endpointId}`);
  return { secret, old_secret_signs_until: until };
}

/**
 * Turns an endpoint on (its waiting deliveries resume; a standing notice goes) or off. Off by the operator
 * (`by` absent), the account is told in the console; off by a person of the account (`by`: their email), who
 * knows, the notice is acknowledged at once.
 */
export async function setWebhookEndpointEnabled(
  store: Store,
  endpointId: number,
  enabled: boolean,
  o: { now: Date; by?: string },
): Promise<void> {
  const at = o.now.toISOString();
  const reason = enabled ? null : `disabled by ${o.by ?? 'the operator'} at ${at}`;
  if (!(await store.webhooks.setEndpointEnabled(endpointId, enabled, reason, o.by === undefined ? null : at)))
    throw new AdminError(`no webhook endpoint ${endpointId}`);
}

/** An account's endpoints disabled without it, whose notice it has not acknowledged (docs/webhooks.md). */
export function standingNotices(endpoints: readonly WebhookEndpointRecord[]): WebhookEndpointRecord[] {
  return endpoints.filter((e) => !e.enabled && e.notice_acknowledged_at === null);
}

async function checkedUrl(
  url: string,
  o: { allowLoopback: boolean; resolve?: Resolver; wording?: EndpointWording },
): Promise<void> {
  try {
    await checkWebhookAddress(url, o.allowLoopback, o.resolve, o.wording);
  } catch (error) {
    if (error instanceof WebhookAddressError) throw new AdminError(`refused URL: ${error.message}`);
    throw error;
  }
}

function known(values: readonly string[], catalogue: readonly string[], what: string): string[] {
  for (const value of values)
    if (!catalogue.includes(value)) throw new AdminError(`unknown ${what} "${value}"; known: ${catalogue.join(', ')}`);
  return [...new Set(values)];
}
