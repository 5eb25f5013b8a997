/** `webhooks`: an account's signed webhook endpoints, their deliveries, and the delivery worker run once. */
import type { Command } from 'commander';
import { AdminError } from '../lib/admin-error.js';
import { commaList } from '../lib/comma-list.js';
import { WEBHOOK_EVENT_TYPES } from '../store/webhooks/records.js';
import { deliverWebhooks } from '../webhooks/deliver.js';
import { createWebhookEndpoint, rotateWebhookSecret, setWebhookEndpointEnabled } from '../webhooks/endpoints.js';
import type { CliContext } from './context.js';
import { positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'families', 'types', 'enabled', 'disabled_reason', 'failing_since'];
const DELIVERY_COLUMNS = ['id', 'message_id', 'event_type', 'resource_id', 'state', 'attempts', 'last_status'];
const SHOWN_ONCE = 'Keep the secret now: it is not shown again (rotate-secret makes a new one).';

export function registerWebhookCommands(program: Command, cli: CliContext): void {
  const hooks = program.command('webhooks').description("Accounts' signed webhook endpoints and their deliveries");
  const allowLoopback = () => cli.config.webhookAllowLoopback ?? false;

  hooks
    .command('create')
    .description('Register an endpoint for an account; prints its signing secret once')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--url <url>', 'https URL (http to loopback only with WEBHOOK_ALLOW_LOOPBACK=1)')
    .requiredOption('--events <list>', `comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`, commaList)
    .option('--families <list>', 'signal and case events: only these families', commaList)
    .option('--types <list>', 'signal and case events: only these types', commaList)
    .action((o: { account: number; url: string; events: string[]; families?: string[]; types?: string[] }) =>
      cli.withStore(async (store) => {
        const { endpoint, secret } = await createWebhookEndpoint(store, o, {
          now: new Date(),
          allowLoopback: allowLoopback(),
        });
        print(
          cli.json(),
          { ...endpoint, secret },
          () => `Created webhook endpoint ${endpoint.id} for account ${endpoint.account_id}.\n${secret}\n${SHOWN_ONCE}`,
        );
      }),
    );

  hooks
    .command('list')
    .description("An account's endpoints (never their secrets)")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action((o: { account: number }) =>
      cli.withStore(async (store) => {
        const endpoints = await store.webhooks.listEndpoints(o.account);
        print(cli.json(), endpoints, () => table(endpoints as never, ENDPOINT_COLUMNS));
      }),
    );

  hooks
    .command('rotate-secret')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description('A new signing secret, printed once; the old one signs alongside it for 24 hours')
    .action((id: number) =>
      cli.withStore(async (store) => {
        const rotated = await rotateWebhookSecret(store, id, new Date());
        print(
          cli.json(),
          rotated,
          () => `${rotated.secret}\nThe old secret signs too until ${rotated.old_secret_signs_until}. ${SHOWN_ONCE}`,
        );
      }),
    );

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    hooks
      .command(name)
      .argument('<endpoint>', 'endpoint id', positiveInt)
      .description(enabled ? 'Deliver to the endpoint again (its pending deliveries resume)' : 'Stop delivering')
      .action((id: number) =>
        cli.withStore(async (store) => {
          await setWebhookEndpointEnabled(store, id, enabled, { now: new Date() });
          print(cli.json(), { id: id, enabled }, () => `Webhook endpoint ${id} ${name}d.`);
        }),
      );

  hooks
    .command('delete')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description('Delete the endpoint with its deliveries and their log')
    .action((id: number) =>
      cli.withStore(async (store) => {
        if (!(await store.webhooks.deleteEndpoint(id))) throw new AdminError(`no webhook endpoint ${id}`);
        print(cli.json(), { id: id, deleted: true }, () => `Webhook endpoint ${id} deleted.`);
      }),
    );

  hooks
    .command('deliveries')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description("An endpoint's latest deliveries, newest first, each with its attempts (--json)")
    .option('--limit <n>', 'how many (default 20)', positiveInt)
    .action((id: number, o: { limit?: number }) =>
      cli.withStore(async (store) => {
        if (!(await store.webhooks.getEndpoint(id))) throw new AdminError(`no webhook endpoint ${id}`);
        const deliveries = await store.webhooks.listDeliveries(id, o.limit ?? 20);
        const withAttempts = await Promise.all(
          deliveries.map(async (d) => ({ ...d, log: await store.webhooks.listAttempts(d.id) })),
        );
        print(cli.json(), withAttempts, () => table(deliveries as never, DELIVERY_COLUMNS));
      }),
    );

  hooks
    .command('redeliver')
    .argument('<delivery>', 'delivery id', positiveInt)
    .description('Send a delivery again, with the same webhook-id and body, at the next worker run')
    .action((id: number) =>
      cli.withStore(async (store) => {
        if (!(await store.webhooks.redeliver(id, new Date().toISOString())))
          throw new AdminError(`no webhook delivery ${id} that is not being attempted right now`);
        print(cli.json(), { id: id, state: 'pending' }, () => `Delivery ${id} queued again.`);
      }),
    );

  hooks
    .command('deliver')
    .description('Run the delivery worker once: every delivery that is due')
    .action(() =>
      cli.withStore(async (store) => {
        const summary = await deliverWebhooks(store, { now: new Date(), allowLoopback: allowLoopback() });
        print(
          cli.json(),
          summary,
          () =>
            `Attempted ${summary.attempted}: ${summary.delivered} delivered, ${summary.retrying} to retry, ` +
            `${summary.failed} failed; ${summary.disabled} endpoints disabled.`,
        );
      }),
    );
}
