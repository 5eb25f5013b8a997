/** What the core's admission reads of an HTTP request, the same for every channel. */

import type { FastifyRequest } from 'fastify';
import type { RequestFacts } from '../../core/admission.js';
import { headerValue } from './header-value.js';
import { traceOf } from './request-trace.js';

export function requestFacts(request: FastifyRequest): RequestFacts {
  return {
    authorization: request.headers.authorization,
    apiKey: headerValue(request.headers['x-api-key']),
    origin: request.headers.origin,
    clientAddress: request.ip,
    trace: traceOf(request),
  };
}
