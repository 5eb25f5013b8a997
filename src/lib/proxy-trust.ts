/**
 * `TRUST_PROXY` (docs/deploy.md, Behind a load balancer): which peers may say, in `X-Forwarded-For`, what address
 * a request came from. Off: the peer's address is the client's. A hop count: that many proxies in front, the
 * client is that far from the end of the list. A list of addresses and CIDR ranges (or `loopback`, `linklocal`,
 * `uniquelocal`): the proxies trusted, the client is the last address not among them.
 */
import { isIP } from 'node:net';

export type ProxyTrust = false | number | readonly string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The trust the text describes, or a message naming what is wrong with it. */
export function parseProxyTrust(text: string | undefined): ProxyTrust | { error: string } {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '' || trimmed === 'false' || trimmed === '0') return false;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= 10 ? hops : { error: `a hop count above 10 (${hops}) is not a deployment` };
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isAddressOrRange(entry))
      return { error: `"${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal` };
  }
  return Object.freeze(entries);
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}
