/**
 * The bulk download's file route (docs/api.md, Bulk download): `GET /v1/bulk/{dataset}`, the REST-only route of the
 * operation that lists the datasets (its `rest.download`). The core guards it, reserves it one request and makes the
 * file; this writes the file to the Node response as it comes, with backpressure (a slow reader holds a page in
 * memory, never the file), compressed on the way when `Accept-Encoding` allows.
 *
 * Once the status line is sent nothing can be refused any more: a file that fails midway (the store, or data that
 * moved under an announced length) is cut — the connection closed before the last byte — so that a client never
 * takes a part for the whole. The first page is read before the status line, so a store that cannot be reached is
 * still a 503 problem.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import { refundedError } from '../../core/charge.js';
import type { Core } from '../../core/core.js';
import { CSV_FORMAT_DIALECTS, CSV_MEDIA_TYPE } from '../../core/csv.js';
import type { Download } from '../../core/download.js';
import type { FileFormat } from '../../core/execution.js';
import type { AnyOperation, DownloadRoute } from '../../core/operation.js';
import { ApiError, toApiError } from '../../lib/errors.js';
import { headerValue } from '../http/header-value.js';
import { rateLimitHeaderList } from '../http/limit-headers.js';
import { sendProblem } from '../http/problem-reply.js';
import { requestFacts } from '../http/request-facts.js';
import { encodingStream, negotiateEncoding } from './content-encoding.js';
import { FORMAT_PARAMETER } from './csv-negotiation.js';

const FILE_FORMATS = Object.keys(CSV_FORMAT_DIALECTS) as FileFormat[];
/** Chunks read before the status line: the header row and the first page, which is the first read of the store. */
const READ_AHEAD = 2;

export function registerDownloadRoute(
  app: FastifyInstance,
  core: Core,
  operation: AnyOperation,
  route: DownloadRoute,
): void {
  app.get(route.path, (request, reply) => handleDownload(core, operation, request, reply));
}

async function handleDownload(core: Core, operation: AnyOperation, request: FastifyRequest, reply: FastifyReply) {
  let admission: Admission | undefined;
  let file: Download | undefined;
  try {
    admission = await core.admit(requestFacts(request));
    const format = fileFormat(request.query as Record<string, unknown>);
    const { dataset } = request.params as { dataset: string };
    const ifNoneMatch = headerValue(request.headers['if-none-match']);
    file = await core.download({ admission, operation, dataset, format, ifNoneMatch, channel: 'rest' });
    await sendFile(request, reply, admission, file);
    // Committed once sent: a client that hung up midway was still sent what it read.
    await file.charge.commit();
  } catch (error) {
    const refusal = file === undefined ? toApiError(error) : await refundedError(file.charge, error);
    if (reply.raw.headersSent) {
      request.log.warn({ err: error, request_id: request.id }, 'bulk file cut short');
      reply.raw.destroy();
      return;
    }
    return sendProblem(request, reply, refusal, { baseUrl: core.baseUrl, minute: admission?.minute });
  }
}

/** `format`, the only query parameter: `csv` (default) or `csv-excel`. */
function fileFormat(query: Record<string, unknown>): FileFormat {
  const unknown = Object.keys(query).filter((name) => name !== FORMAT_PARAMETER);
  if (unknown.length > 0) {
    throw new ApiError('validation-error', {
      detail: `${unknown.join(', ')}: not a parameter of a bulk file (it takes \`format\` alone).`,
      errors: unknown.map((field) => ({ field, message: 'is not a parameter of this operation' })),
    });
  }
  const given = query[FORMAT_PARAMETER];
  const value = Array.isArray(given) ? given[given.length - 1] : (given ?? 'csv');
  if (!(FILE_FORMATS as unknown[]).includes(value)) {
    throw new ApiError('validation-error', {
      detail: `\`format\` of a bulk file must be one of ${FILE_FORMATS.join(', ')}: the files are CSV.`,
      errors: [{ field: FORMAT_PARAMETER, message: `must be one of ${FILE_FORMATS.join(', ')}` }],
    });
  }
  return value as FileFormat;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  admission: Admission,
  file: Download,
): Promise<void> {
  const headers: string[] = ['request-id', request.id];
  rateLimitHeaderList(admission.minute, file.charge.month, headers);
  if (file.etag !== undefined) headers.push('etag', file.etag);
  headers.push('cache-control', 'private, max-age=60', 'vary', 'Authorization, X-API-Key, Accept-Encoding');
  if (file.notModified) {
    reply.hijack();
    reply.raw.writeHead(304, headers);
    reply.raw.end();
    return;
  }
  const body = file.body[Symbol.asyncIterator]();
  const ahead: Buffer[] = [];
  if (request.method !== 'HEAD') {
    for (let i = 0; i < READ_AHEAD; i++) {
      const next = await body.next();
      if (next.done) break;
      ahead.push(next.value);
    }
  }
  const encoding = negotiateEncoding(headerValue(request.headers['accept-encoding']));
  headers.push(
    'content-type',
    CSV_MEDIA_TYPE,
    'content-disposition',
    `attachment; filename="${file.dataset.name}.csv"`,
  );
  if (encoding !== undefined) headers.push('content-encoding', encoding);
  else if (file.size !== undefined) headers.push('content-length', String(file.size));
  reply.hijack();
  reply.raw.writeHead(200, headers);
  if (request.method === 'HEAD') {
    reply.raw.end();
    return;
  }
  let failure: unknown;
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      yield* ahead;
      for (let next = await body.next(); !next.done; next = await body.next()) yield next.value;
    } catch (error) {
      failure = error;
      throw error;
    }
  }
  const source = Readable.from(bytes(), { objectMode: false });
  try {
    await (encoding === undefined
      ? pipeline(source, reply.raw)
      : pipeline(source, encodingStream(encoding), reply.raw));
  } catch (error) {
    // Ours (the file failed): the charge is given back and the answer is cut. Else the client hung up.
    if (failure !== undefined) throw failure;
    request.log.debug({ err: error, request_id: request.id }, 'bulk file: the client closed the connection');
  }
}
