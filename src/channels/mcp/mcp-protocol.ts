/**
 * MCP over Streamable HTTP without sessions (one JSON-RPC message per POST, answered in JSON, never an SSE stream)
 * for any server this service hosts: the data service at `/mcp` and every company deployment at
 * `{agents_url}/<slug>/mcp`. This module knows the protocol: transport rules, versions, the envelope, the methods,
 * which errors are HTTP refusals and which are `isError` results; what a server offers is the `McpAgent` it is
 * given. A 2026-07-28 request's own checks are `modern-era.ts`'s. The order of the checks and every refusal:
 * docs/mcp.md, "Errors" and "Two eras on one endpoint". Methods other than POST: 405 with `Allow: POST`.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { closestName } from '../../core/validate.js';
import type { ErrorPlace } from '../../lib/errors.js';
import { type ApiError, toApiError, toProblem } from '../../lib/errors.js';
import { logIfInternal } from '../../lib/internal-error-log.js';
import type { Json } from '../../lib/json.js';
import type { LimitState } from '../../lib/limit-state.js';
import { underTraceparent } from '../../observability/tracing.js';
import type { RefusalForm } from '../http/framework-refusal.js';
import { headerValue } from '../http/header-value.js';
import {
  invalidParams,
  JSONRPC_CODES,
  JsonRpcError,
  type JsonRpcId,
  JsonRpcReplies,
  type MethodAnswer,
  mountJsonRpcEndpoint,
  notPostRefusal,
  paramsObject,
  parseJsonRpc,
  rawBody,
  requestIdOf,
  unsupportedContentType,
} from '../jsonrpc/index.js';
import { httpRefusalError, isHttpLevel, MCP_HTTP_REFUSAL_CODE, McpStatusError, unsupportedVersion } from './errors.js';
import { isModernRequest, modernResponse, planModern } from './modern-era.js';
import { errorResultJson } from './results.js';
import type { ServerFacts } from './server-facts.js';
import { isSupportedVersion, negotiateVersion, SUPPORTED_PROTOCOL_VERSIONS } from './versions.js';

/** What a tool call of an `McpAgent` answers (the toolkit's type, named here with the interface that uses it). */
export type { MethodAnswer };

const replies = new JsonRpcReplies('application/json');
const EMPTY_RESULT = '{}';

/**
 * One method beyond tools (resources, prompts, completion): its result as JSON text, or it throws a JsonRpcError
 * or an ApiError that refuses the whole HTTP request.
 */
export type McpMethod<P> = (principal: P, params: Json, request: FastifyRequest) => Promise<MethodAnswer>;

/**
 * An MCP server as the protocol layer sees it. `P` is what its admission yields (the caller and its limit state),
 * `T` one of its tools.
 */
export interface McpAgent<P, T> {
  /** Where errors of this request happened: problem `type` URLs and `instance`. */
  errorPlace(request: FastifyRequest): ErrorPlace;
  /** Who calls, counted against the limits. Any ApiError refuses the whole HTTP request with the kind's status. */
  admit(request: FastifyRequest): Promise<P>;
  /** Counts a request that is refused with 405 anyway (GET, DELETE…); undefined when it could not be admitted. */
  countRefused(request: FastifyRequest): Promise<P | undefined>;
  /**
   * Headers every answer to an admitted request carries (the limits); `quota` is the monthly quota's state the call
   * reported (its answer's, or its error's).
   */
  headers(principal: P | undefined, quota?: LimitState): Record<string, string>;
  /**
   * What the server says about itself: its `initialize` and `server/discover` results, its modern-era result members.
   */
  facts(principal: P): ServerFacts;
  /** The `tools/list` result (JSON text): the tools this caller may call. */
  listTools(principal: P): Promise<string>;
  /** A tool by name, if this server has it (an unknown one is -32602). */
  tool(principal: P, name: string): T | undefined;
  /** The names `tool` knows, for the nearest one to a misspelt name in its -32602. */
  toolNames(principal: P): readonly string[];
  /**
   * Runs a tool: the success result as JSON text or bytes, or throws an ApiError, which becomes an `isError`
   * result or, for kinds the error table answers at the HTTP level, a refusal of the request.
   */
  callTool(principal: P, tool: T, args: Json, request: FastifyRequest): Promise<MethodAnswer>;
  /** The methods of the features its facts declare (`ServerFacts.methods`), by method; none: tools only. */
  readonly methods?: Readonly<Record<string, McpMethod<P>>>;
  /**
   * `WWW-Authenticate` of a 401 or of a step-up 403 (an OAuth-protected server names its resource metadata:
   * docs/oauth.md); without it, `Bearer`.
   */
  challenge?(error: ApiError, request: FastifyRequest): string;
}

