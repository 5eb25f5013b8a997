/**
 * No request forgery (docs/webhooks.md, Addresses): a webhook URL is https, or http to a loopback address when
 * the operator allows it (WEBHOOK_ALLOW_LOOPBACK=1); every address its host resolves to must be public — not
 * private, loopback (unless allowed), link-local, unique-local, carrier-grade NAT, multicast, reserved or a cloud
 * metadata address. Checked at registration and again before every connection, which then goes to the address
 * checked (never a second resolution).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { type EndpointWording, OPERATOR_WORDING } from './endpoint-wording.js';

export class WebhookAddressError extends Error {}

/** A host name the resolver found no address for; `code` is its reason (`ENOTFOUND`, `EAI_AGAIN`). */
export class HostNotFoundError extends Error {
  constructor(readonly code: string) {
    super(`no address found (${code})`);
  }
}

const forbidden = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16], // link-local, and the metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  forbidden.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  // Not ::ffff:0:0/96 (IPv4-mapped): Node 20's BlockList matches every IPv4 address against it, refusing them all.
  // A mapped address is checked as the IPv4 address it maps (`refusal`).
  ['64:ff9b::', 96],
  ['fc00::', 7], // unique-local, and fd00:ec2::254 (a metadata address)
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  forbidden.addSubnet(net, bits, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface CheckedAddress {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The reason `address` may not be connected to, or null. */
export function refusal(address: string, allowLoopback: boolean): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const mapped = family === 6 ? mappedIpv4(address) : undefined;
  if (mapped !== undefined) return refusal(mapped, allowLoopback);
  if (loopback.check(address, type)) return allowLoopback ? null : `${address} is a loopback address`;
  if (forbidden.check(address, type)) return `${address} is a private, link-local or reserved address`;
  return null;
}

/** The IPv4 address an IPv4-mapped IPv6 address stands for (`::ffff:10.0.0.1`, `::ffff:a00:1`), or undefined. */
function mappedIpv4(address: string): string | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]`).hostname; // `[::ffff:a00:1]`, however it was written
  } catch {
    return undefined; // a zone index (`fe80::1%eth0`): not a mapped address, and the ranges above judge it
  }
  const halves = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!halves) return undefined;
  const [high, low] = [Number.parseInt(halves[1], 16), Number.parseInt(halves[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The URL parsed, if it is one a webhook may have (scheme, no credentials); throws WebhookAddressError otherwise,
 * in `wording`'s words where they differ by who reads them.
 */
export function parseWebhookUrl(
  text: string,
  allowLoopback: boolean,
  wording: EndpointWording = OPERATOR_WORDING,
): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookAddressError(`"${text}" is not a URL`);
  }
  if (url.username || url.password) throw new WebhookAddressError('a webhook URL may not carry credentials');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowLoopback) return url;
  throw new WebhookAddressError(wording.notHttps(allowLoopback));
}

/**
 * Resolves the URL's host and checks every address it gives; the first is the one to connect to. An http URL must
 * resolve to loopback only.
 */
export async function checkWebhookAddress(
  text: string,
  allowLoopback: boolean,
  resolve: Resolver = systemResolver,
  wording: EndpointWording = OPERATOR_WORDING,
): Promise<CheckedAddress> {
  const url = parseWebhookUrl(text, allowLoopback, wording);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : await resolved(host, resolve, wording);
  if (addresses.length === 0) throw new WebhookAddressError(`${host} resolves to no address`);
  for (const { address } of addresses) {
    const reason = refusal(address, allowLoopback);
    // The reason names the address it judged: the host before it, unless that is the same (`10.0.0.1: 10.0.0.1 is…`).
    if (reason) throw new WebhookAddressError(reason.startsWith(`${host} `) ? reason : `${host}: ${reason}`);
    if (url.protocol === 'http:' && refusal(address, false) === null)
      throw new WebhookAddressError(`${host}: http is allowed to loopback addresses only`);
  }
  return { url, address: addresses[0].address, family: addresses[0].family };
}

/** A host's addresses, as `resolve` gives them; a name it finds none for is refused in `wording`'s words. */
async function resolved(host: string, resolve: Resolver, wording: EndpointWording) {
  try {
    return await resolve(host);
  } catch (error) {
    if (error instanceof HostNotFoundError) throw new WebhookAddressError(wording.unresolved(host, error.code));
    throw error;
  }
}

/** A host's addresses; throws HostNotFoundError when the name gives none. */
export type Resolver = (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;

async function systemResolver(host: string) {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => ({
      address: a.address,
      family: a.family as 4 | 6,
    }));
  } catch (error) {
    throw new HostNotFoundError(String((error as NodeJS.ErrnoException).code ?? error));
  }
}
