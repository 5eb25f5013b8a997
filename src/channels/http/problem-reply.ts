/**
 * Writes an ApiError as an RFC 9457 problem document: every REST error, and the refusals of the public GET routes
 * beside the agent channels (the agent card).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, toProblem } from '../../lib/errors.js';
import { logIfInternal } from '../../lib/internal-error-log.js';
import type { LimitState } from '../../lib/limit-state.js';
import { rateLimitHeaders } from './limit-headers.js';

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  where: { baseUrl: string; minute?: LimitState },
): FastifyReply {
  logIfInternal(request, error);
  const problem = toProblem(error, {
    baseUrl: where.baseUrl,
    requestId: request.id,
    instance: request.url.split('?')[0],
  });
  reply
    .code(error.status)
    // Set here, not only by the app's hook: the REST routes are registered outside that hook's scope.
    .header('request-id', request.id)
    .headers(rateLimitHeaders(where.minute, error.quota))
    .header('cache-control', 'no-store')
    .type('application/problem+json; charset=utf-8');
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  // A GET route's refusal; the not-found handler sets the Allow of a path routed for other methods itself.
  if (error.kind === 'method-not-allowed' && !reply.hasHeader('allow')) reply.header('allow', 'GET, HEAD');
  if (error.kind === 'invalid-auth') reply.header('www-authenticate', 'Bearer');
  return reply.send(JSON.stringify(problem));
}
