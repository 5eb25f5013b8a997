/** The one log line of an internal error, on every channel: the cause for operators, never for the caller. */
import type { ApiError } from './errors.js';

/** What is logged through: a Fastify request (its id and its logger). */
interface LoggingRequest {
  readonly id: string;
  readonly log: { error(details: object, message: string): void };
}

export function logInternalError(request: LoggingRequest, err: unknown): void {
  request.log.error({ err, request_id: request.id }, 'internal error');
}

/** Logs `error` when it is an internal error (with the cause it wraps); any other kind is the caller's to read. */
export function logIfInternal(request: LoggingRequest, error: ApiError): void {
  if (error.kind === 'internal') logInternalError(request, error.cause ?? error);
}
