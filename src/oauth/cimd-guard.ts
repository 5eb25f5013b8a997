/**
 * Client ID Metadata Documents (docs/oauth.md, Registration): a `client_id` that is an HTTPS URL is fetched by
 * the library, which already refuses plain HTTP, redirects, bodies over the limit and slow answers, and drops a
 * connection that lands on a special-use address. What it cannot do is refuse before connecting: this guard
 * resolves the host first and refuses private, loopback, link-local and other special-use addresses, so that no
 * packet is ever sent to them.
 *
 * The one exception is for tests and local development: when the service itself runs on a loopback base URL, a
 * `client_id` on `http://127.0.0.1` or `http://localhost` is read too (`loopbackMetadataDocument`).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const SPECIAL_USE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv6');
}

const DOCUMENT_LIMIT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 2_500;

/** Whether an address is one a metadata document may never be fetched from. */
export function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL_USE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return SPECIAL_USE.check(mapped[1], 'ipv4');
    return SPECIAL_USE.check(address, 'ipv6');
  }
  return true;
}

/** The library's `allowFetch`: HTTPS, and a host that resolves to public addresses only. */
export async function cimdAllowFetch(clientId: string): Promise<boolean> {
  const url = URL.parse(clientId);
  if (url?.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (isIP(host)) return !isSpecialUseAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((a) => !isSpecialUseAddress(a.address));
  } catch {
    return false;
  }
}

/** A `client_id` on loopback HTTP (read only when the service runs on a loopback base URL). */
export function isLoopbackClientId(clientId: string): boolean {
  const url = URL.parse(clientId);
  if (url?.protocol !== 'http:' || url.hash !== '' || url.username !== '' || url.pathname === '/') return false;
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

/**
 * Reads a loopback metadata document with the checks the library makes on HTTPS ones: status 200 (no redirect),
 * JSON object, at most 5 KiB, `client_id` equal to the URL, no shared secret. Undefined when any fails.
 */
export async function loopbackMetadataDocument(clientId: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await fetch(clientId, {
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (response.status !== 200) return undefined;
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > DOCUMENT_LIMIT_BYTES) return undefined;
    const document = JSON.parse(body.toString('utf8')) as unknown;
    if (document === null || typeof document !== 'object' || Array.isArray(document)) return undefined;
    const properties = document as Record<string, unknown>;
    if (properties.client_id !== clientId || 'client_secret' in properties) return undefined;
    if (typeof properties.token_endpoint_auth_method === 'string' && properties.token_endpoint_auth_method !== 'none')
      return undefined;
    return { ...properties, token_endpoint_auth_method: 'none' };
  } catch {
    return undefined;
  }
}
