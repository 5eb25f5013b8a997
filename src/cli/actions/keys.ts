/** What `keys create`, `keys list` and `keys revoke` do (registered in admin-commands.ts). */
import { createKey, listKeys, revokeKey } from '../../admin/keys.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

export function create(
  cli: CliContext,
  o: { account: number; scopes?: string[]; expires?: string; label?: string },
): Promise<void> {
  return cli.withStore(async (store) => {
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
  });
}

export function list(cli: CliContext, o: { account: number }): Promise<void> {
  return cli.withStore(async (store) => {
    const rows = await listKeys(store, o.account);
    print(cli.json(), rows, () =>
      table(rows as never, ['id', 'prefix', 'label', 'scopes', 'expires_at', 'revoked_at', 'created_at']),
    );
  });
}

export function revoke(cli: CliContext, keyId: number): Promise<void> {
  return cli.withStore(async (store) => {
    await revokeKey(store, keyId, new Date());
    print(cli.json(), { id: keyId, revoked: true }, () => `Revoked key ${keyId}.`);
  });
}
