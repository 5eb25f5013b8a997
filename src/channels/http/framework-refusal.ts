/**
 * Answers the framework gives before any route runs — a URL that cannot be decoded, a malformed request or headers
 * too large for Node's parser, a body over the limit — in the form of the channel the request was for, with a
 * request id (docs/api.md, Errors): a problem document on REST and everywhere else, a JSON-RPC error on the A2A
 * and MCP endpoints. Each channel gives its form (`RefusalForm`); app.ts picks one by the request's path.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ApiError, type ErrorPlace, toProblem } from '../../lib/errors.js';

export interface Refusal {
  readonly contentType: string;
  readonly body: string;
}

/** A channel's error form for a refusal of the whole HTTP request. */
export type RefusalForm = (error: ApiError, place: ErrorPlace) => Refusal;

export const problemRefusal: RefusalForm = (error, place) => ({
  contentType: 'application/problem+json; charset=utf-8',
  body: JSON.stringify(toProblem(error, place)),
});

/** The path of the request line at the start of what Node read of a request it could not parse ('' if none). */
export function requestLinePath(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const end = rawPacket.indexOf('\r\n');
  const line = rawPacket.subarray(0, end < 0 ? Math.min(rawPacket.length, 8192) : end).toString('latin1');
  const target = line.split(' ')[1] ?? '';
  return target.startsWith('/') ? target.split('?')[0] : '';
}

/**
 * Writes a refusal straight to a socket Node's HTTP parser gave up on (Fastify's `clientErrorHandler`), then
 * closes it: what follows on that connection cannot be read either.
 */
export function writeSocketRefusal(socket: Socket, error: ApiError, requestId: string, refusal: Refusal): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    `Content-Type: ${refusal.contentType}`,
    `Content-Length: ${Buffer.byteLength(refusal.body)}`,
    `Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${refusal.body}`);
}
