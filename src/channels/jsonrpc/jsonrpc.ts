/**
 * JSON-RPC 2.0 envelopes, shared by the agent channels (A2A, MCP): parse one request from a raw body,
 * build and serialise result and error responses. Channel-neutral: it knows the JSON-RPC 2.0 rules and
 * codes only; each channel adds its own methods, codes (-32000..-32099) and error `data`.
 *
 * One message per body: a JSON array (a batch) is refused with -32600, as MCP 2025-06-18 and A2A both
 * expect one request per POST.
 */

import { MAX_PARAMS_DEPTH, nestsDeeperThan } from './depth.js';

/** A request id: string or number; `null` only in answers to requests whose id could not be read. */
export type JsonRpcId = string | number | null;

/** The standard JSON-RPC 2.0 error codes. Implementation-defined codes are -32000..-32099. */
export const JSONRPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

export const JSONRPC_MESSAGES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error: the body is not valid JSON.',
  [-32600]: 'Invalid Request: not a JSON-RPC 2.0 request object.',
  [-32601]: 'Method not found.',
  [-32602]: 'Invalid params.',
  [-32603]: 'Internal error.',
};

/** A reason as one sentence: a full stop after it, unless it already ends one (a detail often does). */
export function asSentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** -32602 `Invalid params: <why>.`, with `data` when given: the one place this message is written. */
export function invalidParams(why: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(JSONRPC_CODES.invalidParams, `Invalid params: ${asSentence(why)}`, data);
}

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  /** Absent for a notification (then `notification` is true). */
  readonly id?: string | number | null;
  readonly method: string;
  /** An object or an array when present (JSON-RPC "structured value"). */
  readonly params?: Record<string, unknown> | unknown[];
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export type ParsedRequest =
  | { readonly ok: true; readonly request: JsonRpcRequest; readonly id: JsonRpcId; readonly notification: boolean }
  /** `id` is the request's id when it could be read (then answer with it), else null. */
  | { readonly ok: false; readonly error: JsonRpcError; readonly id: JsonRpcId };

/** A JSON-RPC error a method handler throws; the channel turns it into a response with `toErrorResponse`. */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message?: string, data?: unknown) {
    super(message ?? JSONRPC_MESSAGES[code] ?? 'Error.');
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }

  toObject(): JsonRpcErrorObject {
    const error: JsonRpcErrorObject = { code: this.code, message: this.message };
    if (this.data !== undefined) error.data = this.data;
    return error;
  }
}

/**
 * Reads one JSON-RPC 2.0 request. `body` is the raw text (or bytes) of the HTTP body, or an already-parsed
 * value. Malformed JSON → -32700; anything that is not a single request object → -32600.
 */
export function parseJsonRpc(body: string | Buffer | unknown): ParsedRequest {
  let value: unknown = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
    } catch {
      return { ok: false, id: null, error: new JsonRpcError(JSONRPC_CODES.parseError) };
    }
  }
  if (Array.isArray(value)) {
    return {
      ok: false,
      id: null,
      error: new JsonRpcError(
        JSONRPC_CODES.invalidRequest,
        'Invalid Request: batches are not supported; send one request per POST.',
      ),
    };
  }
  if (value === null || typeof value !== 'object') return invalid(null, 'the body is not a JSON object.');
  const message = value as Record<string, unknown>;
  const rawId = message.id;
  const idIsValid =
    rawId === undefined ||
    rawId === null ||
    typeof rawId === 'string' ||
    (typeof rawId === 'number' && Number.isFinite(rawId));
  const id: JsonRpcId = idIsValid && rawId !== undefined ? (rawId as JsonRpcId) : null;
  if (message.jsonrpc !== '2.0') return invalid(id, '"jsonrpc" must be "2.0".');
  if (!idIsValid) return invalid(null, '"id" must be a string, a number or null.');
  if (typeof message.method !== 'string' || message.method === '')
    return invalid(id, '"method" must be a non-empty string.');
  const params = message.params;
  if (params !== undefined && (params === null || typeof params !== 'object')) {
    return invalid(id, '"params" must be an object or an array when present.');
  }
  const notification = !('id' in message);
  // A notification is never run, so its depth does not matter; a request nested too deeply is refused here, once.
  if (!notification && nestsDeeperThan(message, MAX_PARAMS_DEPTH + 1)) {
    const why = `nested deeper than ${MAX_PARAMS_DEPTH} levels`;
    if (params !== undefined && nestsDeeperThan(params, MAX_PARAMS_DEPTH)) {
      return { ok: false, id, error: invalidParams(why) };
    }
    return invalid(id, `a member is ${why}.`);
  }
  return { ok: true, request: message as unknown as JsonRpcRequest, id, notification };
}

function invalid(id: JsonRpcId, why: string): ParsedRequest {
  return { ok: false, id, error: new JsonRpcError(JSONRPC_CODES.invalidRequest, `Invalid Request: ${why}`) };
}

/** `params` as an object: absent → `{}`; an array (by-position params) → undefined, for the caller to refuse. */
export function paramsObject(request: JsonRpcRequest): Record<string, unknown> | undefined {
  if (request.params === undefined) return {};
  return Array.isArray(request.params) ? undefined : request.params;
}

export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: JsonRpcId, code: number, message?: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: new JsonRpcError(code, message, data).toObject() };
}

/** Any thrown value as an error response: a JsonRpcError keeps its code, anything else is -32603 (no details). */
export function toErrorResponse(id: JsonRpcId, error: unknown): JsonRpcFailure {
  const rpc = error instanceof JsonRpcError ? error : new JsonRpcError(JSONRPC_CODES.internalError);
  return { jsonrpc: '2.0', id, error: rpc.toObject() };
}

export function serialize(response: JsonRpcResponse): string {
  return JSON.stringify(response);
}

const RESULT_END = Buffer.from('}');

/**
 * A success response around a result that is already JSON — text, or UTF-8 bytes (a cached answer is sent as
 * bytes without being decoded and encoded again): no parse and re-stringify on the hot path.
 */
export function serializeRawResult(id: JsonRpcId, resultJson: string): string;
export function serializeRawResult(id: JsonRpcId, resultJson: string | Buffer): string | Buffer;
export function serializeRawResult(id: JsonRpcId, resultJson: string | Buffer): string | Buffer {
  if (typeof resultJson === 'string') return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`);
  return Buffer.concat([head, resultJson, RESULT_END], head.length + resultJson.length + 1);
}

/** True for `application/json` with or without parameters (`; charset=utf-8`), case-insensitive. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return mediaType === 'application/json';
}
