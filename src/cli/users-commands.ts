/** `users`: the people who sign in to the account console (docs/console.md). */
import type { Command } from 'commander';
import { issuePasswordLink } from '../admin/password-changes.js';
import { createUser, disableUser, listUsers } from '../admin/users.js';
import { USER_ROLES } from '../store/console/console-records.js';
import type { CliContext } from './context.js';
import { positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

export function registerUsersCommands(program: Command, cli: CliContext): void {
  const users = program.command('users').description('Manage console users (each signs in at {BASE_URL}/console)');
  users
    .command('create')
    .description('Create a console user; prints a one-time link to set the password')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--email <email>', 'email (the sign-in name)')
    .requiredOption('--role <role>', `role: ${USER_ROLES.join(', ')}`)
    .option('--name <name>', 'display name (default: the part of the email before @)')
    .action((o: { account: number; email: string; role: string; name?: string }) =>
      cli.withStore(async (store) => {
        const created = await createUser(
          store,
          { accountId: o.account, email: o.email, role: o.role, name: o.name },
          new Date(),
          cli.config.baseUrl,
        );
        print(cli.json(), { ...created.user, set_password_link: created.link }, () =>
          [
            `Created user ${created.user.id} ${created.user.email} (${created.user.role}) in account ${o.account}.`,
            '',
            `  ${created.link}`,
            '',
            'Give this link to the user: it sets their password, works once, and expires in 24 hours.',
          ].join('\n'),
        );
      }),
    );
  users
    .command('list')
    .description('List console users (never their passwords)')
    .option('--account <id>', 'only this account', positiveInt)
    .action((o: { account?: number }) =>
      cli.withStore(async (store) => {
        const rows = await listUsers(store, o.account);
        print(cli.json(), rows, () =>
          table(rows as never, [
            'id',
            'account_id',
            'email',
            'display_name',
            'role',
            'has_password',
            'created_at',
            'disabled_at',
          ]),
        );
      }),
    );
  users
    .command('reset-password')
    .description('Print a fresh one-time link where a user sets a new password (their sessions end when it is used)')
    .argument('<user_id>', 'user id', positiveInt)
    .action((userId: number) =>
      cli.withStore(async (store) => {
        const issued = await issuePasswordLink(store, userId, new Date(), cli.config.baseUrl);
        print(cli.json(), { id: userId, email: issued.email, set_password_link: issued.link }, () =>
          [
            `A one-time link for ${issued.email} to set a new password:`,
            '',
            `  ${issued.link}`,
            '',
            'It works once and expires in 24 hours. Until it is used, the current password (if any) still works.',
          ].join('\n'),
        );
      }),
    );
  users
    .command('disable')
    .description('Disable a user: their sessions end at once and they cannot sign in again')
    .argument('<user_id>', 'user id', positiveInt)
    .action((userId: number) =>
      cli.withStore(async (store) => {
        await disableUser(store, userId, new Date());
        print(cli.json(), { id: userId, disabled: true }, () => `Disabled user ${userId}; their sessions have ended.`);
      }),
    );
}
