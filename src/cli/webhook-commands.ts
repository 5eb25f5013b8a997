/**
 * `webhooks`: an account's signed webhook endpoints, their deliveries, and the delivery worker run once. The
 * commands' work is in actions/webhooks.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import { commaList } from '../lib/comma-list.js';
import { WEBHOOK_EVENT_TYPES } from '../store/webhooks/records.js';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { positiveInt } from './number-arguments.js';

const webhookActions = lazyActions(() => import('./actions/webhooks.js'));

export function registerWebhookCommands(program: Command, cli: CliContext): void {
  const hooks = program.command('webhooks').description("Accounts' signed webhook endpoints and their deliveries");

  hooks
    .command('create')
    .description('Register an endpoint for an account; prints its signing secret once')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--url <url>', 'https URL (http to loopback only with WEBHOOK_ALLOW_LOOPBACK=1)')
    .requiredOption('--events <list>', `comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`, commaList)
    .option('--families <list>', 'signal and case events: only these families', commaList)
    .option('--types <list>', 'signal and case events: only these types', commaList)
    .action(
      webhookActions(
        (a, o: { account: number; url: string; events: string[]; families?: string[]; types?: string[] }) =>
          a.create(cli, o),
      ),
    );

  hooks
    .command('list')
    .description("An account's endpoints (never their secrets)")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action(webhookActions((a, o: { account: number }) => a.list(cli, o)));

  hooks
    .command('rotate-secret')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description('A new signing secret, printed once; the old one signs alongside it for 24 hours')
    .action(webhookActions((a, id: number) => a.rotateSecret(cli, id)));

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const)
    hooks
      .command(name)
      .argument('<endpoint>', 'endpoint id', positiveInt)
      .description(enabled ? 'Deliver to the endpoint again (its pending deliveries resume)' : 'Stop delivering')
      .action(webhookActions((a, id: number) => a.setEnabled(cli, id, enabled, name)));

  hooks
    .command('delete')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description('Delete the endpoint with its deliveries and their log')
    .action(webhookActions((a, id: number) => a.remove(cli, id)));

  hooks
    .command('deliveries')
    .argument('<endpoint>', 'endpoint id', positiveInt)
    .description("An endpoint's latest deliveries, newest first, each with its attempts (--json)")
    .option('--limit <n>', 'how many (default 20)', positiveInt)
    .action(webhookActions((a, id: number, o: { limit?: number }) => a.deliveries(cli, id, o)));

  hooks
    .command('redeliver')
    .argument('<delivery>', 'delivery id', positiveInt)
    .description('Send a delivery again, with the same webhook-id and body, at the next worker run')
    .action(webhookActions((a, id: number) => a.redeliver(cli, id)));

  hooks
    .command('deliver')
    .description('Run the delivery worker once: every delivery that is due')
    .action(webhookActions((a) => a.deliver(cli)));
}
