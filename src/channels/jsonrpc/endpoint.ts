/**
 * What every JSON-RPC endpoint does the same way over HTTP (A2A and MCP, of the data service and of each company
 * deployment) before a method runs: mounting POST and the 405 of every other method, reading the body and its
 * Content-Type, Fastify's own refusals before the handler (a body over the limit). Each channel says what its
 * protocol says differently: its checks, its methods, its error bodies. Its answers go out by `http-replies.ts`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { methodsOtherThan } from '../../lib/http-methods.js';
import { logInternalError } from '../../lib/internal-error-log.js';
import type { LimitState } from '../../lib/limit-state.js';
import {
  isJsonContentType,
  JSONRPC_CODES,
  JsonRpcError,
  type JsonRpcId,
  type ParsedRequest,
  parseJsonRpc,
} from './jsonrpc.js';
import { acceptRawBodies, rawBody } from './raw-body.js';

/**
 * A method's JSON-RPC `result` (JSON text or UTF-8 bytes), with the monthly quota's state when the call reserved quota.
 */
export interface MethodAnswer {
  readonly result: string | Buffer;
  readonly quota?: LimitState;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

export interface EndpointHandlers {
  readonly post: Handler;
  /** Every other method Node reads: a 405 (`notPostRefusal`). */
  readonly notPost: Handler;
  /** Fastify refused the request before the handler ran (`refusalBeforeHandler` says how). */
  readonly refusedEarly: (error: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
}

const NOT_POST = methodsOtherThan(['POST']);

/**
 * Mounts an endpoint at each of `urls` in a scope of its own, which takes every body as raw text: the channel, not
 * Fastify, answers malformed JSON and a wrong content type.
 */
export function mountJsonRpcEndpoint(app: FastifyInstance, urls: readonly string[], handlers: EndpointHandlers): void {
  app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.setErrorHandler(handlers.refusedEarly);
    for (const url of urls) {
      scope.post(url, handlers.post);
      scope.route({ method: NOT_POST, url, handler: handlers.notPost });
    }
  });
}

/** The 405 of a method other than POST, `Allow: POST` set on the reply; `why` follows "GET is not served: ". */
export function notPostRefusal(request: FastifyRequest, reply: FastifyReply, why: string): ApiError {
  reply.header('allow', 'POST');
  return new ApiError('method-not-allowed', { detail: `${request.method} is not served: ${why}` });
}

/**
 * An error Fastify raised before the handler: a 4xx keeps its status, with -32600 and Fastify's reason; anything
 * else is a 500 with -32603, logged.
 */
export function refusalBeforeHandler(error: unknown, request: FastifyRequest): { status: number; error: JsonRpcError } {
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (status < 500) {
    return {
      status,
      error: new JsonRpcError(JSONRPC_CODES.invalidRequest, `Invalid Request: ${(error as Error).message}`),
    };
  }
  logInternalError(request, error);
  return { status: 500, error: new JsonRpcError(JSONRPC_CODES.internalError) };
}

/** The request's body read as one JSON-RPC request. */
export function parseRequestBody(body: unknown): ParsedRequest {
  return parseJsonRpc(rawBody(body));
}

/** The request's id, if the body is a readable request (for answers given before the body is dispatched). */
export function requestIdOf(body: unknown): JsonRpcId {
  return parseRequestBody(body).id;
}

/** The request's Content-Type when it is given and is not JSON (no Content-Type is read as JSON). */
export function unsupportedContentType(request: FastifyRequest): string | undefined {
  const contentType = request.headers['content-type'];
  return contentType !== undefined && !isJsonContentType(contentType) ? contentType : undefined;
}
