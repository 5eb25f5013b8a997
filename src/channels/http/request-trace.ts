/**
 * What a request's log line says beyond HTTP (request-log.ts): the account that was admitted and the operation
 * that ran. The core writes them as it goes (`RequestFacts.trace`); kept beside the request, not in it, so that
 * the hot path adds no Fastify decoration.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestTrace } from '../../core/execute.js';

const traces = new WeakMap<FastifyRequest, RequestTrace>();

export function traceOf(request: FastifyRequest): RequestTrace {
  let trace = traces.get(request);
  if (!trace) {
    trace = {};
    traces.set(request, trace);
  }
  return trace;
}
