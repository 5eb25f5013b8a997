/** HTTP answers every JSON-RPC endpoint gives the same way, whatever its channel. */
import type { FastifyReply } from 'fastify';

/**
 * A notification (a request without an `id`, JSON-RPC 2.0 §4.1: the server MUST NOT reply to it) is accepted with
 * 202 and no body, and not run: nothing is executed or charged (docs/a2a.md, docs/mcp.md). Fastify would send
 * `null` for `send(null)` under a JSON content type, hence `send()`.
 */
export function sendAccepted(reply: FastifyReply, headers: Record<string, string>): FastifyReply {
  return reply.code(202).headers(headers).header('cache-control', 'no-store').send();
}
