/**
 * `accounts`, `keys`, `plans` and `beta`: administration of who may call what. The commands' work is in
 * actions/<group>.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import { commaList } from '../lib/comma-list.js';
import type { CliContext } from './context.js';
import { dayArgument } from './date-arguments.js';
import { lazyActions } from './lazy-actions.js';
import { positiveInt } from './number-arguments.js';

const accountActions = lazyActions(() => import('./actions/accounts.js'));
const keyActions = lazyActions(() => import('./actions/keys.js'));
const planActions = lazyActions(() => import('./actions/plans.js'));
const betaActions = lazyActions(() => import('./actions/beta.js'));

export function registerAdminCommands(program: Command, cli: CliContext): void {
  const accounts = program.command('accounts').description('Manage accounts');
  accounts
    .command('create')
    .description('Create an account on a plan')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--plan <code>', 'plan code (see plans list)')
    .option('--beta', 'put the account in the beta group', false)
    .action(accountActions((a, o: { name: string; plan: string; beta: boolean }) => a.create(cli, o)));
  accounts
    .command('list')
    .description('List accounts')
    .action(accountActions((a) => a.list(cli)));

  const keys = program.command('keys').description('Manage API keys (secrets are shown once)');
  keys
    .command('create')
    .description('Create an API key; prints the secret once')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .option('--scopes <list>', 'comma-separated scopes (default: all)', commaList)
    .option('--expires <date>', 'last day the key works, YYYY-MM-DD (UTC)', dayArgument)
    .option('--label <text>', 'a note to recognise the key by')
    .action(
      keyActions((a, o: { account: number; scopes?: string[]; expires?: string; label?: string }) => a.create(cli, o)),
    );
  keys
    .command('list')
    .description("List an account's keys (never their secrets)")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action(keyActions((a, o: { account: number }) => a.list(cli, o)));
  keys
    .command('revoke')
    .description('Revoke a key (refused at the next request on every running server)')
    .argument('<key_id>', 'key id', positiveInt)
    .action(keyActions((a, keyId: number) => a.revoke(cli, keyId)));

  const plans = program.command('plans').description('Manage plans (plans are data)');
  plans
    .command('list')
    .description('List plans')
    .action(planActions((a) => a.list(cli)));
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
      .action(planActions((a, o: Record<string, unknown>) => a.save(cli, mode, o)));
  }

  const beta = program
    .command('beta')
    .description('Mark operations or domains as beta (only beta accounts may call them)');
  beta
    .command('list')
    .description('List beta-gated operations and domains')
    .action(betaActions((a) => a.list(cli)));
  for (const [name, on] of [
    ['add', true],
    ['remove', false],
  ] as const) {
    beta
      .command(name)
      .description(on ? 'Gate an operation or domain behind the beta group' : 'Open a gated operation or domain to all')
      .argument('<target>', 'operation name or domain')
      .action(betaActions((a, target: string) => a.setGate(cli, target, on)));
  }
}
