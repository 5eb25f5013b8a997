/**
 * The A2A 1.0 channel: the agent card at `/.well-known/agent-card.json` and JSON-RPC 2.0 at `POST /a2a`.
 * A translator over the registry and the core: every operation is a skill; every check and handler runs in
 * the core; errors come from the core's one table.
 *
 * POST /a2a, in order:
 *   HTTP:     Origin (403) → credential (401) → per-minute limit (429) → plan with data API access (403)
 *   JSON-RPC: Content-Type (-32005) → JSON (-32700) → A2A-Version 1.0 (-32009) → request object (-32600)
 *             → method (-32601) → params and the operation (-32602, -32005, -32004, …)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, toApiError } from '../../core/errors.js';
import { etagMatches } from '../../core/etag.js';
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
import { sendProblem } from '../rest/problem-reply.js';
import { A2A_PATH, AGENT_CARD_PATH, Cards } from './card.js';
import { A2A_CODES, apiErrorToJsonRpc, type ErrorPlace, isHttpLevel, protocolError } from './errors.js';
import { messageResultBytes, readSendMessage } from './send-message.js';
import { requestedVersion } from './version.js';

/** `public`: shared caches may keep the card; it changes only with a deployment. */
const CARD_CACHE_CONTROL = 'public, max-age=300';
const LIST_TASKS_DEFAULT_PAGE_SIZE = 50;
const PUSH_METHODS = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

type Json = Record<string, unknown>;

interface Call {
  readonly request: FastifyRequest;
  readonly admission: Admission;
  readonly place: ErrorPlace;
}

export function registerA2aChannel(app: FastifyInstance, core: Core, registry: Registry): void {
  const cards = new Cards({ baseUrl: core.baseUrl, operations: registry.all });

  app.get(AGENT_CARD_PATH, (request, reply) => serveCard(core, cards, request, reply));

  app.register(async (scope) => {
    acceptRawBodies(scope);
    // Fastify's own refusals before the handler (body too large, unreadable Content-Type) as JSON-RPC answers.
    scope.setErrorHandler((error, request, reply) => answerFastifyError(error, request, reply));
    const handler = (request: FastifyRequest, reply: FastifyReply) => handleRpc(core, registry, cards, request, reply);
    scope.post(A2A_PATH, handler);
    // Clients that join the interface URL as a base (the A2A TCK) post to `/a2a/`.
    scope.post(`${A2A_PATH}/`, handler);
  });
}

// ---------------------------------------------------------------------------------------------------------
// The card
// ---------------------------------------------------------------------------------------------------------

