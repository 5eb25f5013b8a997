/**
 * Fastify plumbing for a JSON-RPC endpoint: inside the channel's own encapsulated plugin, take every body as
 * raw text, whatever its Content-Type, so the channel (not Fastify) answers malformed JSON with -32700 and a
 * wrong content type with its own error. Call it on the plugin scope, never on the root instance: the REST
 * channel and the other agent channel keep their parsers.
 *
 *   app.register(async (scope) => { acceptRawBodies(scope); scope.post('/a2a', handler); });
 */
import type { FastifyInstance } from 'fastify';

/** The largest JSON-RPC body accepted (bytes); Fastify answers a larger one with 413 before the handler. */
export const JSONRPC_BODY_LIMIT = 1024 * 1024;

export function acceptRawBodies(scope: FastifyInstance, bodyLimit: number = JSONRPC_BODY_LIMIT): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, body));
}

/** The raw body as text ('' when there was none). */
export function rawBody(body: unknown): string {
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return '';
}
