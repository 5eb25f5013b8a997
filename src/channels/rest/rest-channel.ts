/**
 * The REST channel: one GET route per operation, derived from the registry, and the file route of an operation that
 * has one (bulk-download.ts). It maps path and query to the
 * operation's input and the outcome or error to HTTP; every check and every handler runs in the core.
 * List endpoints also answer `text/csv` when the request's `Accept` prefers it (csv.ts); errors stay problem+json.
 *
 * Answers are written to the Node response directly (`reply.hijack()`), headers as one flat list: this is the
 * service's hot path, and Fastify's reply pipeline (header bookkeeping, onSend hooks, a global compression
 * plugin) cost more per request than the rest of the channel. Compression is done here, once per cached answer
 * (content-encoding.ts). Fastify still routes, parses the query, logs and answers HEAD.
 */
import { validateHeaderValue } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import { refundedError } from '../../core/charge.js';
import type { Core } from '../../core/core.js';
import { CSV_MEDIA_TYPE } from '../../core/csv.js';
import type { Outcome } from '../../core/execution.js';
import type { AnyOperation } from '../../core/operation.js';
import { toApiError } from '../../lib/errors.js';
import type { Registry } from '../../operations/registry.js';
import { headerValue } from '../http/header-value.js';
import { rateLimitHeaderList } from '../http/limit-headers.js';
import { refuseMethodsOtherThanGet } from '../http/methods.js';
import { sendProblem } from '../http/problem-reply.js';
import { requestFacts } from '../http/request-facts.js';
import { registerDownloadRoute } from './bulk-download.js';
import { type ContentEncoding, encodeBody, MIN_COMPRESSED_BYTES, negotiateEncoding } from './content-encoding.js';
import { FORMAT_PARAMETER, requestedFormat } from './csv-negotiation.js';

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
    // The interface is read-only: any other method on a route is 405 (`Allow: GET, HEAD`).
    refuseMethodsOtherThanGet(app, operation.rest.path, core.baseUrl);
    if (operation.rest.download) {
      registerDownloadRoute(app, core, operation, operation.rest.download);
      refuseMethodsOtherThanGet(app, operation.rest.download.path, core.baseUrl);
    }
  }
}

async function handle(core: Core, route: RouteFacts, request: FastifyRequest, reply: FastifyReply) {
  const { csv } = route;
  const headers = request.headers;
  let admission: Admission | undefined;
  let outcome: Outcome | undefined;
  try {
    admission = await core.admit(requestFacts(request));
    const query = request.query as Record<string, unknown>;
    // Only a list endpoint has a CSV form; any other answers JSON whatever `Accept` says (a preference, not a demand).
    const format = requestedFormat(query[FORMAT_PARAMETER], headerValue(headers.accept), csv);
    const input = operationInput(query, request.params as Record<string, unknown>);
    outcome = await core.execute({
      admission,
      operation: route.operation,
      input,
      encoding: 'text',
      requestKey: request.url,
      ifNoneMatch: headers['if-none-match'],
      format,
      channel: 'rest',
    });
    // The answer's headers and bytes are made before the charge is committed: if making them fails, it is refunded.
    // Neither step takes a promise unless it must (compression, counters out of process): the hot path.
    let answer = prepareAnswer(route, request, core.baseUrl, admission, outcome, format !== 'json');
    if (answer instanceof Promise) answer = await answer;
    const committed = outcome.charge.commit();
    if (committed instanceof Promise) await committed;
    writeAnswer(reply, answer.status, answer.headers, answer.body);
  } catch (error) {
    if (reply.raw.headersSent) throw error; // nothing more can be said on this response; Fastify logs it
    const refusal = outcome === undefined ? toApiError(error) : await refundedError(outcome.charge, error);
    return sendProblem(request, reply, refusal, { baseUrl: core.baseUrl, minute: admission?.minute });
  }
}

/**
 * The operation's input: the query's parameters but `format` (the channel's own), then the path's. Written out
 * rather than as an object rest and spread, which V8 runs slowly and this runs on every request; `__proto__` is
 * defined as an own property, as a spread would, so that validation refuses it like any unknown name.
 */
