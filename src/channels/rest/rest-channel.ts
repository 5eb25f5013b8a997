/**
 * The REST channel: one GET route per operation, derived from the registry. It maps path and query to the
 * operation's input and the outcome or error to HTTP; every check and every handler runs in the core.
 * List endpoints also answer `text/csv` when the request's `Accept` prefers it (csv.ts); errors stay problem+json.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, toApiError } from '../../core/errors.js';
import type { Admission, Core } from '../../core/execute.js';
import type { AnyOperation } from '../../core/operation.js';
import type { Registry } from '../../operations/registry.js';
import { CSV_MEDIA_TYPE, type CsvTable, csvTable, prefersCsv } from './csv.js';
import { rateLimitHeaders } from './headers.js';
import { sendProblem } from './problem-reply.js';

const NOT_GET = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export function registerRestChannel(app: FastifyInstance, core: Core, registry: Registry): void {
  for (const operation of registry.all) {
    const csv = csvTable(operation.output);
    app.get(operation.rest.path, (request, reply) => handle(core, operation, csv, request, reply));
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

async function handle(core: Core, operation: AnyOperation, csv: CsvTable | undefined, request: FastifyRequest, reply: FastifyReply) {
  let admission: Admission | undefined;
  // Only a list endpoint has a CSV form; any other answers JSON whatever `Accept` says (a preference, not a demand).
  const asCsv = csv !== undefined && prefersCsv(header(request.headers.accept));
  try {
    admission = await core.admit({
      authorization: request.headers.authorization,
      apiKey: header(request.headers['x-api-key']),
      origin: request.headers.origin,
      clientAddress: request.ip,
    });
    const input = { ...(request.query as Record<string, unknown>), ...(request.params as Record<string, unknown>) };
    const outcome = await core.execute({
      admission,
      operation,
      input,
      encoding: 'text',
      requestKey: request.url,
      ifNoneMatch: request.headers['if-none-match'],
      // The core hashes the CSV itself, so the ETag and the 304 are those of what is sent.
      render: asCsv ? { format: 'csv', fn: csv.render } : undefined,
    });
    reply
      .headers(rateLimitHeaders(admission))
      .header('etag', outcome.etag)
      .header('cache-control', operation.cache === 'caller' ? 'private, no-store' : 'private, max-age=60')
      .header('vary', csv ? 'Authorization, X-API-Key, Accept, Accept-Encoding' : 'Authorization, X-API-Key, Accept-Encoding');
    const next = nextCursorOf(outcome.value);
    if (next) {
      // A CSV body has no room for `next_cursor`: the headers carry it (for JSON too, alike).
      reply.header('link', `<${nextPageUrl(core.baseUrl, request.url, next)}>; rel="next"`).header('next-cursor', next);
    }
    if (outcome.notModified) return reply.code(304).send();
    return reply.type(asCsv ? CSV_MEDIA_TYPE : 'application/json; charset=utf-8').send(outcome.body);
  } catch (error) {
    return sendProblem(request, reply, toApiError(error), { baseUrl: core.baseUrl, admission });
  }
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
