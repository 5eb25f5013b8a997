/** What the `webhooks` commands do (registered in webhook-commands.ts). */
import { AdminError } from '../../lib/admin-error.js';
import { deliverWebhooks } from '../../webhooks/deliver.js';
import { createWebhookEndpoint, rotateWebhookSecret, setWebhookEndpointEnabled } from '../../webhooks/endpoints.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'families', 'types', 'enabled', 'disabled_reason', 'failing_since'];
const DELIVERY_COLUMNS = ['id', 'message_id', 'event_type', 'resource_id', 'state', 'attempts', 'last_status'];
const SHOWN_ONCE = 'Keep the secret now: it is not shown again (rotate-secret makes a new one).';

const allowLoopback = (cli: CliContext) => cli.config.webhookAllowLoopback ?? false;

export function create(
  cli: CliContext,
  o: { account: number; url: string; events: string[]; families?: string[]; types?: string[] },
): Promise<void> {
  return cli.withStore(async (store) => {
    const { endpoint, secret } = await createWebhookEndpoint(store, o, {
      now: new Date(),
      allowLoopback: allowLoopback(cli),
    });
    print(
      cli.json(),
      { ...endpoint, secret },
      () => `Created webhook endpoint ${endpoint.id} for account ${endpoint.account_id}.\n${secret}\n${SHOWN_ONCE}`,
    );
  });
}

export function list(cli: CliContext, o: { account: number }): Promise<void> {
  return cli.withStore(async (store) => {
    const endpoints = await store.webhooks.listEndpoints(o.account);
    print(cli.json(), endpoints, () => table(endpoints as never, ENDPOINT_COLUMNS));
  });
}

export function rotateSecret(cli: CliContext, id: number): Promise<void> {
  return cli.withStore(async (store) => {
    const rotated = await rotateWebhookSecret(store, id, new Date());
    print(
      cli.json(),
      rotated,
      () => `${rotated.secret}\nThe old secret signs too until ${rotated.old_secret_signs_until}. ${SHOWN_ONCE}`,
    );
  });
}

/** `enable` (`enabled`) or `disable`; `name` is the command's, for its answer. */
export function setEnabled(cli: CliContext, id: number, enabled: boolean, name: string): Promise<void> {
  return cli.withStore(async (store) => {
    await setWebhookEndpointEnabled(store, id, enabled, { now: new Date() });
    print(cli.json(), { id: id, enabled }, () => `Webhook endpoint ${id} ${name}d.`);
  });
}

export function remove(cli: CliContext, id: number): Promise<void> {
  return cli.withStore(async (store) => {
    if (!(await store.webhooks.deleteEndpoint(id))) throw new AdminError(`no webhook endpoint ${id}`);
    print(cli.json(), { id: id, deleted: true }, () => `Webhook endpoint ${id} deleted.`);
  });
}

export function deliveries(cli: CliContext, id: number, o: { limit?: number }): Promise<void> {
  return cli.withStore(async (store) => {
    if (!(await store.webhooks.getEndpoint(id))) throw new AdminError(`no webhook endpoint ${id}`);
    const deliveries = await store.webhooks.listDeliveries(id, o.limit ?? 20);
    const withAttempts = await Promise.all(
      deliveries.map(async (d) => ({ ...d, log: await store.webhooks.listAttempts(d.id) })),
    );
    print(cli.json(), withAttempts, () => table(deliveries as never, DELIVERY_COLUMNS));
  });
}

export function redeliver(cli: CliContext, id: number): Promise<void> {
  return cli.withStore(async (store) => {
    if (!(await store.webhooks.redeliver(id, new Date().toISOString())))
      throw new AdminError(`no webhook delivery ${id} that is not being attempted right now`);
    print(cli.json(), { id: id, state: 'pending' }, () => `Delivery ${id} queued again.`);
  });
}

export function deliver(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const summary = await deliverWebhooks(store, { now: new Date(), allowLoopback: allowLoopback(cli) });
    print(
      cli.json(),
      summary,
      () =>
        `Attempted ${summary.attempted}: ${summary.delivered} delivered, ${summary.retrying} to retry, ` +
        `${summary.failed} failed; ${summary.disabled} endpoints disabled.`,
    );
  });
}
