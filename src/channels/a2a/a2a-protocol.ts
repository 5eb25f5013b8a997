/**
 * The A2A 1.0 protocol over JSON-RPC 2.0, for any agent this service hosts: the data service at `/a2a` and every
 * company deployment at `{agents_url}/<slug>/a2a`. This module knows the protocol (the order of the checks, the
 * version rule, the envelope, one data part per message, the methods and their errors) and nothing about what an
 * agent does: that is the `A2aAgent` it is given. The order of the checks on a POST is docs/a2a.md, "Errors";
 * the envelope's own checks (notifications, depth) are the JSON-RPC toolkit's (../jsonrpc).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '../../core/etag.js';
import type { ErrorPlace } from '../../lib/errors.js';
import { type ApiError, toApiError } from '../../lib/errors.js';
import { logIfInternal } from '../../lib/internal-error-log.js';
import type { Json } from '../../lib/json.js';
import type { LimitState } from '../../lib/limit-state.js';
import type { RefusalForm } from '../http/framework-refusal.js';
import {
  JSONRPC_CODES,
  JsonRpcError,
  type JsonRpcId,
  JsonRpcReplies,
  MAX_PARAMS_DEPTH,
  type MethodAnswer,
  mountJsonRpcEndpoint,
  notPostRefusal,
  paramsObject,
  parseRequestBody,
  requestIdOf,
  unsupportedContentType,
} from '../jsonrpc/index.js';
import type { Cards } from './card.js';
import { A2A_CODES, apiErrorToJsonRpc, isHttpLevel, paramsError, protocolError } from './errors.js';
import { type ListTasksQuery, readListTasks } from './list-tasks.js';
import { continuedTaskId, readSendMessage, type SkillCall } from './send-message.js';
import { requestedVersion } from './version.js';

/** What a method of an `A2aAgent` answers (the toolkit's type, named here with the interface that uses it). */
export type { MethodAnswer };
export { paramsError };

/** `public`: shared caches may keep the card; it changes only with a deployment. */
const CARD_CACHE_CONTROL = 'public, max-age=300';
const PUSH_METHODS = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

const replies = new JsonRpcReplies('application/json; charset=utf-8');

/**
 * An agent as the A2A protocol layer sees it. `P` is what its admission yields (the caller and its limit state),
 * `S` one of its skills. Methods return the JSON-RPC `result` as JSON text (or UTF-8 bytes), or throw a
 * JsonRpcError, or an ApiError (mapped through the core's error table).
 */
export interface A2aAgent<P, S> {
  /** Where errors of this request happened: problem `type` URLs, ErrorInfo domain, problem `instance`. */
  errorPlace(request: FastifyRequest): ErrorPlace;
  /**
   * Who calls, counted against the limits. Any ApiError refuses the whole HTTP request with the kind's status
   * (401, 403, 404, 429).
   */
  admit(request: FastifyRequest): Promise<P>;
  /**
   * Headers every answer to an admitted request carries (the limits); `undefined` before admission. `quota` is the
   * monthly quota's state the call reported (its answer's, or its error's).
   */
  headers(principal: P | undefined, quota?: LimitState): Record<string, string>;
  /** A skill this caller may name, by id; undefined → -32602 naming `message.parts[0].data.skill`. */
  skill(principal: P, id: string): S | undefined;
  /** The ids `skill` knows (the nearest one is named when a data part misspells one). */
  skillIds(principal: P): readonly string[];
  sendMessage(principal: P, call: SkillCall<S>, params: Json): Promise<MethodAnswer>;
  extendedCard(principal: P): Promise<string>;
  getTask(principal: P, id: string, params: Json): Promise<string>;
  cancelTask(principal: P, id: string): Promise<string>;
  /** ListTasks, its parameters checked (list-tasks.ts); a page token is the agent's to read. */
  listTasks(principal: P, query: ListTasksQuery): Promise<string>;
  /**
   * `WWW-Authenticate` of a 401 or of a step-up 403 (an OAuth-protected agent names its resource metadata:
   * docs/oauth.md); without it, `Bearer`.
   */
  challenge?(error: ApiError, request: FastifyRequest): string;
}

