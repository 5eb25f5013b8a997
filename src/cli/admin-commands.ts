/** `accounts`, `keys`, `plans` and `beta`: administration of who may call what. */
import type { Command } from 'commander';
import { createAccount } from '../admin/accounts.js';
import { createKey, listKeys, revokeKey } from '../admin/keys.js';
import { type PlanChanges, savePlan } from '../admin/plans.js';
import { AdminError } from '../lib/admin-error.js';
import { commaList } from '../lib/comma-list.js';
import { DOMAIN_NAMES, isDomain } from '../lib/domains.js';
import { createRegistry } from '../operations/index.js';
import type { CliContext } from './context.js';
import { dayArgument } from './date-arguments.js';
import { positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

export function registerAdminCommands(program: Command, cli: CliContext): void {
  const accounts = program.command('accounts').description('Manage accounts');
  accounts
    .command('create')
    .description('Create an account on a plan')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--plan <code>', 'plan code (see plans list)')
    .option('--beta', 'put the account in the beta group', false)
    .action((o: { name: string; plan: string; beta: boolean }) =>
      cli.withStore(async (store) => {
        const account = await createAccount(store, o, new Date());
        print(
          cli.json(),
          account,
          () =>
            `Created account ${account.id} "${account.name}" on plan ${account.plan_code}` +
            `${account.beta ? ' (beta)' : ''}.`,
        );
      }),
    );
  accounts
    .command('list')
    .description('List accounts')
    .action(() =>
      cli.withStore(async (store) => {
        const rows = await store.listAccounts();
        print(cli.json(), rows, () => table(rows as never, ['id', 'name', 'plan_code', 'beta', 'created_at']));
      }),
    );

  const keys = program.command('keys').description('Manage API keys (secrets are shown once)');
  keys
    .command('create')
    .description('Create an API key; prints the secret once')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .option('--scopes <list>', 'comma-separated scopes (default: all)', commaList)
    .option('--expires <date>', 'last day the key works, YYYY-MM-DD (UTC)', dayArgument)
    .option('--label <text>', 'a note to recognise the key by')
    .action((o: { account: number; scopes?: string[]; expires?: string; label?: string }) =>
      cli.withStore(async (store) => {
        const created = await createKey(
          store,
          { accountId: o.account, scopes: o.scopes, expires: o.expires, label: o.label },
          new Date(),
        );
        print(cli.json(), { ...created.key, secret: created.secret }, () =>
          [
            `Created key ${created.key.id} for account ${o.account} (scopes: ${created.key.scopes.join(', ')}).`,
            '',
            `  ${created.secret}`,
            '',
            'This secret is shown once and stored only as a hash. Keep it on a server.',
          ].join('\n'),
        );
      }),
    );
  keys
    .command('list')
    .description("List an account's keys (never their secrets)")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action((o: { account: number }) =>
      cli.withStore(async (store) => {
        const rows = await listKeys(store, o.account);
        print(cli.json(), rows, () =>
          table(rows as never, ['id', 'prefix', 'label', 'scopes', 'expires_at', 'revoked_at', 'created_at']),
        );
      }),
    );
  keys
    .command('revoke')
    .description('Revoke a key (refused at the next request on every running server)')
    .argument('<key_id>', 'key id', positiveInt)
    .action((keyId: number) =>
      cli.withStore(async (store) => {
        await revokeKey(store, keyId, new Date());
        print(cli.json(), { id: keyId, revoked: true }, () => `Revoked key ${keyId}.`);
      }),
    );

  const plans = program.command('plans').description('Manage plans (plans are data)');
  plans
    .command('list')
    .description('List plans')
    .action(() =>
      cli.withStore(async (store) => {
        const rows = await store.listPlans();
        print(cli.json(), rows, () =>
          table(rows as never, [
            'code',
            'api_access',
            'domains',
            'raw_values',
            'judge',
            'requests_per_minute',
            'requests_per_month',
            'history_years',
            'alerts_history_days',
          ]),
        );
      }),
    );
  for (const mode of ['create', 'update'] as const) {
    plans
      .command(mode)
      .description(mode === 'create' ? 'Create a plan' : 'Change a plan')
      .requiredOption('--code <code>', 'plan code')
      .option('--name <name>', 'display name')
      .option('--api', 'grant data API access')
      .option('--no-api', 'no data API access')
      .option('--domains <list>', 'comma-separated data domains', commaList)
      .option('--raw-values', 'serve raw values')
      .option('--no-raw-values', 'serve normalized values instead')
      .option('--judge', 'annotate alert matches with the AI judge')
      .option('--no-judge', 'no judge annotations')
      .option('--rpm <n>', 'requests per minute', positiveInt)
      .option('--monthly <n>', 'requests per month', positiveInt)
      .option('--history-years <n>', 'years of series history', positiveInt)
      .option('--alerts-days <n>', 'days of alert-match history', positiveInt)
      .action((o: Record<string, unknown>) =>
        cli.withStore(async (store) => {
          const changes: PlanChanges = {
            name: o.name as string | undefined,
            api_access: o.api as boolean | undefined,
            domains: o.domains as string[] | undefined,
            raw_values: o.rawValues as boolean | undefined,
            judge: o.judge as boolean | undefined,
            requests_per_minute: o.rpm as number | undefined,
            requests_per_month: o.monthly as number | undefined,
            history_years: o.historyYears as number | undefined,
            alerts_history_days: o.alertsDays as number | undefined,
          };
          const plan = await savePlan(store, o.code as string, changes, mode);
          print(cli.json(), plan, () => `${mode === 'create' ? 'Created' : 'Updated'} plan ${plan.code}.`);
        }),
      );
  }

  const beta = program
    .command('beta')
    .description('Mark operations or domains as beta (only beta accounts may call them)');
  beta
    .command('list')
    .description('List beta-gated operations and domains')
    .action(() =>
      cli.withStore(async (store) => {
        const gates = await store.listBetaGates();
        print(cli.json(), gates, () => (gates.length ? gates.join('\n') : '(none)'));
      }),
    );
  for (const [name, on] of [
    ['add', true],
    ['remove', false],
  ] as const) {
    beta
      .command(name)
      .description(on ? 'Gate an operation or domain behind the beta group' : 'Open a gated operation or domain to all')
      .argument('<target>', 'operation name or domain')
      .action((target: string) =>
        cli.withStore(async (store) => {
          if (on && !createRegistry().get(target) && !isDomain(target)) {
            throw new AdminError(`"${target}" is neither an operation nor a domain (${DOMAIN_NAMES.join(', ')}).`);
          }
          await store.setBetaGate(target, on);
          print(cli.json(), { target, beta: on }, () => `${target}: ${on ? 'beta only' : 'open'}.`);
        }),
      );
  }
}
