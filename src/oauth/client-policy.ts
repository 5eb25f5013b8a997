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

export type ClientOrigin = 'cli' | 'registration' | 'metadata-document';

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
  let loopback = 0;
  for (const uri of uris) {
    const url = typeof uri === 'string' ? URL.parse(uri) : null;
    if (!url) continue; // the library names the malformed one
    const isLoopback = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol === 'http:' && !isLoopback) {
      throw new errors.InvalidRedirectUri('redirect_uris must use https, or http on a loopback address (127.0.0.1, [::1], localhost)');
    }
    if (isLoopback) loopback++;
  }
  if (uris.length > 0 && loopback === uris.length) {
    metadata.application_type = 'native';
  }
}

/** How a client came to be known: a URL client id is a metadata document; `cli` pre-registered; else registration. */
export function clientOrigin(clientId: string, metadata: Record<string, unknown> | undefined): ClientOrigin {
  if (/^https?:\/\//.test(clientId)) return 'metadata-document';
  return metadata?.munidata_origin === 'cli' ? 'cli' : 'registration';
}
