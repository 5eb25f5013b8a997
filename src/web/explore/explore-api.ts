/**
 * The explorer's data: every operation of the registry under `/explore/api` + its REST path (JSON) and under
 * `/explore/csv` + its REST path (CSV, for list operations), for the viewer's session instead of an API key.
 * The request after the prefix is exactly the `/v1` request a picture's "data" link names, and it runs through
 * the same core: plan, domains, per-minute limit, monthly quota, validation, handler, the answer cache and the
 * ETag (the same bytes and the same ETag as `/v1`; a 304 is free). Beside them, the explorer's own requests, which
 * no /v1 path answers, through the same core (latest-signals.ts). See docs/explorer.md.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders } from '../../channels/http/limit-headers.js';
import { sendProblem } from '../../channels/http/problem-reply.js';
import type { Admission } from '../../core/admission.js';
import { refundedError } from '../../core/charge.js';
import type { Core } from '../../core/core.js';
import { CSV_MEDIA_TYPE } from '../../core/csv.js';
import type { Outcome } from '../../core/execution.js';
import type { AnyOperation } from '../../core/operation.js';
import { toApiError } from '../../lib/errors.js';
import type { Registry } from '../../operations/registry.js';
import { integritySharesOperation } from './integrity-shares.js';
import { latestSignalsOperation } from './latest-signals.js';
import { admitViewer } from './viewer.js';

export const API_PREFIX = '/explore/api';
export const CSV_PREFIX = '/explore/csv';

/**
 * Registers the data routes. Answers every operation's REST path (the /v1 route pattern, `:name` for a parameter)
 * and whether it is answered as CSV too: the pages offer a CSV link for those alone.
 */
export function registerExplorerApi(app: FastifyInstance, core: Core, registry: Registry): Record<string, boolean> {
  const paths: Record<string, boolean> = {};
  for (const operation of registry.all) {
    app.get(`${API_PREFIX}${operation.rest.path}`, (request, reply) => answer(core, operation, 'json', request, reply));
    paths[operation.rest.path] = core.offersCsv(operation);
    if (paths[operation.rest.path]) {
      app.get(`${CSV_PREFIX}${operation.rest.path}`, (request, reply) =>
        answer(core, operation, 'csv', request, reply),
      );
    }
  }
  for (const operation of explorerOperations(registry)) {
    app.get(`${API_PREFIX}${operation.rest.path}`, (request, reply) => answer(core, operation, 'json', request, reply));
  }
  return paths;
}

/** The explorer's own operations: built on the registry's, served only here (never on /v1, A2A or MCP). */
function explorerOperations(registry: Registry): AnyOperation[] {
  const signalsList = registry.all.find((op) => op.name === 'signals_list');
  return [...(signalsList ? [latestSignalsOperation(signalsList)] : []), integritySharesOperation()];
}

async function answer(
  core: Core,
  operation: AnyOperation,
  format: 'json' | 'csv',
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let admission: Admission | undefined;
  let outcome: Outcome | undefined;
  try {
    admission = await admitViewer(core, request, reply);
    if (!admission) return reply;
    outcome = await core.execute({
      admission,
      operation,
      input: { ...(request.query as Record<string, unknown>), ...(request.params as Record<string, unknown>) },
      encoding: 'text',
      // The `/v1` request this one mirrors: the same cached answer, the same bytes, the same ETag (an explorer
      // operation's own request is its own key: the operation's name is part of every key).
      requestKey: request.url.slice((format === 'json' ? API_PREFIX : CSV_PREFIX).length),
      ifNoneMatch: request.headers['if-none-match'],
      format,
    });
    await outcome.charge.commit();
    reply
      .headers(rateLimitHeaders(admission.minute, outcome.charge.month))
      .header('cache-control', operation.cache === 'caller' ? 'private, no-store' : 'private, max-age=60')
      .header('vary', 'Cookie, Authorization');
    if (outcome.etag !== undefined) reply.header('etag', outcome.etag);
    if (outcome.notModified) return reply.code(304).send();
    return reply.type(format === 'csv' ? CSV_MEDIA_TYPE : 'application/json; charset=utf-8').send(outcome.body);
  } catch (error) {
    const refusal = outcome === undefined ? toApiError(error) : await refundedError(outcome.charge, error);
    return sendProblem(request, reply, refusal, { baseUrl: core.baseUrl, minute: admission?.minute });
  }
}
