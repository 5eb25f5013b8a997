/**
 * The service's own OAuth 2.1 authorization server (docs/oauth.md), built on `oidc-provider` (OpenID certified):
 * this file only configures it. Issuer exactly `base_url`; authorization code with PKCE S256 only; the one
 * resource `{base_url}/mcp` (RFC 8707), whose scopes are the API-key scopes; refresh tokens rotated on every use
 * (reusing an old one revokes the grant: the library does so); `iss` in authorization responses (RFC 9207);
 * clients by Client ID Metadata Document, Dynamic Client Registration or pre-registration. Everything it keeps
 * goes through `OAuthAdapter` into the store, so that any instance serves any step of a flow.
 */
import Provider, { type Configuration, errors, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import type { GrantRevocationFeed } from '../access/grant-revocations.js';
import type { TokenVerifier, VerifiedToken } from '../access/tokens.js';
import { isScope, SCOPES, type Scope } from '../lib/domains.js';
import { OAUTH_PATHS, oauthResource } from '../lib/oauth-resource.js';
import type { OAuthStore } from '../store/oauth/oauth-sql-store.js';
import { adapterFactory } from './adapter.js';
import { cimdAllowFetch } from './cimd-guard.js';
import { registrationValidator } from './client-policy.js';
import { signingKeys } from './signing-keys.js';

/** Lifetimes in seconds (docs/oauth.md, Lifetimes). */
export const LIFETIMES = {
  accessToken: 60 * 60,
  authorizationCode: 60,
  refreshToken: 30 * 24 * 60 * 60,
  grant: 365 * 24 * 60 * 60,
  session: 14 * 24 * 60 * 60,
  interaction: 60 * 60,
} as const;

export interface AuthorizationServerOptions {
  readonly baseUrl: string;
  readonly store: OAuthStore;
  /** Secrets that sign the library's cookies (the interaction and session cookies). */
  readonly cookieKeys: readonly string[];
  /** Access-token lifetime in seconds (tests shorten it); default `LIFETIMES.accessToken`. */
  readonly accessTokenTtl?: number;
  /** Where revoked grants are announced (every instance's authenticator listens). */
  readonly revocations: GrantRevocationFeed;
}

export interface AuthorizationServer {
  readonly provider: Provider;
  readonly verifier: TokenVerifier;
  readonly revocations: GrantRevocationFeed;
  readonly store: OAuthStore;
  /** The scopes an access token of this server can carry: the API-key scopes. */
  readonly scopes: readonly Scope[];
  /** The key that signs now (the first one published at `/oauth/jwks`), which signs the agent cards too. */
  readonly signingKey: JWK;
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const { baseUrl, store } = options;
  const resource = oauthResource(baseUrl);
  const loopbackService = isLoopbackUrl(baseUrl);
  const jwks = await signingKeys(store);

  const configuration: Configuration = {
    adapter: adapterFactory(store, { loopbackMetadataDocuments: loopbackService }),
    jwks,
    cookies: { keys: [...options.cookieKeys], long: { signed: true }, short: { signed: true } },
    // The account is the subject: a token acts for the account of the person who consented (docs/oauth.md).
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: ['openid', 'offline_access', ...SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    extraClientMetadata: { properties: ['munidata_origin'], validator: registrationValidator },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
      userinfo: OAUTH_PATHS.userinfo,
    },
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATHS.consent}/${interaction.uid}` },
    // Every client that may refresh gets a refresh token (MCP clients expect one), rotated on every use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: options.accessTokenTtl ?? LIFETIMES.accessToken,
      AuthorizationCode: LIFETIMES.authorizationCode,
      RefreshToken: LIFETIMES.refreshToken,
      Grant: LIFETIMES.grant,
      Session: LIFETIMES.session,
      Interaction: LIFETIMES.interaction,
      IdToken: LIFETIMES.accessToken,
    },
    features: {
      devInteractions: { enabled: false },
      // DCR (RFC 7591): open, rate-limited per address in front of the library (registration-limit.ts).
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: (_ctx, clientId) => cimdAllowFetch(clientId),
        cacheDuration: { min: 60, max: 24 * 60 * 60 },
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the MCP resource all the same.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: options.accessTokenTtl ?? LIFETIMES.accessToken,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024 },
    discovery: {
      client_id_metadata_document_supported: true,
      service_documentation: `${baseUrl}/docs`,
    },
    renderError: async (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `${out.error}: ${out.error_description ?? ''}\n`;
    },
  };

  const provider = new Provider(baseUrl, configuration);
  // The process sees requests with the Host the proxy forwarded; addresses are made from base_url (routes.ts).
  provider.proxy = true;

  const { revocations } = options;
  // A reused refresh token or authorization code, or the revocation endpoint, revokes a grant inside the
  // library: tell every authenticator.
  provider.on('grant.revoked', (_ctx: KoaContextWithOIDC, grantId: string) => void revocations.announce(grantId));

  const verifier: TokenVerifier = {
    async verify(token: string, audience: string): Promise<VerifiedToken | undefined> {
      const found = await provider.AccessToken.find(token);
      if (!found || found.isExpired || found.aud !== audience || !found.accountId || !found.grantId) return undefined;
      const accountId = Number(found.accountId);
      if (!Number.isSafeInteger(accountId)) return undefined;
      // The grant must still exist: Disconnect removes it with its tokens.
      const grant = await provider.Grant.find(found.grantId);
      if (!grant) return undefined;
      await store.oauthTouchGrant(found.grantId, Date.now());
      return {
        accountId,
        grantId: found.grantId,
        clientId: found.clientId ?? '',
        scopes: (found.scope ?? '').split(' ').filter(isScope),
        expiresAtMs: (found.exp ?? 0) * 1000,
      };
    },
  };

  return { provider, verifier, revocations, store, scopes: SCOPES, signingKey: { ...jwks.keys[0] } };
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
