/**
 * A2A error envelopes. Every refusal of the data is one ApiError kind of the core's table (ERROR_KINDS), whose
 * `a2a` column gives the JSON-RPC code, or `http` when the whole HTTP answer carries the status. `error.data`
 * is a list of typed objects: a `google.rpc.ErrorInfo` (reason = the kind in UPPER_SNAKE_CASE), then the full
 * REST problem document, then for invalid input a `google.rpc.BadRequest` naming each field.
 * Errors of the A2A protocol itself (version, content type, tasks, streaming) carry an ErrorInfo of the
 * `a2a-protocol.org` domain with the spec's reason.
 */

import type { ErrorPlace } from '../../lib/errors.js';
import {
  type ApiError,
  ERROR_KINDS,
  type ErrorKind,
  type ErrorKindInfo,
  type Problem,
  toProblem,
} from '../../lib/errors.js';
import { invalidParams, JsonRpcError } from '../jsonrpc/index.js';

/** The A2A-specific JSON-RPC codes (A2A 1.0 §9.5) this channel answers with. */
export const A2A_CODES = {
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  versionNotSupported: -32009,
} as const;

/**
 * The JSON-RPC code in the body of an answer refused at the HTTP level (401, 403, 429): A2A defines no code for
 * them, so the generic server-error code of JSON-RPC's implementation-defined range is used; clients act on the
 * HTTP status and on the ErrorInfo reason.
 */
export const A2A_HTTP_REFUSAL_CODE = -32000;

/** The ErrorInfo domain of the A2A protocol's own errors. */
export const A2A_PROTOCOL_DOMAIN = 'a2a-protocol.org';

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

export interface ErrorInfo {
  '@type': typeof ERROR_INFO_TYPE;
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

/** `domain-not-in-plan` → `DOMAIN_NOT_IN_PLAN`. */
export function reasonOf(kind: ErrorKind): string {
  return kind.toUpperCase().replaceAll('-', '_');
}

/** The ErrorInfo domain of the service's own error kinds: the host of `base_url` (e.g. `api.munidata.pt`). */
export function serviceDomain(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || 'munidata';
  } catch {
    return 'munidata';
  }
}

export function errorInfo(reason: string, domain: string, metadata: Record<string, string> = {}): ErrorInfo {
  return { '@type': ERROR_INFO_TYPE, reason, domain, metadata };
}

/** The JSON-RPC code of a kind: its A2A code, or the HTTP-refusal code for kinds answered at the HTTP level. */
export function codeOf(kind: ErrorKind): number {
  const a2a = ERROR_KINDS[kind].a2a;
  return a2a === 'http' ? A2A_HTTP_REFUSAL_CODE : a2a;
}

/**
 * Whether the error is answered with its HTTP status for the whole request: 401, 403 origin/plan, 429, 405 (with
 * the HTTP-refusal code), 503 (with its own code -32004, SERVICE_UNAVAILABLE), and any refusal of an OAuth access
 * token that carries a bearer challenge (403 insufficient scope: step-up, docs/oauth.md).
 */
export function isHttpLevel(error: ApiError): boolean {
  const info: ErrorKindInfo = ERROR_KINDS[error.kind];
  return info.a2a === 'http' || info.a2aHttpStatus === true || error.challenge !== undefined;
}

/** An ApiError as the JSON-RPC error of this channel: code from the table, ErrorInfo, problem, BadRequest. */
export function apiErrorToJsonRpc(error: ApiError, where: ErrorPlace): JsonRpcError {
  const problem = toProblem(error, where);
  const metadata: Record<string, string> = {
    kind: error.kind,
    type: problem.type,
    status: String(problem.status),
    request_id: where.requestId,
  };
  if (error.featureKey !== undefined) metadata.feature_key = error.featureKey;
  if (error.upgradeUrl !== undefined) metadata.upgrade_url = error.upgradeUrl;
  if (error.retryAfter !== undefined) metadata.retry_after = String(error.retryAfter);
  if (problem.errors !== undefined) metadata.fields = problem.errors.map((e) => e.field).join(',');
  const data: unknown[] = [
    errorInfo(reasonOf(error.kind), serviceDomain(where.baseUrl), metadata),
    problemEntry(problem, where.baseUrl),
  ];
  if (problem.errors !== undefined) {
    data.push({
      '@type': BAD_REQUEST_TYPE,
      fieldViolations: problem.errors.map((e) => ({ field: e.field, description: e.message })),
    });
  }
  return new JsonRpcError(codeOf(error.kind), problem.detail ?? problem.title, data);
}

/**
 * The REST problem document as an entry of `error.data`: its members unchanged, plus the `@type` every entry of
 * that list carries (A2A 1.0 §9.5); the type URL is the service's list of problem kinds.
 */
function problemEntry(problem: Problem, baseUrl: string): Record<string, unknown> {
  return { '@type': `${baseUrl}/problems`, ...problem };
}

/** An error of the A2A protocol itself (not a REST kind): its code, message and spec reason. */
export function protocolError(
  code: number,
  reason: string,
  message: string,
  metadata: Record<string, string> = {},
): JsonRpcError {
  return new JsonRpcError(code, message, [errorInfo(reason, A2A_PROTOCOL_DOMAIN, metadata)]);
}

/** -32602 naming one field of `params`, with a google.rpc.BadRequest. */
export function paramsError(name: string, message: string): JsonRpcError {
  return invalidParams(`${name} ${message}`, [
    { '@type': BAD_REQUEST_TYPE, fieldViolations: [{ field: name, description: message }] },
  ]);
}