async function serveCard(core: Core, cards: Cards, request: FastifyRequest, reply: FastifyReply) {
  try {
    await countCardRequest(core, request);
  } catch (error) {
    return sendProblem(request, reply, toApiError(error), { baseUrl: core.baseUrl });
  }
  const version = requestedVersion(request.headers['a2a-version'], request.query);
  const card = cards.public(version.isV1 ? '1.0' : '0.3');
  reply.header('cache-control', CARD_CACHE_CONTROL).header('etag', card.etag).header('vary', 'A2A-Version');
  if (etagMatches(request.headers['if-none-match'], card.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(card.json);
}

/**
 * The card is public, yet every HTTP request counts against a per-minute limit: against the caller's plan when
 * it presents a valid key, else against its client address. A wrong key does not hide the card (it was counted
 * against the address by the core).
 */
async function countCardRequest(core: Core, request: FastifyRequest): Promise<void> {
  const facts = requestFacts(request);
  if (facts.origin !== undefined || (facts.authorization === undefined && facts.apiKey === undefined)) {
    await core.limitAnonymous(facts.clientAddress);
    return;
  }
  try {
    await core.admit(facts);
  } catch (error) {
    if (toApiError(error).kind !== 'invalid-auth') throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// JSON-RPC
// ---------------------------------------------------------------------------------------------------------

async function handleRpc(core: Core, registry: Registry, cards: Cards, request: FastifyRequest, reply: FastifyReply) {
  const place: ErrorPlace = { baseUrl: core.baseUrl, requestId: request.id, instance: A2A_PATH };
  let admission: Admission;
  try {
    admission = await core.admitDataChannel(requestFacts(request));
  } catch (error) {
    return sendHttpRefusal(request, reply, toApiError(error), place, undefined);
  }

  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    return answer(
      reply,
      admission,
      null,
      protocolError(
        A2A_CODES.contentTypeNotSupported,
        'CONTENT_TYPE_NOT_SUPPORTED',
        `Content-Type ${contentType} is not supported: send application/json.`,
      ),
    );
  }
  const parsed = parseJsonRpc(rawBody(request.body));
  if (!parsed.ok && parsed.error.code === JSONRPC_CODES.parseError) return answer(reply, admission, null, parsed.error);

  const version = requestedVersion(request.headers['a2a-version'], request.query);
  if (!version.isV1) {
    return answer(
      reply,
      admission,
      parsed.id,
      protocolError(
        A2A_CODES.versionNotSupported,
        'VERSION_NOT_SUPPORTED',
        `A2A protocol version ${version.requested} is not supported: send the header A2A-Version: 1.0.`,
        { requestedVersion: version.requested, supportedVersions: '1.0' },
      ),
    );
  }
  if (!parsed.ok) return answer(reply, admission, parsed.id, parsed.error);

  const { request: rpc, id } = parsed;
  try {
    const params = paramsObject(rpc);
    if (params === undefined) throw paramsError('params', 'must be an object');
    const call: Call = { request, admission, place };
    const result = await dispatch(core, registry, cards, call, rpc.method, params);
    return finish(reply, admission, serializeRawResult(id, result));
  } catch (error) {
    if (error instanceof JsonRpcError) return answer(reply, admission, id, error);
    const apiError = toApiError(error);
    if (isHttpLevel(apiError.kind)) return sendHttpRefusal(request, reply, apiError, place, admission, id);
    if (apiError.kind === 'internal') request.log.error({ err: apiError.cause ?? apiError, request_id: request.id }, 'internal error');
    return answer(reply, admission, id, apiErrorToJsonRpc(apiError, place));
  }
}

/** Runs one method; returns its `result` as JSON text, or throws a JsonRpcError or an ApiError. */
async function dispatch(core: Core, registry: Registry, cards: Cards, call: Call, method: string, params: Json): Promise<string | Buffer> {
  switch (method) {
    case 'SendMessage': {
      const skillCall = readSendMessage(params, registry);
      const outcome = await core.execute({
        admission: call.admission,
        operation: skillCall.operation,
        input: skillCall.input,
        encoding: 'json',
        etag: false,
      });
      return messageResultBytes(skillCall, outcome);
    }
    case 'GetExtendedAgentCard':
      return cards.extended(await core.callableOperations(call.admission.caller));
    case 'GetTask':
    case 'CancelTask': {
      const taskId = params.id;
      if (typeof taskId !== 'string' || taskId === '') throw paramsError('id', 'is required: the task id');
      throw protocolError(A2A_CODES.taskNotFound, 'TASK_NOT_FOUND', `Task ${taskId} not found: this agent creates no tasks.`, { taskId });
    }
    case 'ListTasks':
      return listTasks(params);
    case 'SendStreamingMessage':
    case 'SubscribeToTask':
      throw protocolError(
        A2A_CODES.unsupportedOperation,
        'UNSUPPORTED_OPERATION',
        `${method} is not supported: this agent does not stream (capabilities.streaming is false); use SendMessage.`,
      );
    default:
      if (PUSH_METHODS.has(method)) {
        throw protocolError(
          A2A_CODES.pushNotificationNotSupported,
          'PUSH_NOTIFICATION_NOT_SUPPORTED',
          'Push notifications are not supported (capabilities.pushNotifications is false).',
        );
      }
      throw new JsonRpcError(JSONRPC_CODES.methodNotFound, `Method not found: ${method}.`);
  }
}

/** The data agent creates no tasks: always an empty, well-formed page. */
function listTasks(params: Json): string {
  const pageSize = params.pageSize ?? params.page_size;
  if (pageSize !== undefined && (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)) {
    throw paramsError('pageSize', 'must be an integer from 1 to 100');
  }
  return JSON.stringify({ tasks: [], nextPageToken: '', pageSize: pageSize ?? LIST_TASKS_DEFAULT_PAGE_SIZE, totalSize: 0 });
}

function paramsError(name: string, message: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_CODES.invalidParams, `Invalid params: ${name} ${message}.`, [
    { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: name, description: message }] },
  ]);
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/**
 * An error Fastify raised before the handler ran: an unreadable Content-Type is -32005 on HTTP 200 (like any
 * other unsupported content type); a body too large keeps its 4xx status with -32600; anything else is -32603.
 */
function answerFastifyError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  let rpc: JsonRpcError;
  if (status === 415) {
    rpc = protocolError(A2A_CODES.contentTypeNotSupported, 'CONTENT_TYPE_NOT_SUPPORTED', 'Send Content-Type: application/json.');
  } else if (status < 500) {
    rpc = new JsonRpcError(JSONRPC_CODES.invalidRequest, `Invalid Request: ${(error as Error).message}`);
  } else {
    request.log.error({ err: error, request_id: request.id }, 'internal error');
    rpc = new JsonRpcError(JSONRPC_CODES.internalError);
  }
  reply.code(status === 415 ? 200 : Math.min(status, 500));
  return sendRpc(reply, serialize(toErrorResponse(null, rpc)));
}

function requestFacts(request: FastifyRequest): RequestFacts {
  const apiKey = request.headers['x-api-key'];
  return {
    authorization: request.headers.authorization,
    apiKey: Array.isArray(apiKey) ? apiKey[0] : apiKey,
    origin: request.headers.origin,
    clientAddress: request.ip,
  };
}

function sendRpc(reply: FastifyReply, body: string | Buffer) {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

function finish(reply: FastifyReply, admission: Admission, body: string | Buffer) {
  return sendRpc(reply.headers(rateLimitHeaders(admission)), body);
}

/** A JSON-RPC error on HTTP 200. */
function answer(reply: FastifyReply, admission: Admission, id: JsonRpcId, error: JsonRpcError) {
  return finish(reply, admission, serialize(toErrorResponse(id, error)));
}

/**
 * A refusal of the whole HTTP request (401, 403, 429): the kind's HTTP status with its headers, and a JSON-RPC
 * error body that A2A clients can read (the same ErrorInfo and problem document as any other refusal).
 */
function sendHttpRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  place: ErrorPlace,
  admission: Admission | undefined,
  id: JsonRpcId = idOf(request.body),
) {
  if (error.kind === 'internal') request.log.error({ err: error.cause ?? error, request_id: request.id }, 'internal error');
  reply.code(error.status).headers(rateLimitHeaders(admission));
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  if (error.kind === 'invalid-auth') reply.header('www-authenticate', 'Bearer');
  return sendRpc(reply, serialize(toErrorResponse(id, apiErrorToJsonRpc(error, place))));
}

/** The request's id, if the body is a readable request (for error answers before the body was parsed). */
function idOf(body: unknown): JsonRpcId {
  const parsed = parseJsonRpc(rawBody(body));
  return parsed.id;
}
