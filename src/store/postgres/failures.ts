import { DependencyUnavailableError } from '../../lib/dependency.js';

/**
 * Which PostgreSQL errors mean "the database cannot be reached" (a fault of the dependency, answered 503 and
 * retried) rather than "this statement is wrong" (a bug, answered 500).
 */

/** Socket errors of the driver, and the messages it gives when a connection ends or cannot be had in time. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const NETWORK_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /^timeout expired$/i, // a connection not made within its timeout
  /^Query read timeout$/i, // a statement whose answer did not come in time (the pool's `query_timeout`)
];

/**
 * SQLSTATEs of a server that is going away, starting, refusing or not answering in time: class 08 (connection
 * exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery),
 * 53300 too_many_connections, 57014 query_canceled (a statement cancelled by `statement_timeout`).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')))
    return true;
  return NETWORK_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** The error to throw for `error`: unchanged, unless it says the database cannot be reached. */
export function unavailableWhenUnreachable(error: unknown): unknown {
  if (error instanceof DependencyUnavailableError || !isConnectionFailure(error)) return error;
  return new DependencyUnavailableError('store', { cause: error });
}