function operationInput(query: Record<string, unknown>, params: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  // The parsed query has no inherited names to walk (query-string.ts); the path parameters are read as own keys.
  for (const name in query) if (name !== FORMAT_PARAMETER) setOwn(input, name, query[name]);
  for (const name of Object.keys(params)) setOwn(input, name, params[name]);
  return input;
}

function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

interface PreparedAnswer {
  readonly status: 200 | 304;
  readonly headers: string[];
  readonly body: Buffer | undefined;
}

/** Status, headers and bytes of a successful answer (compressed when asked for), or of its 304. */
function prepareAnswer(
  route: RouteFacts,
  request: FastifyRequest,
  baseUrl: string,
  admission: Admission,
  outcome: Outcome,
  asCsv: boolean,
): PreparedAnswer | Promise<PreparedAnswer> {
  const list = answerHeaders(route, request, baseUrl, admission, outcome);
  if (asCsv) list.push('content-disposition', `attachment; filename="${csvFileName(route.operation, request.params)}"`);
  if (outcome.notModified) return { status: 304, headers: list, body: undefined };
  const encoding = encodingFor(outcome.body, request);
  const done = (body: Buffer): PreparedAnswer => {
    if (encoding) list.push('content-encoding', encoding);
    list.push('content-type', asCsv ? CSV_MEDIA_TYPE : JSON_MEDIA_TYPE, 'content-length', String(body.length));
    return { status: 200, headers: list, body };
  };
  // A promise only when compressing: the hot path (no Accept-Encoding, or a small answer) takes none here.
  return encoding ? encodeBody(outcome.body, encoding).then(done) : done(outcome.body);
}

/** The headers of a successful answer (or its 304), as a flat `[name, value, …]` list. */
function answerHeaders(
  route: RouteFacts,
  request: FastifyRequest,
  baseUrl: string,
  admission: Admission,
  outcome: Outcome,
): string[] {
  const list: string[] = ['request-id', request.id];
  rateLimitHeaderList(admission.minute, outcome.charge.month, list);
  if (outcome.etag !== undefined) list.push('etag', outcome.etag);
  list.push('cache-control', route.cacheControl, 'vary', route.vary);
  const next = nextCursorOf(outcome.value);
  if (next) {
    // A CSV body has no room for `next_cursor`: the headers carry it (for JSON too, alike).
    const link = `<${nextPageUrl(baseUrl, request.url, next)}>; rel="next"`;
    validateHeaderValue('link', link); // throws here, inside the charge window, rather than in writeHead
    list.push('link', link, 'next-cursor', next);
  }
  return list;
}

/** The encoding to send `body` in: compressed from 1 KiB when `Accept-Encoding` allows. */
function encodingFor(body: Buffer, request: FastifyRequest): ContentEncoding | undefined {
  return body.length >= MIN_COMPRESSED_BYTES
    ? negotiateEncoding(headerValue(request.headers['accept-encoding']))
    : undefined;
}

/** A HEAD answer has GET's headers, `content-length` included, and no body (RFC 9110, 9.3.2). */
function writeAnswer(reply: FastifyReply, status: number, headers: string[], body: Buffer | undefined): void {
  reply.hijack();
  reply.raw.writeHead(status, headers);
  reply.raw.end(reply.request.method === 'HEAD' ? undefined : body);
}

/**
 * The file a CSV answer is saved as: the operation and its path parameters (`indicators-snapshot-population.csv`),
 * kept to letters, digits and hyphens so that the header needs no quoting rules.
 */
function csvFileName(operation: AnyOperation, params: unknown): string {
  const parts = [operation.name, ...Object.values((params ?? {}) as Record<string, unknown>).map(String)];
  const name = parts
    .map((p) =>
      p
        .normalize('NFD')
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter(Boolean)
    .join('-')
    .toLowerCase();
  return `${name.slice(0, 120)}.csv`;
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
