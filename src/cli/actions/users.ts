/** What `users create`, `users list`, `users reset-password` and `users disable` do (users-commands.ts). */
import { issuePasswordLink } from '../../admin/password-changes.js';
import { createUser, disableUser, listUsers } from '../../admin/users.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

export function create(
  cli: CliContext,
  o: { account: number; email: string; role: string; name?: string },
): Promise<void> {
  return cli.withStore(async (store) => {
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
  });
}

export function list(cli: CliContext, o: { account?: number }): Promise<void> {
  return cli.withStore(async (store) => {
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
  });
}

export function resetPassword(cli: CliContext, userId: number): Promise<void> {
  return cli.withStore(async (store) => {
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
  });
}

export function disable(cli: CliContext, userId: number): Promise<void> {
  return cli.withStore(async (store) => {
    await disableUser(store, userId, new Date());
    print(cli.json(), { id: userId, disabled: true }, () => `Disabled user ${userId}; their sessions have ended.`);
  });
}
