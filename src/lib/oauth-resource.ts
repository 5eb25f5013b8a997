/**
 * The one protected resource of the service's OAuth (docs/oauth.md): tokens are issued for `{base_url}/mcp`,
 * the canonical MCP URI clients send as RFC 8707 `resource`, and the same token is accepted on `/a2a`. The
 * addresses of the Protected Resource Metadata (RFC 9728) and of the authorization server's endpoints are
 * derived here once, for the channels' challenges, the cards and the authorization server itself.
 */

/** The token's audience: the MCP endpoint's canonical URI (no trailing slash). */
export function oauthResource(baseUrl: string): string {
  return `${baseUrl}/mcp`;
}

/** Where the Protected Resource Metadata of a channel path (`/mcp`, `/a2a`) is served (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(baseUrl: string, path: '/mcp' | '/a2a'): string {
  const url = new URL(baseUrl);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}${path}`;
}

/** The authorization server's endpoint paths (served by the same process; the issuer is `base_url`). */
export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  consent: '/console/connect',
} as const;

export function authorizationServerMetadataUrl(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/.well-known/oauth-authorization-server`;
}

/**
 * Whether a credential is one of the service's API keys: they all start with `sk_live_`, so a bearer value is
 * told to be a key or an OAuth access token by its prefix, before anything is looked up.
 */
export function isApiKeyShaped(secret: string): boolean {
  return secret.startsWith('sk_live_');
}

/**
 * `WWW-Authenticate` of a refusal on an OAuth-protected channel (RFC 6750 §3, RFC 9728 §5.1): the metadata URL
 * always; `error` only when a token was sent (none for a request without credentials); `scope` for step-up.
 */
export function bearerChallenge(
  metadataUrl: string,
  options: { error?: 'invalid_token' | 'insufficient_scope'; scope?: readonly string[]; description?: string } = {},
): string {
  const parts = [`Bearer resource_metadata="${metadataUrl}"`];
  if (options.error) parts.push(`error="${options.error}"`);
  if (options.scope && options.scope.length > 0) parts.push(`scope="${options.scope.join(' ')}"`);
  if (options.description) parts.push(`error_description="${options.description.replaceAll('"', "'")}"`);
  return parts.join(', ');
}
