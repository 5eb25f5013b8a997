/**
 * What the `oauth` commands do (registered in oauth-commands.ts). The OAuth library is imported when a command needs
 * the server, not with this module: on Node 20 it warns at import, and `oauth keys` do not need it.
 */
import { openGrantRevocations } from '../../access/grant-revocations.js';
import { AdminError } from '../../lib/admin-error.js';
import type { AuthorizationServer } from '../../oauth/authorization-server.js';
import { createClient, deleteClient, listClients } from '../../oauth/clients.js';
import { listSigningKeys, rotateSigningKeys } from '../../oauth/signing-keys.js';
import type { Store } from '../../store/store.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

/** The server as the running service configures it, over this store; revocations reach the instances by Redis. */
function withServer(cli: CliContext, work: (server: AuthorizationServer) => Promise<void>): Promise<void> {
  return cli.withStore(async (store: Store) => {
    const { createAuthorizationServer } = await import('../../oauth/authorization-server.js');
    const revocations = await openGrantRevocations(cli.config);
    try {
      const server = await createAuthorizationServer({
        baseUrl: cli.config.baseUrl,
        store: store.oauth,
        cookieKeys: [await store.secret('oauth-cookies')],
        revocations,
      });
      await work(server);
    } finally {
      await revocations.close();
    }
  });
}

export function clientsCreate(cli: CliContext, o: { name: string; redirectUri: string[] }): Promise<void> {
  return withServer(cli, async (server) => {
    const created = await createClient(server, { name: o.name, redirectUris: o.redirectUri });
    print(cli.json(), created, () => `Created client ${created.clientId} (${created.clientName}).`);
  });
}

export function clientsList(cli: CliContext): Promise<void> {
  return withServer(cli, async (server) => {
    const rows = await listClients(server);
    print(cli.json(), rows, () =>
      table(rows.map((r) => ({ ...r, redirectUris: r.redirectUris.join(' ') })) as never, [
        'clientId',
        'clientName',
        'origin',
        'redirectUris',
      ]),
    );
  });
}

export function clientsDelete(cli: CliContext, clientId: string): Promise<void> {
  return withServer(cli, async (server) => {
    await deleteClient(server, clientId);
    print(cli.json(), { clientId, deleted: true }, () => `Deleted client ${clientId} and its grants.`);
  });
}

export function grantsList(cli: CliContext, o: { account?: number }): Promise<void> {
  return withServer(cli, async (server) => {
    const { listConnectedApps } = await import('../../oauth/grants.js');
    const rows = await listConnectedApps(server, o.account);
    print(cli.json(), rows, () =>
      table(rows.map((r) => ({ ...r, scopes: r.scopes.join(' ') })) as never, [
        'grantId',
        'accountId',
        'clientName',
        'clientId',
        'scopes',
        'connectedAt',
        'lastUsedAt',
      ]),
    );
  });
}

export function grantsRevoke(cli: CliContext, grantId: string): Promise<void> {
  return withServer(cli, async (server) => {
    const { revokeGrant } = await import('../../oauth/grants.js');
    if (!(await revokeGrant(server, grantId))) throw new AdminError(`No live grant ${grantId}.`);
    print(cli.json(), { grantId, revoked: true }, () => `Revoked grant ${grantId}.`);
  });
}

export function keysRotate(cli: CliContext): Promise<void> {
  return cli.withStore(async (store: Store) => {
    const rows = await rotateSigningKeys(store.oauth);
    print(cli.json(), rows, () => `Signing keys, newest first: ${rows.map((k) => k.kid).join(', ')}.`);
  });
}

export function keysList(cli: CliContext): Promise<void> {
  return cli.withStore(async (store: Store) => {
    const rows = await listSigningKeys(store.oauth);
    print(cli.json(), rows, () => table(rows as never, ['kid', 'createdAt', 'retiredAt']));
  });
}
