/**
 * Ending an authorization request's interaction (docs/oauth.md, Consent): the signed-in account holder approved
 * the client for some of the scopes it asked (or all, or fewer: they may narrow them) — or refused. The grant is
 * saved with those scopes on the one resource, and the browser goes back to `/oauth/authorize/:uid`, which
 * redirects to the client with a code (and `iss`).
 */
import type Provider from 'oidc-provider';
import { isScope, SCOPES, type Scope } from '../lib/domains.js';
import { OAUTH_PATHS, oauthResource } from '../lib/oauth-resource.js';
import { clientOrigin } from './client-policy.js';

export interface ConsentRequest {
  readonly uid: string;
  readonly clientId: string;
  readonly clientName: string;
  /** The hosts the client's redirect URIs point at (the consent page shows where the browser will go). */
  readonly redirectHost: string;
  readonly origin: ReturnType<typeof clientOrigin>;
  readonly scopes: readonly Scope[];
  /** The account already signed in to this flow, when the interaction is consent only. */
  readonly returnTo: string;
}

/** What the interaction asks, for the consent page; undefined when it is unknown or expired. */
export async function consentRequest(provider: Provider, uid: string): Promise<ConsentRequest | undefined> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return undefined;
  const clientId = String(interaction.params.client_id ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) return undefined;
  const redirectUri = String(interaction.params.redirect_uri ?? client.redirectUris?.[0] ?? '');
  const requested = String(interaction.params.scope ?? '')
    .split(' ')
    .filter(isScope);
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    redirectHost: URL.parse(redirectUri)?.host ?? redirectUri,
    origin: clientOrigin(clientId, client.metadata() as Record<string, unknown>),
    // A client that names no data scope asks for all of them (the resource's scopes); the holder narrows.
    scopes: requested.length > 0 ? requested : SCOPES,
    returnTo: interaction.returnTo,
  };
}

/**
 * Approves the interaction for `accountId` with `scopes` (a subset of those asked); returns where the browser goes
 * next. An empty list of scopes is a refusal (`access_denied` to the client).
 */
export async function finishConsent(provider: Provider, uid: string, accountId: number, scopes: readonly Scope[]): Promise<string> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw new Error('the authorization request has expired; start again from the app');
  const asked = (await consentRequest(provider, uid))?.scopes ?? [];
  const granted = scopes.filter((s) => asked.includes(s));
  if (granted.length === 0) {
    interaction.result = { error: 'access_denied', error_description: 'The account holder did not allow access.' };
  } else {
    const clientId = String(interaction.params.client_id);
    const grant = new provider.Grant({ accountId: String(accountId), clientId });
    const refused = asked.filter((s) => !granted.includes(s));
    const oidcScopes = String(interaction.params.scope ?? '')
      .split(' ')
      .filter((s) => s === 'openid' || s === 'offline_access');
    // The data scopes are both the library's scopes (they are in `scopes_supported`) and the resource's; a scope
    // the holder took away is recorded as refused, so that the library does not ask again.
    grant.addOIDCScope([...oidcScopes, ...granted].join(' '));
    grant.addResourceScope(oauthResource(provider.issuer), granted.join(' '));
    if (refused.length > 0) {
      grant.rejectOIDCScope(refused.join(' '));
      grant.rejectResourceScope(oauthResource(provider.issuer), refused.join(' '));
    }
    const grantId = await grant.save();
    interaction.result = {
      login: { accountId: String(accountId) },
      consent: { grantId },
    };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo ?? `${OAUTH_PATHS.authorization}/${uid}`;
}
