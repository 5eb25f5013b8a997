/** What the core's admission reads of an HTTP request, the same for every channel. */
import type { FastifyRequest } from 'fastify';
import type { RequestFacts } from '../../core/execute.js';
import { traceOf } from './request-trace.js';

export function requestFacts(request: FastifyRequest): RequestFacts {
  const apiKey = request.headers['x-api-key'];
  return {
    authorization: request.headers.authorization,
    apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey,
    origin: request.headers.origin,
    clientAddress: request.ip,
    trace: traceOf(request),
  };
}
