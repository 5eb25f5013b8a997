/**
 * Ending an authorization request's interaction (docs/oauth.md, Consent): the signed-in account holder approved
 * the client for some of the scopes it asked (all, or fewer: they may narrow them) — or refused. The grant is saved
 * with those scopes on the one resource, and the browser goes back to `/oauth/authorize/:uid`, which redirects to
 * the client with a code (and `iss`). The console's page (web/console/connect-page.ts) finds the interaction by
 * the browser's interaction cookie, so that a link to someone else's request cannot be approved.
 */
import type Provider from 'oidc-provider';
import { isScope, SCOPES, type Scope } from '../lib/domains.js';
import { oauthResource } from '../lib/oauth-resource.js';
import { type ClientOrigin, clientOrigin } from './client-policy.js';

type Interaction = InstanceType<Provider['Interaction']>;

export interface ConsentRequest {
  readonly uid: string;
  readonly clientId: string;
  readonly clientName: string;
  /** The host the client's redirect URI points at (the page shows where the browser will go). */
  readonly redirectHost: string;
  /** The origin of that redirect URI (for the consent page's form-action); undefined for a custom scheme. */
  readonly redirectOrigin: string | undefined;
  readonly origin: ClientOrigin;
  /** The data scopes asked (all of them when the client names none). */
  readonly scopes: readonly Scope[];
}

/** The interaction of this browser (its interaction cookie), or undefined when it has none or it expired. */
export async function browserInteraction(
  provider: Provider,
  req: unknown,
  res: unknown,
): Promise<Interaction | undefined> {
  try {
    return await provider.interactionDetails(req as never, res as never);
  } catch {
    return undefined;
  }
}

/** What the interaction asks, for the consent page; undefined when its client is unknown. */
export async function consentRequest(
  provider: Provider,
  interaction: Interaction,
): Promise<ConsentRequest | undefined> {
  const clientId = String(interaction.params.client_id ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) return undefined;
  const redirectUri = String(interaction.params.redirect_uri ?? client.redirectUris?.[0] ?? '');
  const requested = String(interaction.params.scope ?? '')
    .split(' ')
    .filter(isScope);
  return {
    uid: interaction.uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectHost: URL.parse(redirectUri)?.host || redirectUri,
    redirectOrigin: /^https?:$/.test(URL.parse(redirectUri)?.protocol ?? '')
      ? URL.parse(redirectUri)?.origin
      : undefined,
    origin: clientOrigin(clientId, client.metadata() as Record<string, unknown>),
    scopes: requested.length > 0 ? requested : SCOPES,
  };
}

/**
 * Approves the interaction for `accountId` with `scopes` (those of the asked ones the holder kept); an empty list
 * is a refusal (`access_denied` to the client). Returns where the browser goes next.
 */
export async function approve(
  provider: Provider,
  interaction: Interaction,
  accountId: number,
  scopes: readonly Scope[],
): Promise<string> {
  const asked = (await consentRequest(provider, interaction))?.scopes ?? [];
  const granted = asked.filter((s) => scopes.includes(s));
  if (granted.length === 0) {
    interaction.result = { error: 'access_denied', error_description: 'The account holder did not allow access.' };
  } else {
    const resource = oauthResource(provider.issuer);
    const grant = new provider.Grant({ accountId: String(accountId), clientId: String(interaction.params.client_id) });
    const refused = asked.filter((s) => !granted.includes(s));
    const oidcScopes = String(interaction.params.scope ?? '')
      .split(' ')
      .filter((s) => s === 'openid' || s === 'offline_access');
    // The data scopes are both the library's scopes (they are in `scopes_supported`) and the resource's; a scope
    // the holder took away is recorded as refused, so that the library does not ask again.
    grant.addOIDCScope([...oidcScopes, ...granted].join(' '));
    grant.addResourceScope(resource, granted.join(' '));
    if (refused.length > 0) {
      grant.rejectOIDCScope(refused.join(' '));
      grant.rejectResourceScope(resource, refused.join(' '));
    }
    const grantId = await grant.save();
    interaction.result = { login: { accountId: String(accountId) }, consent: { grantId } };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}

/** `approve` for an interaction named by its uid (tests, which hold no browser). */
export async function approveByUid(
  provider: Provider,
  uid: string,
  accountId: number,
  scopes: readonly Scope[],
): Promise<string> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new Error('the authorization request has expired; start again from the app');
  return approve(provider, interaction, accountId, scopes);
}
