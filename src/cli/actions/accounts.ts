/** What `accounts create` and `accounts list` do (registered in admin-commands.ts). */
import { createAccount } from '../../admin/accounts.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

export function create(cli: CliContext, o: { name: string; plan: string; beta: boolean }): Promise<void> {
  return cli.withStore(async (store) => {
    const account = await createAccount(store, o, new Date());
    print(
      cli.json(),
      account,
      () =>
        `Created account ${account.id} "${account.name}" on plan ${account.plan_code}` +
        `${account.beta ? ' (beta)' : ''}.`,
    );
  });
}

export function list(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const rows = await store.listAccounts();
    print(cli.json(), rows, () => table(rows as never, ['id', 'name', 'plan_code', 'beta', 'created_at']));
  });
}
