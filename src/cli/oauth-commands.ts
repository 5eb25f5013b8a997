/**
 * `oauth`: the authorization server's clients, grants (connected apps) and signing keys (docs/oauth.md). The
 * commands' work is in actions/oauth.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import { RETIRED_KEY_OVERLAP_DAYS } from '../oauth/signing-keys.js';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { positiveInt } from './number-arguments.js';

const oauthActions = lazyActions(() => import('./actions/oauth.js'));

export function registerOAuthCommands(program: Command, cli: CliContext): void {
  const oauth = program.command('oauth').description('The OAuth authorization server: clients, grants, signing keys');

  const clients = oauth.command('clients').description('Pre-registered OAuth clients');
  clients
    .command('create')
    .description('Register a public client (PKCE, no secret); prints its client id')
    .requiredOption('--name <name>', 'the name the consent page shows')
    .requiredOption('--redirect-uri <uri...>', 'redirect URIs (https, or http on a loopback address)')
    .action(oauthActions((a, o: { name: string; redirectUri: string[] }) => a.clientsCreate(cli, o)));
  clients
    .command('list')
    .description('List the registered clients (pre-registered and dynamically registered)')
    .action(oauthActions((a) => a.clientsList(cli)));
  clients
    .command('delete')
    .description('Delete a client and every grant given to it')
    .argument('<client_id>')
    .action(oauthActions((a, clientId: string) => a.clientsDelete(cli, clientId)));

  const grants = oauth.command('grants').description('Grants: the apps account holders connected');
  grants
    .command('list')
    .description('List live grants')
    .option('--account <id>', 'only this account', positiveInt)
    .action(oauthActions((a, o: { account?: number }) => a.grantsList(cli, o)));
  grants
    .command('revoke')
    .description('Revoke a grant: its refresh and access tokens are refused from the next request on')
    .argument('<grant_id>')
    .action(oauthActions((a, grantId: string) => a.grantsRevoke(cli, grantId)));

  const keys = oauth
    .command('keys')
    .description('The signing keys published at /oauth/jwks: they sign the OAuth tokens and the A2A agent cards');
  keys
    .command('rotate')
    .description(
      'Add a new signing key (it signs from the next start of each instance); the one it retires stays published ' +
        `${RETIRED_KEY_OVERLAP_DAYS} days`,
    )
    .action(oauthActions((a) => a.keysRotate(cli)));
  keys
    .command('list')
    .description('List the signing keys, newest first')
    .action(oauthActions((a) => a.keysList(cli)));
}
