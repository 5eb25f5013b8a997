/** How a JSON-RPC endpoint answers over HTTP, whatever its channel: results, errors, refusals of the request. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError, ErrorPlace } from '../../lib/errors.js';
import { logIfInternal } from '../../lib/internal-error-log.js';
import { refusalBeforeHandler } from './endpoint.js';
import { type JsonRpcError, type JsonRpcId, serialize, serializeRawResult, toErrorResponse } from './jsonrpc.js';

/** How a channel sends its JSON-RPC answers: its media type (A2A names the charset, MCP does not). */
export class JsonRpcReplies {
  readonly #contentType: string;

  constructor(contentType: string) {
    this.#contentType = contentType;
  }

  /** A response body (JSON text or bytes), never stored by a cache. */
  send(reply: FastifyReply, body: string | Buffer): FastifyReply {
    return reply.header('cache-control', 'no-store').type(this.#contentType).send(body);
  }

  /** Fastify's own refusal before the handler (a body over the limit), with its status (`refusalBeforeHandler`). */
  readonly refuseEarly = (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const refusal = refusalBeforeHandler(error, request);
    return this.sendError(reply.code(refusal.status), {}, null, refusal.error);
  };

  /** The channel's form of a refusal made before any route ran (app.ts, `RefusalForm`): `toError`'s error, id null. */
  refusalForm(toError: (error: ApiError, place: ErrorPlace) => JsonRpcError) {
    return (error: ApiError, place: ErrorPlace) => ({
      contentType: this.#contentType,
      body: serialize(toErrorResponse(null, toError(error, place))),
    });
  }

  /** A method's result (JSON text or bytes, copied once into the response: `serializeRawResult`). */
  sendResult(
    reply: FastifyReply,
    headers: Record<string, string>,
    id: JsonRpcId,
    result: string | Buffer,
  ): FastifyReply {
    return this.send(reply.headers(headers), serializeRawResult(id, result));
  }

  /**
   * A notification (a request without an `id`, JSON-RPC 2.0 §4.1: the server MUST NOT reply to it) is accepted with
   * 202 and no body, and not run: nothing is executed or charged (docs/a2a.md, docs/mcp.md). Fastify would send
   * `null` for `send(null)` under a JSON content type, hence `send()`.
   */
  sendAccepted(reply: FastifyReply, headers: Record<string, string>): FastifyReply {
    return reply.code(202).headers(headers).header('cache-control', 'no-store').send();
  }

  /** A JSON-RPC error: HTTP 200 unless the reply's status was set. */
  sendError(reply: FastifyReply, headers: Record<string, string>, id: JsonRpcId, error: JsonRpcError): FastifyReply {
    return this.send(reply.headers(headers), serialize(toErrorResponse(id, error)));
  }

  /**
   * A refusal of the whole HTTP request (401, 403, 404, 405, 429, 503): the kind's status and headers, its
   * `Retry-After` and bearer challenge, and `body`, the channel's JSON-RPC error for it.
   */
  sendHttpRefusal(request: FastifyRequest, reply: FastifyReply, refusal: HttpRefusal): FastifyReply {
    const { error } = refusal;
    logIfInternal(request, error);
    reply.code(error.status).headers(refusal.headers);
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    if (error.kind === 'invalid-auth' || error.challenge !== undefined) {
      reply.header('www-authenticate', refusal.challenge?.(error, request) ?? 'Bearer');
    }
    return this.send(reply, serialize(toErrorResponse(refusal.id, refusal.body)));
  }
}

export interface HttpRefusal {
  readonly error: ApiError;
  readonly headers: Record<string, string>;
  readonly id: JsonRpcId;
  readonly body: JsonRpcError;
  /** `WWW-Authenticate` of a 401 or a step-up 403; without it, `Bearer`. */
  readonly challenge?: (error: ApiError, request: FastifyRequest) => string;
}
