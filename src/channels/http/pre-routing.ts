/**
 * The HTTP server, with the answers Node would give itself before Fastify sees a request made in the service's
 * form (docs/api.md, Errors): an HTTP/1.1 request without `Host`, or any with two (400), an `Expect` other than
 * `100-continue` (417) and CONNECT (501: the service is no proxy). Node answers the first with an empty body or
 * not at all, the second with an empty body, and drops a CONNECT without a word; here each gets the refusal of the
 * channel its path belongs to, with a request id. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../../lib/errors.js';
import { type Refusal, writeSocketRefusal } from './framework-refusal.js';

/** A refusal in the form of the channel `path` belongs to, with its request id. */
export type PathRefusal = (error: ApiError, path: string) => { readonly requestId: string; readonly refusal: Refusal };

/** What Fastify's server factory is given of its options (the ones it would apply to a server it made itself). */
export interface ServerOptions {
  readonly http?: Record<string, unknown>;
  readonly keepAliveTimeout?: number;
  readonly requestTimeout?: number;
  readonly connectionTimeout?: number;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Fastify's `serverFactory`: Node's server as Fastify would make it, Host checked by us instead of by Node. */
export function createGuardedServer(handler: Handler, options: ServerOptions, refuse: PathRefusal): Server {
  const server = createServer({ ...options.http, requireHostHeader: false }, (request, response) => {
    const hostProblem = hostProblemOf(request);
    if (hostProblem !== undefined) return answer(response, refuse, hostProblem, request.url);
    handler(request, response);
  });
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const error = hostProblemOf(request) ?? unmetExpectation(request.headers.expect);
    answer(response, refuse, error, request.url);
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const error = new ApiError('not-implemented', {
      detail: 'CONNECT is not served: this is an origin server, not a proxy, and opens no tunnel.',
    });
    const { requestId, refusal } = refuse(error, pathOf(request.url));
    writeSocketRefusal(socket, error, requestId, refusal);
  });
  return server;
}

/**
 * RFC 9112 §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host (HTTP/1.0 need not send one) and to
 * any request with more than one (Node would keep the first).
 */
function hostProblemOf(request: IncomingMessage): ApiError | undefined {
  if (request.headers.host === undefined) {
    return request.httpVersion === '1.1' ? badHost('An HTTP/1.1 request must carry a Host header.') : undefined;
  }
  const raw = request.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') hosts++;
  return hosts > 1 ? badHost('A request must carry one Host header, not several.') : undefined;
}

function badHost(detail: string): ApiError {
  return new ApiError('bad-request', { detail });
}

function unmetExpectation(expect: string | undefined): ApiError {
  return new ApiError('expectation-failed', {
    detail: `Expect: ${(expect ?? '').slice(0, 100)} cannot be met: only Expect: 100-continue is understood.`,
  });
}

/** The refusal on the response, and the connection closed after it. */
function answer(response: ServerResponse, refuse: PathRefusal, error: ApiError, url: string | undefined): void {
  const { requestId, refusal } = refuse(error, pathOf(url));
  response.writeHead(error.status, {
    'content-type': refusal.contentType,
    'content-length': Buffer.byteLength(refusal.body),
    'request-id': requestId,
    'cache-control': 'no-store',
    connection: 'close',
  });
  response.end(refusal.body);
}

/** The path of a request target ('' for one that is not a path, such as CONNECT's `host:port`). */
function pathOf(url: string | undefined): string {
  return url?.startsWith('/') ? url.split('?')[0] : '';
}
