/**
 * What the authorization server accepts of a client's metadata, beyond the library's own checks (docs/oauth.md,
 * Registration): redirect URIs on HTTPS, or HTTP on a loopback address (OAuth 2.1 §2.3.1, RFC 8252 §7.3); a
 * client whose redirects are all loopback is a native app, so that any port of them is accepted. `munidata_origin`
 * (how the client came: `cli` for pre-registered ones) is set by the command line only; a registration request
 * cannot claim it.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const LOOPBACK_NAMES = 'a loopback address (127.0.0.1, [::1] or localhost)';

export type ClientOrigin = 'cli' | 'registration' | 'metadata-document';

/**
 * Checked before the library's own checks (which name no URI and word a plain-http one as "did not match"), so that
 * every refusal of a redirect URI, on every path (`munidata oauth clients create`, registration, metadata documents),
 * names the URI and its own reason. The message starts with `redirect_uris`: the library answers it
 * `invalid_redirect_uri` (RFC 7591 §3.2.2).
 */
export function registrationValidator(
  ctx: KoaContextWithOIDC | undefined,
  key: string,
  value: unknown,
  metadata: Record<string, unknown>,
): void {
  if (key !== 'munidata_origin') return;
  if (ctx?.oidc?.route === 'registration') metadata.munidata_origin = undefined;
  else if (value !== undefined && value !== 'cli') metadata.munidata_origin = undefined;
  const uris = Array.isArray(metadata.redirect_uris) ? (metadata.redirect_uris as unknown[]) : [];
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`);
  }
  if (uris.length > 0 && uris.every((uri) => isLoopback(URL.parse(String(uri))))) {
    metadata.application_type = 'native';
  }
}

/** Why this redirect URI is refused (docs/oauth.md, Registration), in words that name it; undefined when it is not. */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return `${JSON.stringify(uri)} is not a string`;
  const shown = JSON.stringify(uri);
  const url = URL.parse(uri);
  if (url === null) return `${shown} is not an absolute URI: give its scheme and host (https://app.example/callback)`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `${shown} uses the ${url.protocol.slice(0, -1)} scheme: use https, or http on ${LOOPBACK_NAMES}`;
  }
  if (uri.includes('#')) return `${shown} has a fragment (#…): a redirect URI must not (RFC 6749 §3.1.2)`;
  if (url.protocol === 'http:' && !isLoopback(url)) {
    return `${shown} uses plain http on ${url.hostname}: use https, or http only on ${LOOPBACK_NAMES}`;
  }
  return undefined;
}

function isLoopback(url: URL | null): boolean {
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** How a client came to be known: a URL client id is a metadata document; `cli` pre-registered; else registration. */
export function clientOrigin(clientId: string, metadata: Record<string, unknown> | undefined): ClientOrigin {
  if (/^https?:\/\//.test(clientId)) return 'metadata-document';
  return metadata?.munidata_origin === 'cli' ? 'cli' : 'registration';
}
