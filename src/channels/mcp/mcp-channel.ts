/**
 * The MCP channel: `POST /mcp`, Streamable HTTP without sessions, one JSON-RPC message per POST, answered in
 * JSON (never an SSE stream). A translator over the registry and the core: every operation is a tool of the
 * same name and input; every check and handler runs in the core; each error takes the MCP form that the core's
 * error table (ERROR_KINDS, `mcp`) gives its kind.
 *
 * POST /mcp, in order:
 *   HTTP:     Origin (403) → credential (401) → per-minute limit (429) → plan with data API access (403)
 *             → MCP-Protocol-Version (400) → Content-Type (415) → one JSON-RPC message (400: -32700, batch -32600)
 *             → a notification or a response from the client: 202, empty body
 *   JSON-RPC: method (-32601) → params (-32602) → initialize | ping | tools/list | tools/call
 *   tools/call: unknown tool (-32602) → core.execute → result, or `isError` result, or an HTTP-level refusal
 *
 * GET, DELETE and every other method: 405 with `Allow: POST` (no SSE stream, no session to delete).
 *
 * Counting: every HTTP request counts against the per-minute limit (`core.admit`); only `tools/call` of a
 * data tool counts against the monthly quota (`core.execute` charges it; `me` is free).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, toApiError } from '../../core/errors.js';
import type { Admission, Core, RequestFacts } from '../../core/execute.js';
import type { Registry } from '../../operations/registry.js';
import {
  isJsonContentType,
  JSONRPC_CODES,
  JsonRpcError,
  type JsonRpcId,
  paramsObject,
  parseJsonRpc,
  serialize,
  serializeRawResult,
  toErrorResponse,
} from '../jsonrpc/jsonrpc.js';
import { acceptRawBodies, rawBody } from '../jsonrpc/raw-body.js';
import { rateLimitHeaders } from '../rest/headers.js';
import { isHttpLevel, MCP_HTTP_REFUSAL_CODE, mcpProblem } from './errors.js';
import { INITIALIZE_RESULTS, isSupportedVersion, MCP_PATH, negotiateVersion, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.js';
import { errorResultJson, SuccessResultCache } from './results.js';
import { ToolCatalogue } from './tools.js';

type Json = Record<string, unknown>;

/** Methods other than POST: refused with 405. (HEAD comes with GET.) */
const NOT_POST = ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'] as const;
const ALLOW = 'POST';
const EMPTY_RESULT = '{}';

interface Channel {
  readonly core: Core;
  readonly tools: ToolCatalogue;
  readonly results: SuccessResultCache;
}

export function registerMcpChannel(app: FastifyInstance, core: Core, registry: Registry): void {
  const channel: Channel = { core, tools: new ToolCatalogue(registry.all), results: new SuccessResultCache() };

  app.register(async (scope) => {
    acceptRawBodies(scope);
    // Fastify's own refusals before the handler (a body over the limit) as JSON-RPC answers with their status.
    scope.setErrorHandler((error, request, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status >= 500) request.log.error({ err: error, request_id: request.id }, 'internal error');
      const rpc =
        status < 500
          ? new JsonRpcError(JSONRPC_CODES.invalidRequest, (error as Error).message)
          : new JsonRpcError(JSONRPC_CODES.internalError);
      return sendJson(reply.code(Math.min(status, 500)), serialize(toErrorResponse(null, rpc)));
    });
    scope.post(MCP_PATH, (request, reply) => handlePost(channel, request, reply));
    scope.route({ method: [...NOT_POST], url: MCP_PATH, handler: (request, reply) => handleNotPost(channel, request, reply) });
  });
}

// ---------------------------------------------------------------------------------------------------------
// POST
// ---------------------------------------------------------------------------------------------------------

