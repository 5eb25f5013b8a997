/**
 * The REST channel: one GET route per operation, derived from the registry. It maps path and query to the
 * operation's input and the outcome or error to HTTP; every check and every handler runs in the core.
 * List endpoints also answer `text/csv` when the request's `Accept` prefers it (csv.ts); errors stay problem+json.
 *
 * Answers are written to the Node response directly (`reply.hijack()`), headers as one flat list: this is the
 * service's hot path, and Fastify's reply pipeline (header bookkeeping, onSend hooks, a global compression
 * plugin) cost more per request than the rest of the channel. Compression is done here, once per cached answer
 * (content-encoding.ts). Fastify still routes, parses the query, logs and answers HEAD.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSV_MEDIA_TYPE } from '../../core/csv.js';
import type { Admission, Core, Outcome } from '../../core/execute.js';
import type { AnyOperation } from '../../core/operation.js';
import { ApiError, toApiError } from '../../lib/errors.js';
import type { Registry } from '../../operations/registry.js';
import { rateLimitHeaderList } from '../http/limit-headers.js';
import { sendProblem } from '../http/problem-reply.js';
import { requestFacts } from '../http/request-facts.js';
import { type ContentEncoding, encodeBody, MIN_COMPRESSED_BYTES, negotiateEncoding } from './content-encoding.js';
import { prefersCsv } from './csv-negotiation.js';

const NOT_GET = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** What a route's answers share, computed once per operation. */
interface RouteFacts {
  readonly operation: AnyOperation;
  /** A list operation: its answers also come as CSV. */
  readonly csv: boolean;
  readonly cacheControl: string;
  readonly vary: string;
}

export function registerRestChannel(app: FastifyInstance, core: Core, registry: Registry): void {
  for (const operation of registry.all) {
    const csv = core.offersCsv(operation);
    const route: RouteFacts = {
      operation,
      csv,
      cacheControl: operation.cache === 'caller' ? 'private, no-store' : 'private, max-age=60',
      vary: csv ? 'Authorization, X-API-Key, Accept, Accept-Encoding' : 'Authorization, X-API-Key, Accept-Encoding',
    };
    app.get(operation.rest.path, (request, reply) => handle(core, route, request, reply));
    app.route({
      method: [...NOT_GET],
      url: operation.rest.path,
      handler: (request, reply) =>
        sendProblem(request, reply, new ApiError('method-not-allowed', { detail: `${request.method} is not allowed; use GET.` }), {
          baseUrl: core.baseUrl,
        }),
    });
  }
}

async function handle(core: Core, route: RouteFacts, request: FastifyRequest, reply: FastifyReply) {
  const { csv } = route;
  const headers = request.headers;
  let admission: Admission | undefined;
  // Only a list endpoint has a CSV form; any other answers JSON whatever `Accept` says (a preference, not a demand).
  const asCsv = csv && prefersCsv(header(headers.accept));
  try {
    admission = await core.admit(requestFacts(request));
    const input = { ...(request.query as Record<string, unknown>), ...(request.params as Record<string, unknown>) };
    const outcome = await core.execute({
      admission,
      operation: route.operation,
      input,
      encoding: 'text',
      requestKey: request.url,
      ifNoneMatch: headers['if-none-match'],
      format: asCsv ? 'csv' : 'json',
      channel: 'rest',
    });
    const list = answerHeaders(route, request, core.baseUrl, admission, outcome);
    if (outcome.notModified) return writeAnswer(reply, 304, list, undefined);
    const encoding = encodingFor(outcome.body, request);
    // Awaited only when compressing: the hot path (no Accept-Encoding, or a small answer) takes no promise here.
    const body = encoding ? await encodeBody(outcome.body, encoding) : outcome.body;
    if (encoding) list.push('content-encoding', encoding);
    list.push('content-type', asCsv ? CSV_MEDIA_TYPE : JSON_MEDIA_TYPE, 'content-length', String(body.length));
    writeAnswer(reply, 200, list, body);
  } catch (error) {
    if (reply.raw.headersSent) throw error; // nothing more can be said on this response; Fastify logs it
    return sendProblem(request, reply, toApiError(error), { baseUrl: core.baseUrl, minute: admission?.minute });
  }
}

/** The headers of a successful answer (or its 304), as a flat `[name, value, …]` list. */
function answerHeaders(route: RouteFacts, request: FastifyRequest, baseUrl: string, admission: Admission, outcome: Outcome): string[] {
  const list: string[] = ['request-id', request.id];
  rateLimitHeaderList(admission.minute, outcome.month, list);
  if (outcome.etag !== undefined) list.push('etag', outcome.etag);
  list.push('cache-control', route.cacheControl, 'vary', route.vary);
  const next = nextCursorOf(outcome.value);
  if (next) {
    // A CSV body has no room for `next_cursor`: the headers carry it (for JSON too, alike).
    list.push('link', `<${nextPageUrl(baseUrl, request.url, next)}>; rel="next"`, 'next-cursor', next);
  }
  return list;
}

/** The encoding to send `body` in: compressed from 1 KiB when `Accept-Encoding` allows. */
function encodingFor(body: Buffer, request: FastifyRequest): ContentEncoding | undefined {
  return body.length >= MIN_COMPRESSED_BYTES ? negotiateEncoding(header(request.headers['accept-encoding'])) : undefined;
}

function writeAnswer(reply: FastifyReply, status: number, headers: string[], body: Buffer | undefined): void {
  reply.hijack();
  reply.raw.writeHead(status, headers);
  reply.raw.end(body);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function nextCursorOf(value: unknown): string | undefined {
  const cursor = (value as { next_cursor?: unknown } | null)?.next_cursor;
  return typeof cursor === 'string' ? cursor : undefined;
}

/** The same request with `cursor` set to the next page's (string work only: this runs on every paged answer). */
function nextPageUrl(baseUrl: string, requestUrl: string, cursor: string): string {
  const q = requestUrl.indexOf('?');
  const path = q < 0 ? requestUrl : requestUrl.slice(0, q);
  const kept =
    q < 0
      ? []
      : requestUrl
          .slice(q + 1)
          .split('&')
          .filter((p) => p !== '' && !p.startsWith('cursor='));
  kept.push(`cursor=${encodeURIComponent(cursor)}`);
  return `${baseUrl}${path}?${kept.join('&')}`;
}