/** Mounts the MCP endpoint at `path`: POST for messages, every other method 405. */
export function mountMcpEndpoint<P, T>(app: FastifyInstance, path: string, agent: McpAgent<P, T>): void {
  mountJsonRpcEndpoint(app, [path], {
    post: (request, reply) => handlePost(agent, request, reply),
    notPost: (request, reply) => refuseNotPost(agent, request, reply),
    refusedEarly: replies.refuseEarly,
  });
}

// ---------------------------------------------------------------------------------------------------------
// POST
// ---------------------------------------------------------------------------------------------------------

async function handlePost<P, T>(agent: McpAgent<P, T>, request: FastifyRequest, reply: FastifyReply) {
  let principal: P;
  try {
    principal = await agent.admit(request);
  } catch (error) {
    return sendHttpRefusal(agent, request, reply, toApiError(error), undefined, requestIdOf(request.body));
  }

  const version = headerValue(request.headers['mcp-protocol-version']);
  if (version !== undefined && !isSupportedVersion(version)) {
    return sendRpcError(
      reply,
      agent.headers(principal),
      requestIdOf(request.body),
      unsupportedVersion(version, SUPPORTED_PROTOCOL_VERSIONS),
    );
  }
  const contentType = unsupportedContentType(request);
  if (contentType !== undefined) {
    return sendTransportError(
      reply,
      agent.headers(principal),
      415,
      null,
      `Unsupported Media Type: send Content-Type: application/json, not ${contentType}.`,
    );
  }

  const text = rawBody(request.body);
  const parsed = parseJsonRpc(text);
  if (!parsed.ok) {
    // A JSON-RPC response POSTed by the client (to a request this server never sends) is accepted and ignored.
    if (parsed.error.code === JSONRPC_CODES.invalidRequest && isClientResponse(text)) {
      return replies.sendAccepted(reply, agent.headers(principal));
    }
    // A malformed message is a 400; params nested too deeply (jsonrpc/depth.ts) are answered as any bad params.
    const status = parsed.error.code === JSONRPC_CODES.invalidParams ? 200 : 400;
    return sendRpcError(reply.code(status), agent.headers(principal), parsed.id, parsed.error);
  }
  if (parsed.notification) return replies.sendAccepted(reply, agent.headers(principal));
  const { request: rpc, id } = parsed;
  if (id === null) {
    return sendRpcError(
      reply.code(400),
      agent.headers(principal),
      null,
      new JsonRpcError(JSONRPC_CODES.invalidRequest, 'Invalid Request: "id" must not be null.'),
    );
  }

  try {
    const params = paramsObject(rpc);
    if (params === undefined) throw invalidParams('params must be an object');
    const run = (method: string, runParams: Json) => dispatch(agent, principal, request, method, runParams);
    if (isModernRequest(rpc.method, params, version)) {
      // The era changes the envelope, not the work: the same dispatch runs tools/list and tools/call.
      const plan = planModern(agent.facts(principal), request.headers, rpc.method, params);
      const { result, quota }: MethodAnswer =
        plan.result === undefined ? await run(rpc.method, params) : { result: plan.result };
      return replies.send(reply.headers(agent.headers(principal, quota)), modernResponse(id, result, plan.tail));
    }
    const { result, quota } = await run(rpc.method, params);
    return replies.sendResult(reply, agent.headers(principal, quota), id, result);
  } catch (error) {
    if (error instanceof JsonRpcError) return sendRpcError(reply, agent.headers(principal), id, error);
    return sendHttpRefusal(agent, request, reply, toApiError(error), principal, id);
  }
}

