/**
 * One POST of a delivery to the address already checked (address-guard.ts): the connection goes to that address
 * (the URL's host is still the Host header and the TLS server name), redirects are answers like any other (never
 * followed), the whole exchange is bounded by `timeoutMs`, and only the answer's first `maxBytes` are read. A
 * worker run keeps its connections open between the deliveries to one receiver (`Connections`), one pool per
 * origin and checked address, so that a connection is only ever reused to the address checked for this delivery.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { inClientSpan, traceHeaders } from '../observability/tracing.js';
import type { CheckedAddress } from './address-guard.js';

export interface PostAnswer {
  status: number;
  /** The answer's first bytes, as text. */
  head: string;
  retryAfter: string | null;
}

export interface PostOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** The run's pool for this origin and checked address; none: a connection of its own. */
  readonly agent?: http.Agent;
}

export function postWebhook(
  target: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostAnswer> {
  // A client span when tracing, its `traceparent` sent along (docs/webhooks.md); the host only, as a path may hold a
  // receiver's secret.
  const attributes = { 'http.request.method': 'POST', 'server.address': target.url.hostname };
  return inClientSpan('webhook POST', attributes, () => post(target, { ...headers, ...traceHeaders() }, body, options));
}

function post(
  target: CheckedAddress,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<PostAnswer> {
  const { url, address, family } = target;
  // The connection is made to the checked address whatever the name would resolve to now.
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: options.agent ?? false,
        timeout: options.timeoutMs,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'munidata-webhooks',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            head: Buffer.concat(chunks).subarray(0, options.maxBytes).toString('utf8'),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // The rest is not read: the connection goes with it, not back to the pool.
          if (size >= options.maxBytes) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** The open connections of one worker run, by origin and checked address; `close` ends them with the run. */
export class Connections {
  readonly #agents = new Map<string, http.Agent>();

  to({ url, address }: CheckedAddress): http.Agent {
    const key = `${url.origin} ${address}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent = url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
      this.#agents.set(key, agent);
    }
    return agent;
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}