/** Mounts the JSON-RPC endpoint at `path` (and `path/`: clients that join the interface URL as a base post there). */
export function mountA2aEndpoint<P, S>(app: FastifyInstance, path: string, agent: A2aAgent<P, S>): void {
  mountJsonRpcEndpoint(app, [path, `${path}/`], {
    post: (request, reply) => handlePost(agent, request, reply),
    notPost: (request, reply) => refuseNotPost(agent, request, reply),
    refusedEarly: refuseEarly,
  });
}

/** A2A's form of a refusal of the whole HTTP request made before any route ran (app.ts): the JSON-RPC error body. */
export const a2aRefusal: RefusalForm = replies.refusalForm(apiErrorToJsonRpc);

/**
 * 405 with `Allow: POST` in A2A's form: the endpoint speaks JSON-RPC over POST only (the card is a GET elsewhere).
 * The request still counts against the per-minute limit; a company agent that does not exist is still a 404.
 */
async function refuseNotPost<P, S>(agent: A2aAgent<P, S>, request: FastifyRequest, reply: FastifyReply) {
  const place = agent.errorPlace(request);
  let principal: P | undefined;
  try {
    principal = await agent.admit(request);
  } catch (error) {
    const refusal = toApiError(error);
    if (refusal.kind === 'not-found' || refusal.kind === 'service-unavailable') {
      return sendHttpRefusal(agent, request, reply, refusal, place, {}, null);
    }
  }
  const error = notPostRefusal(
    request,
    reply,
    'A2A is JSON-RPC 2.0, one request per POST to this endpoint; the agent card is served at ' +
      '/.well-known/agent-card.json.',
  );
  return sendHttpRefusal(agent, request, reply, error, place, agent.headers(principal), null);
}

// ---------------------------------------------------------------------------------------------------------
// The card
// ---------------------------------------------------------------------------------------------------------