/** Runs one request; returns its `result`, or throws a JsonRpcError or an HTTP-level ApiError. */
async function dispatch<P, T>(
  agent: McpAgent<P, T>,
  principal: P,
  request: FastifyRequest,
  method: string,
  params: Json,
): Promise<MethodAnswer> {
  switch (method) {
    case 'tools/call':
      return callTool(agent, principal, request, params);
    case 'tools/list':
      if (params.cursor !== undefined && params.cursor !== null) {
        throw invalidParams('cursor is not one this server issued: the tool list has one page');
      }
      return { result: await agent.listTools(principal) };
    case 'initialize': {
      if (typeof params.protocolVersion !== 'string') throw invalidParams('protocolVersion must be a string');
      return { result: agent.facts(principal).initialize[negotiateVersion(params.protocolVersion)] };
    }
    case 'ping':
      return { result: EMPTY_RESULT };
    default: {
      const { methods } = agent;
      if (methods !== undefined && Object.hasOwn(methods, method)) return methods[method](principal, params, request);
      throw new JsonRpcError(JSONRPC_CODES.methodNotFound, `Method not found: ${method}.`);
    }
  }
}

async function callTool<P, T>(
  agent: McpAgent<P, T>,
  principal: P,
  request: FastifyRequest,
  params: Json,
): Promise<MethodAnswer> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || name === '') throw invalidParams('name must be a string: the tool name');
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw invalidParams('arguments must be an object');
  }
  const tool = agent.tool(principal, name);
  if (tool === undefined) {
    const near = closestName(name, agent.toolNames(principal));
    const hint = near === undefined ? ' (tools/list lists the tools)' : `. Did you mean ${near}?`;
    throw new JsonRpcError(JSONRPC_CODES.invalidParams, `Unknown tool: ${name}${hint}`);
  }
  try {
    // The call continues the client's trace when its `_meta` carries one (docs/deploy.md, Operating).
    const traceparent = (params._meta as Json | undefined)?.traceparent;
    return await underTraceparent(traceparent, () => agent.callTool(principal, tool, (args ?? {}) as Json, request));
  } catch (error) {
    const apiError = toApiError(error);
    if (isHttpLevel(apiError)) throw apiError;
    logIfInternal(request, apiError);
    return { result: errorResultJson(toProblem(apiError, agent.errorPlace(request))), quota: apiError.quota };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Other methods
// ---------------------------------------------------------------------------------------------------------

/**
 * 405 whatever the credential: there is no SSE stream to open and no session to delete. The request still
 * counts against the per-minute limit (the agent decides whose).
 */
async function refuseNotPost<P, T>(agent: McpAgent<P, T>, request: FastifyRequest, reply: FastifyReply) {
  let principal: P | undefined;
  try {
    principal = await agent.countRefused(request);
  } catch {
    // Counted (or refused for its origin); the answer is 405 all the same.
  }
  const error = notPostRefusal(
    request,
    reply,
    'this MCP server is stateless and answers in JSON, with no SSE stream and no session. POST one JSON-RPC message ' +
      'per request.',
  );
  return sendHttpRefusal(agent, request, reply, error, principal, null);
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/**
 * A JSON-RPC error answer: HTTP 200 unless the error carries a status (McpStatusError) or the reply's status was set.
 */
function sendRpcError(reply: FastifyReply, headers: Record<string, string>, id: JsonRpcId, error: JsonRpcError) {
  if (error instanceof McpStatusError) reply.code(error.status);
  return replies.sendError(reply, headers, id, error);
}

/** A refusal of the transport (protocol version, content type): the HTTP status and a JSON-RPC error body. */
function sendTransportError(
  reply: FastifyReply,
  headers: Record<string, string>,
  status: number,
  id: JsonRpcId,
  message: string,
) {
  return sendRpcError(reply.code(status), headers, id, new JsonRpcError(MCP_HTTP_REFUSAL_CODE, message));
}

/**
 * A refusal of the whole HTTP request: the kind's status and headers, and a JSON-RPC error body whose `data` is
 * the REST problem document.
 */
function sendHttpRefusal<P, T>(
  agent: McpAgent<P, T>,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  principal: P | undefined,
  id: JsonRpcId,
) {
  const body = httpRefusalError(error, agent.errorPlace(request));
  const headers = agent.headers(principal, error.quota);
  return replies.sendHttpRefusal(request, reply, { error, headers, id, body, challenge: agent.challenge?.bind(agent) });
}

/** MCP's form of a refusal of the whole HTTP request made before any route ran (app.ts): -32000 with the problem. */
export const mcpRefusal: RefusalForm = replies.refusalForm(httpRefusalError);

/** A JSON-RPC response object (`result` or `error`, an id, no method): what a client sends back to a server request. */
function isClientResponse(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const message = value as Json;
    return (
      message.jsonrpc === '2.0' &&
      !('method' in message) &&
      'id' in message &&
      ('result' in message || 'error' in message)
    );
  } catch {
    return false;
  }
}
