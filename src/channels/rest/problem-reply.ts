/** Writes an ApiError as an RFC 9457 problem document. Used by every REST error path. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, toProblem } from '../../core/errors.js';
import type { Admission } from '../../core/execute.js';
import { rateLimitHeaders } from './headers.js';

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  where: { baseUrl: string; admission?: Admission },
): FastifyReply {
  if (error.kind === 'internal') request.log.error({ err: error.cause ?? error, request_id: request.id }, 'internal error');
  const problem = toProblem(error, { baseUrl: where.baseUrl, requestId: request.id, instance: request.url.split('?')[0] });
  reply
    .code(error.status)
    // Set here, not only by the app's hook: the REST routes are registered outside that hook's scope.
    .header('request-id', request.id)
    .headers(rateLimitHeaders(where.admission))
    .header('cache-control', 'no-store')
    .type('application/problem+json; charset=utf-8');
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  if (error.kind === 'method-not-allowed') reply.header('allow', 'GET, HEAD');
  if (error.kind === 'invalid-auth') reply.header('www-authenticate', 'Bearer');
  return reply.send(JSON.stringify(problem));
}