/** Sends one of the agent's public cards: the shape `A2A-Version` asks for, cacheable, 304 on a matching ETag. */
export async function sendCard(cards: Cards, request: FastifyRequest, reply: FastifyReply) {
  const version = requestedVersion(request.headers['a2a-version'], request.query);
  const card = await cards.public(version.isV1 ? '1.0' : '0.3');
  reply.header('cache-control', CARD_CACHE_CONTROL).header('etag', card.etag).header('vary', 'A2A-Version');
  if (etagMatches(request.headers['if-none-match'], card.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(card.json);
}

// ---------------------------------------------------------------------------------------------------------
// JSON-RPC
// ---------------------------------------------------------------------------------------------------------

async function handlePost<P, S>(agent: A2aAgent<P, S>, request: FastifyRequest, reply: FastifyReply) {
  const place = agent.errorPlace(request);
  let principal: P;
  try {
    principal = await agent.admit(request);
  } catch (error) {
    return sendHttpRefusal(agent, request, reply, toApiError(error), place, {});
  }
  const contentType = unsupportedContentType(request);
  if (contentType !== undefined) {
    return replies.sendError(
      reply,
      agent.headers(principal),
      null,
      protocolError(
        A2A_CODES.contentTypeNotSupported,
        'CONTENT_TYPE_NOT_SUPPORTED',
        `Content-Type ${contentType} is not supported: send application/json.`,
      ),
    );
  }
  const parsed = parseRequestBody(request.body);
  if (!parsed.ok && parsed.error.code === JSONRPC_CODES.parseError) {
    return replies.sendError(reply, agent.headers(principal), null, parsed.error);
  }
  // JSON-RPC 2.0 §4.1: a notification gets no answer, so it is not run (nothing executed, charged or created).
  if (parsed.ok && parsed.notification) return replies.sendAccepted(reply, agent.headers(principal));

  const version = requestedVersion(request.headers['a2a-version'], request.query);
  if (!version.isV1) {
    return replies.sendError(
      reply,
      agent.headers(principal),
      parsed.id,
      protocolError(
        A2A_CODES.versionNotSupported,
        'VERSION_NOT_SUPPORTED',
        `A2A protocol version ${version.requested} is not supported: send the header A2A-Version: 1.0.`,
        { requestedVersion: version.requested, supportedVersions: '1.0' },
      ),
    );
  }
  if (!parsed.ok) return replies.sendError(reply, agent.headers(principal), parsed.id, inA2aForm(parsed.error));

  const { request: rpc, id } = parsed;
  try {
    const params = paramsObject(rpc);
    if (params === undefined) throw paramsError('params', 'must be an object');
    const { result, quota } = await dispatch(agent, principal, rpc.method, params);
    return replies.sendResult(reply, agent.headers(principal, quota), id, result);
  } catch (error) {
    if (error instanceof JsonRpcError) return replies.sendError(reply, agent.headers(principal), id, error);
    const apiError = toApiError(error);
    const headers = agent.headers(principal, apiError.quota);
    if (isHttpLevel(apiError)) return sendHttpRefusal(agent, request, reply, apiError, place, headers, id);
    logIfInternal(request, apiError);
    return replies.sendError(reply, headers, id, apiErrorToJsonRpc(apiError, place));
  }
}

/** Runs one method; returns its `result`, or throws a JsonRpcError or an ApiError. */
async function dispatch<P, S>(
  agent: A2aAgent<P, S>,
  principal: P,
  method: string,
  params: Json,
): Promise<MethodAnswer> {
  switch (method) {
    case 'SendMessage': {
      // The task the message continues must be one of this caller's (GetTask's rule) before its parts are read.
      const taskId = continuedTaskId(params);
      if (taskId !== undefined) await agent.getTask(principal, taskId, {});
      return agent.sendMessage(principal, readSendMessage(params, agent, principal), params);
    }
    case 'GetExtendedAgentCard':
      return { result: await agent.extendedCard(principal) };
    case 'GetTask':
      return { result: await agent.getTask(principal, taskIdOf(params), params) };
    case 'CancelTask':
      return { result: await agent.cancelTask(principal, taskIdOf(params)) };
    case 'ListTasks':
      return { result: await agent.listTasks(principal, readListTasks(params)) };
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

/** An envelope error as A2A gives it: -32602 (params nested too deeply) names the field, with a BadRequest. */
function inA2aForm(error: JsonRpcError): JsonRpcError {
  if (error.code !== JSONRPC_CODES.invalidParams) return error;
  return paramsError('params', `is nested deeper than ${MAX_PARAMS_DEPTH} levels`);
}

function taskIdOf(params: Json): string {
  const taskId = params.id;
  if (typeof taskId !== 'string' || taskId === '') throw paramsError('id', 'is required: the task id');
  return taskId;
}

/** -32001: no such task (or not this caller's). */
export function taskNotFound(taskId: string, why = 'no task of this credential has this id'): JsonRpcError {
  return protocolError(A2A_CODES.taskNotFound, 'TASK_NOT_FOUND', `Task ${taskId} not found: ${why}.`, { taskId });
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/**
 * An error Fastify raised before the handler ran: an unreadable Content-Type is -32005 on HTTP 200 (like any
 * other unsupported content type); anything else as every JSON-RPC endpoint answers it.
 */
function refuseEarly(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if ((error as { statusCode?: number }).statusCode === 415) {
    const rpc = protocolError(
      A2A_CODES.contentTypeNotSupported,
      'CONTENT_TYPE_NOT_SUPPORTED',
      'Send Content-Type: application/json.',
    );
    return replies.sendError(reply.code(200), {}, null, rpc);
  }
  return replies.refuseEarly(error, request, reply);
}

/**
 * A refusal of the whole HTTP request (401, 403, 404, 429): the kind's HTTP status with its headers, and a
 * JSON-RPC error body that A2A clients can read (the same ErrorInfo and problem document as any other refusal).
 */
function sendHttpRefusal<P, S>(
  agent: A2aAgent<P, S>,
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  place: ErrorPlace,
  headers: Record<string, string>,
  id: JsonRpcId = requestIdOf(request.body),
) {
  const body = apiErrorToJsonRpc(error, place);
  return replies.sendHttpRefusal(request, reply, { error, headers, id, body, challenge: agent.challenge?.bind(agent) });
}
