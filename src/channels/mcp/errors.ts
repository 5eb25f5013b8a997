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
import { type ApiError, ERROR_KINDS, type ErrorKind, type Problem, toProblem } from '../../lib/errors.js';

/**
 * The JSON-RPC code in the body of an HTTP-level refusal: MCP defines none, so the first code of JSON-RPC's
 * implementation-defined range (the one the MCP SDK uses for transport errors). Clients act on the HTTP status;
 * the problem document in `data` names the kind.
 */
export const MCP_HTTP_REFUSAL_CODE = -32000;

export function isHttpLevel(kind: ErrorKind): boolean {
  return ERROR_KINDS[kind].mcp === 'http';
}

/** Where an error happened: the service's base URL (problem types), the request id and the endpoint path. */
export interface ProblemPlace {
  readonly baseUrl: string;
  readonly requestId: string;
  readonly instance: string;
}

export function mcpProblem(error: ApiError, place: ProblemPlace): Problem {
  return toProblem(error, place);
}
