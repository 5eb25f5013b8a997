/**
 * `users`: the people who sign in to the account console (docs/console.md). The commands' work is in
 * actions/users.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import { USER_ROLES } from '../store/console/console-records.js';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { positiveInt } from './number-arguments.js';

const userActions = lazyActions(() => import('./actions/users.js'));

export function registerUsersCommands(program: Command, cli: CliContext): void {
  const users = program.command('users').description('Manage console users (each signs in at {BASE_URL}/console)');
  users
    .command('create')
    .description('Create a console user; prints a one-time link to set the password')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--email <email>', 'email (the sign-in name)')
    .requiredOption('--role <role>', `role: ${USER_ROLES.join(', ')}`)
    .option('--name <name>', 'display name (default: the part of the email before @)')
    .action(userActions((a, o: { account: number; email: string; role: string; name?: string }) => a.create(cli, o)));
  users
    .command('list')
    .description('List console users (never their passwords)')
    .option('--account <id>', 'only this account', positiveInt)
    .action(userActions((a, o: { account?: number }) => a.list(cli, o)));
  users
    .command('reset-password')
    .description('Print a fresh one-time link where a user sets a new password (their sessions end when it is used)')
    .argument('<user_id>', 'user id', positiveInt)
    .action(userActions((a, userId: number) => a.resetPassword(cli, userId)));
  users
    .command('disable')
    .description('Disable a user: their sessions end at once and they cannot sign in again')
    .argument('<user_id>', 'user id', positiveInt)
    .action(userActions((a, userId: number) => a.disable(cli, userId)));
}
