/**
 * `oauth`: the authorization server's clients, grants (connected apps) and signing keys (docs/oauth.md). The OAuth
 * library is imported when a command needs the server, not with the CLI: on Node 20 it warns at import.
 */
import type { Command } from 'commander';
import { openGrantRevocations } from '../access/grant-revocations.js';
import { AdminError } from '../lib/admin-error.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import { createClient, deleteClient, listClients } from '../oauth/clients.js';
import { listSigningKeys, RETIRED_KEY_OVERLAP_DAYS, rotateSigningKeys } from '../oauth/signing-keys.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';
import { positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

export function registerOAuthCommands(program: Command, cli: CliContext): void {
  const oauth = program.command('oauth').description('The OAuth authorization server: clients, grants, signing keys');
  /** The server as the running service configures it, over this store; revocations reach the instances by Redis. */
  const withServer = (work: (server: AuthorizationServer) => Promise<void>) =>
    cli.withStore(async (store: Store) => {
      const { createAuthorizationServer } = await import('../oauth/authorization-server.js');
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

  const clients = oauth.command('clients').description('Pre-registered OAuth clients');
  clients
    .command('create')
    .description('Register a public client (PKCE, no secret); prints its client id')
    .requiredOption('--name <name>', 'the name the consent page shows')
    .requiredOption('--redirect-uri <uri...>', 'redirect URIs (https, or http on a loopback address)')
    .action((o: { name: string; redirectUri: string[] }) =>
      withServer(async (server) => {
        const created = await createClient(server, { name: o.name, redirectUris: o.redirectUri });
        print(cli.json(), created, () => `Created client ${created.clientId} (${created.clientName}).`);
      }),
    );
  clients
    .command('list')
    .description('List the registered clients (pre-registered and dynamically registered)')
    .action(() =>
      withServer(async (server) => {
        const rows = await listClients(server);
        print(cli.json(), rows, () =>
          table(rows.map((r) => ({ ...r, redirectUris: r.redirectUris.join(' ') })) as never, [
            'clientId',
            'clientName',
            'origin',
            'redirectUris',
          ]),
        );
      }),
    );
  clients
    .command('delete')
    .description('Delete a client and every grant given to it')
    .argument('<client_id>')
    .action((clientId: string) =>
      withServer(async (server) => {
        await deleteClient(server, clientId);
        print(cli.json(), { clientId, deleted: true }, () => `Deleted client ${clientId} and its grants.`);
      }),
    );

  const grants = oauth.command('grants').description('Grants: the apps account holders connected');
  grants
    .command('list')
    .description('List live grants')
    .option('--account <id>', 'only this account', positiveInt)
    .action((o: { account?: number }) =>
      withServer(async (server) => {
        const { listConnectedApps } = await import('../oauth/grants.js');
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
      }),
    );
  grants
    .command('revoke')
    .description('Revoke a grant: its refresh and access tokens are refused from the next request on')
    .argument('<grant_id>')
    .action((grantId: string) =>
      withServer(async (server) => {
        const { revokeGrant } = await import('../oauth/grants.js');
        if (!(await revokeGrant(server, grantId))) throw new AdminError(`No live grant ${grantId}.`);
        print(cli.json(), { grantId, revoked: true }, () => `Revoked grant ${grantId}.`);
      }),
    );

  const keys = oauth
    .command('keys')
    .description('The signing keys published at /oauth/jwks: they sign the OAuth tokens and the A2A agent cards');
  keys
    .command('rotate')
    .description(
      'Add a new signing key (it signs from the next start of each instance); the one it retires stays published ' +
        `${RETIRED_KEY_OVERLAP_DAYS} days`,
    )
    .action(() =>
      cli.withStore(async (store: Store) => {
        const rows = await rotateSigningKeys(store.oauth);
        print(cli.json(), rows, () => `Signing keys, newest first: ${rows.map((k) => k.kid).join(', ')}.`);
      }),
    );
  keys
    .command('list')
    .description('List the signing keys, newest first')
    .action(() =>
      cli.withStore(async (store: Store) => {
        const rows = await listSigningKeys(store.oauth);
        print(cli.json(), rows, () => table(rows as never, ['kid', 'createdAt', 'retiredAt']));
      }),
    );
}