async function handlePost(channel: Channel, request: FastifyRequest, reply: FastifyReply) {
  const { core } = channel;
  let admission: Admission;
  try {
    admission = await core.admitDataChannel(requestFacts(request));
  } catch (error) {
    return sendHttpRefusal(channel, request, reply, toApiError(error), undefined, idOf(request.body));
  }

  const version = single(request.headers['mcp-protocol-version']);
  if (version !== undefined && !isSupportedVersion(version)) {
    return sendTransportError(
      reply,
      admission,
      400,
      idOf(request.body),
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}; this server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(' and ')}.`,
    );
  }
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    return sendTransportError(
      reply,
      admission,
      415,
      null,
      `Unsupported Media Type: send Content-Type: application/json, not ${contentType}.`,
    );
  }

  const text = rawBody(request.body);
  const parsed = parseJsonRpc(text);
  if (!parsed.ok) {
    // A JSON-RPC response POSTed by the client (to a request this server never sends) is accepted and ignored.
    if (parsed.error.code === JSONRPC_CODES.invalidRequest && isClientResponse(text)) return sendAccepted(reply, admission);
    return sendRpcError(reply.code(400), admission, parsed.id, parsed.error);
  }
  if (parsed.notification) return sendAccepted(reply, admission);
  const { request: rpc, id } = parsed;
  if (id === null) {
    return sendRpcError(
      reply.code(400),
      admission,
      null,
      new JsonRpcError(JSONRPC_CODES.invalidRequest, 'Invalid Request: "id" must not be null.'),
    );
  }

  try {
    const params = paramsObject(rpc);
    if (params === undefined) throw invalidParams('params must be an object');
    const result = await dispatch(channel, request, admission, rpc.method, params);
    const body = serializeRawResult(id, result);
    return sendJson(reply.headers(rateLimitHeaders(admission)), body);
  } catch (error) {
    if (error instanceof JsonRpcError) return sendRpcError(reply, admission, id, error);
    return sendHttpRefusal(channel, request, reply, toApiError(error), admission, id);
  }
}

/** Runs one request; returns its `result` as JSON text, or throws a JsonRpcError or an HTTP-level ApiError. */
async function dispatch(
  channel: Channel,
  request: FastifyRequest,
  admission: Admission,
  method: string,
  params: Json,
): Promise<string | Buffer> {
  switch (method) {
    case 'tools/call':
      return callTool(channel, request, admission, params);
    case 'tools/list':
      if (params.cursor !== undefined && params.cursor !== null) {
        throw invalidParams('cursor is not one this server issued: the tool list has one page');
      }
      return channel.tools.listResult(await channel.core.callableOperations(admission.caller));
    case 'initialize': {
      if (typeof params.protocolVersion !== 'string') throw invalidParams('protocolVersion must be a string');
      return INITIALIZE_RESULTS[negotiateVersion(params.protocolVersion)];
    }
    case 'ping':
      return EMPTY_RESULT;
    default:
      throw new JsonRpcError(JSONRPC_CODES.methodNotFound, `Method not found: ${method}. This server offers tools only.`);
  }
}

async function callTool(channel: Channel, request: FastifyRequest, admission: Admission, params: Json): Promise<string | Buffer> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || name === '') throw invalidParams('name must be a string: the tool name');
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    throw invalidParams('arguments must be an object');
  }
  const tool = channel.tools.get(name);
  if (!tool) throw new JsonRpcError(JSONRPC_CODES.invalidParams, `Unknown tool: ${name}`);
  try {
    const outcome = await channel.core.execute({
      admission,
      operation: tool.operation,
      input: (args ?? {}) as Json,
      encoding: 'json',
      etag: false, // no conditional requests on MCP
    });
    return channel.results.get(outcome.json, tool.wrapsArray);
  } catch (error) {
    const apiError = toApiError(error);
    if (isHttpLevel(apiError.kind)) throw apiError;
    if (apiError.kind === 'internal') request.log.error({ err: apiError.cause ?? apiError, request_id: request.id }, 'internal error');
    return errorResultJson(mcpProblem(apiError, channel.core.baseUrl, request.id));
  }
}

function invalidParams(why: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_CODES.invalidParams, `Invalid params: ${why}.`);
}

// ---------------------------------------------------------------------------------------------------------
// Other methods
// ---------------------------------------------------------------------------------------------------------

/**
 * 405 whatever the credential: there is no SSE stream to open and no session to delete. The request still
 * counts against the per-minute limit (of the key when it is valid, else of the client address).
 */
async function handleNotPost(channel: Channel, request: FastifyRequest, reply: FastifyReply) {
  let admission: Admission | undefined;
  try {
    admission = await channel.core.admit(requestFacts(request));
  } catch {
    // Counted (or refused for its origin); the answer is 405 all the same.
  }
  const error = new ApiError('method-not-allowed', {
    detail: `${request.method} is not served: this MCP server is stateless and answers in JSON, with no SSE stream and no session. POST one JSON-RPC message per request.`,
  });
  reply.header('allow', ALLOW);
  return sendHttpRefusal(channel, request, reply, error, admission, null);
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

function requestFacts(request: FastifyRequest): RequestFacts {
  return {
    authorization: request.headers.authorization,
    apiKey: single(request.headers['x-api-key']),
    origin: request.headers.origin,
    clientAddress: request.ip,
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sendJson(reply: FastifyReply, body: string | Buffer) {
  return reply.header('cache-control', 'no-store').type('application/json').send(body);
}

/** 202 with no body (Fastify would send `null` for `send(null)` under a JSON content type). */
function sendAccepted(reply: FastifyReply, admission: Admission) {
  return reply.code(202).headers(rateLimitHeaders(admission)).header('cache-control', 'no-store').send();
}

/** A JSON-RPC error answer (HTTP 200 unless the reply's status was set). */
function sendRpcError(reply: FastifyReply, admission: Admission, id: JsonRpcId, error: JsonRpcError) {
  return sendJson(reply.headers(rateLimitHeaders(admission)), serialize(toErrorResponse(id, error)));
}

/** A refusal of the transport (protocol version, content type): the HTTP status and a JSON-RPC error body. */
function sendTransportError(reply: FastifyReply, admission: Admission, status: number, id: JsonRpcId, message: string) {
  return sendRpcError(reply.code(status), admission, id, new JsonRpcError(MCP_HTTP_REFUSAL_CODE, message));
}

/**
 * A refusal of the whole HTTP request: the kind's status and headers, and a JSON-RPC error body whose `data` is
 * the REST problem document.
 */
function sendHttpRefusal(
  channel: Channel,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  admission: Admission | undefined,
  id: JsonRpcId,
) {
  if (error.kind === 'internal') request.log.error({ err: error.cause ?? error, request_id: request.id }, 'internal error');
  const problem = mcpProblem(error, channel.core.baseUrl, request.id);
  reply.code(error.status).headers(rateLimitHeaders(admission));
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  if (error.kind === 'invalid-auth') reply.header('www-authenticate', 'Bearer');
  const rpc = new JsonRpcError(MCP_HTTP_REFUSAL_CODE, problem.detail ?? problem.title, problem);
  return sendJson(reply, serialize(toErrorResponse(id, rpc)));
}

/** The request's id, if the body is a readable request (for answers given before the body is dispatched). */
function idOf(body: unknown): JsonRpcId {
  return parseJsonRpc(rawBody(body)).id;
}

/** A JSON-RPC response object (`result` or `error`, an id, no method): what a client sends back to a server request. */
function isClientResponse(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const message = value as Json;
    return message.jsonrpc === '2.0' && !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
  } catch {
    return false;
  }
}
