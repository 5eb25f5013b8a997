/**
 * MCP error forms. Each error kind of the core's table (ERROR_KINDS) names its MCP form (`mcp`):
 *
 * - `http`: the whole HTTP answer carries the kind's status (401, 403, 405, 429, 503), with its headers, and
 *   a JSON-RPC error body (code -32000) whose `data` is the REST problem document. These refuse the request
 *   itself: who is calling, from where, how fast, the plan's access to the channel or a beta group
 *   (docs/mcp.md, Errors).
 * - `result`: a `tools/call` result with `isError: true`, the problem document in `structuredContent` and as
 *   text: a failed call the model can read and correct (bad arguments, not found, quota used, a tool outside
 *   the plan or the key's scopes).
 */

import type { ErrorKind, ErrorPlace } from '../../lib/errors.js';
import { type ApiError, ERROR_KINDS, toProblem } from '../../lib/errors.js';
import { JSONRPC_CODES, JsonRpcError } from '../jsonrpc/index.js';

/**
 * The JSON-RPC code in the body of an HTTP-level refusal: MCP defines none, so the first code of JSON-RPC's
 * implementation-defined range (the one the MCP SDK uses for transport errors). Clients act on the HTTP status;
 * the problem document in `data` names the kind.
 */
export const MCP_HTTP_REFUSAL_CODE = -32000;

/**
 * An error the table answers at the HTTP level, or a refused OAuth access token (its bearer challenge: docs/oauth.md).
 */
export function isHttpLevel(error: ApiError): boolean {
  return ERROR_KINDS[error.kind].mcp === 'http' || error.challenge !== undefined;
}

/** A refusal of the whole HTTP request as its JSON-RPC error: -32000, the problem document in `data`. */
export function httpRefusalError(error: ApiError, place: ErrorPlace): JsonRpcError {
  const problem = toProblem(error, place);
  return new JsonRpcError(MCP_HTTP_REFUSAL_CODE, problem.detail ?? problem.title, problem);
}

/** The codes MCP 2026-07-28 defines (basic/index, Error Codes); the modern era answers them, and -32022 both eras. */
export const MCP_CODES = {
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
} as const;

/**
 * A JSON-RPC error that goes out with an HTTP status of its own: the modern era answers a malformed request with
 * 400 and an unknown method with 404, where the 2025 revisions answer JSON-RPC errors on 200.
 */
export class McpStatusError extends JsonRpcError {
  readonly status: number;

  constructor(status: number, code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.status = status;
  }
}

/**
 * HTTP 400 with -32022 and the versions this server speaks, in either era: a 2025 client reads the status, a
 * 2026 client picks a version from `data.supported` and retries.
 */
export function unsupportedVersion(requested: string, supported: readonly string[]): McpStatusError {
  return new McpStatusError(
    400,
    MCP_CODES.unsupportedProtocolVersion,
    `Unsupported protocol version ${JSON.stringify(requested)}: this server speaks ${supported.join(', ')}.`,
    { supported: [...supported], requested },
  );
}

/**
 * The code of a read or prompt refused by the service's rules (the plan's domains, the key's scopes, the monthly
 * quota): a code of the application's own, outside JSON-RPC's reserved range as 2026-07-28 asks (basic/index, Error
 * Codes). `data.problem` is the REST problem document, whose `type` names the kind.
 */
export const MCP_REFUSED_CODE = -31000;

/** The kinds that say the request named nothing, or named it wrongly: -32602, as an unknown resource is. */
const INVALID_PARAMS_KINDS: ReadonlySet<ErrorKind> = new Set(['not-found', 'validation-error', 'invalid-cursor']);

/**
 * The JSON-RPC error of a failed read of `uri` (resources/read, the resources a prompt embeds) that the table does
 * not answer at the HTTP level: -32602 for a resource that does not exist or a malformed URI (resources, Error
 * Handling: `data.uri`), -32603 for an internal error, else MCP_REFUSED_CODE; the problem document in `data`.
 */
export function readError(error: ApiError, place: ErrorPlace, uri: string): JsonRpcError {
  const problem = toProblem(error, place);
  const code = INVALID_PARAMS_KINDS.has(error.kind)
    ? JSONRPC_CODES.invalidParams
    : error.kind === 'internal'
      ? JSONRPC_CODES.internalError
      : MCP_REFUSED_CODE;
  const what = error.kind === 'not-found' ? 'Resource not found' : problem.title;
  return new JsonRpcError(code, `${what}: ${problem.detail ?? uri}`, { uri, problem });
}
