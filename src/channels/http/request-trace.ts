/**
 * What a request's log line says beyond HTTP (request-log.ts): the account that was admitted and the operation
 * that ran. The core writes them as it goes (`RequestFacts.trace`); kept on the Node request under a symbol of this
 * module's, not as a Fastify decoration, and not in a WeakMap, whose entries cost every request more than a property.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { RequestTrace } from '../../core/admission.js';

const TRACE = Symbol('munidata.requestTrace');

type TracedMessage = IncomingMessage & { [TRACE]?: RequestTrace };

export function traceOf(request: FastifyRequest): RequestTrace {
  const raw = request.raw as TracedMessage;
  let trace = raw[TRACE];
  if (trace === undefined) {
    trace = {};
    raw[TRACE] = trace;
  }
  return trace;
}
