/**
 * The modern era of MCP (revision 2026-07-28) beside the 2025 revisions on the same endpoint (docs/mcp.md, "Two
 * eras on one endpoint"). A request that declares its version in `params._meta` is served on its own, with no
 * `initialize` and no session — which is how this server serves every request anyway — so the era changes the
 * envelope, not the work: the same `tools/list` and `tools/call` run, and this module adds the checks and the
 * result members the revision asks for.
 *
 * A modern request, in order (after the HTTP admission and the JSON-RPC envelope, shared with the 2025 era):
 *   `_meta` protocolVersion and clientCapabilities present (-32602, HTTP 400, naming the field)
 *   → MCP-Protocol-Version equal to `_meta`'s version (-32020, 400) → a version this server speaks (-32022, 400)
 *   → Mcp-Method equal to `method` (-32020, 400) → the method: server/discover | tools/list | tools/call, any
 *   other (initialize and ping included) -32601 with HTTP 404 → for tools/call, Mcp-Name equal to
 *   `params.name` (-32020, 400) → the method's own answer, or its errors as in the 2025 era.
 */
import { JSONRPC_CODES, type JsonRpcId } from '../jsonrpc/jsonrpc.js';
import { MCP_CODES, McpStatusError, unsupportedVersion } from './errors.js';
import type { Json, MethodAnswer } from './mcp-protocol.js';
import { isLegacyVersion, MODERN_PROTOCOL_VERSION, RESULT_TTL_MS, type ServerFacts, SUPPORTED_PROTOCOL_VERSIONS } from './protocol.js';
import { expectHeader, HeaderMismatch, type Headers } from './request-headers.js';

export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/** What the modern era adds to a `tools/list` result besides the common members: the tools depend on the key. */
const LIST_MEMBERS = `"ttlMs":${RESULT_TTL_MS},"cacheScope":"private",`;

/**
 * A method's answer in the modern era: its result, and the bytes that replace the result object's closing brace
 * (its added members, then the braces closing the result and the response), or none when the result is whole.
 */
export interface ModernAnswer extends MethodAnswer {
  readonly tail?: Tail;
}

/** The same tail as text (for results that are text) and as bytes (for results that are bytes). */
interface Tail {
  readonly text: string;
  readonly bytes: Buffer;
}

interface Tails {
  readonly call: Tail;
  readonly list: Tail;
}

function tail(text: string): Tail {
  return { text, bytes: Buffer.from(text) };
}

/** The tails of each server's results, built once per server (its facts). */
const tails = new WeakMap<ServerFacts, Tails>();

function tailsOf(facts: ServerFacts): Tails {
  let found = tails.get(facts);
  if (found === undefined) {
    // tools/call and tools/list results are never the empty object, so the members always follow a comma.
    found = { call: tail(`,${facts.modernMembers}}}`), list: tail(`,${LIST_MEMBERS}${facts.modernMembers}}}`) };
    tails.set(facts, found);
  }
  return found;
}

/** The method runner of the 2025 era, which serves `tools/list` and `tools/call` for both eras. */
export type Dispatch = (method: string, params: Json) => Promise<MethodAnswer>;

/**
 * Whether a request belongs to the modern era: its `_meta` names a version that is not a 2025 one (those are
 * negotiated with `initialize`, and a 2025 server ignores `_meta`), or it asks for `server/discover` (a method only
 * the modern era has), or its `MCP-Protocol-Version` is the modern one. The last two make a modern request that
 * lacks its `_meta` a malformed modern request (-32602), not a 2025 one.
 */
export function isModernRequest(method: string, params: Json, headerVersion: string | undefined): boolean {
  const declared = metaOf(params)?.[PROTOCOL_VERSION_META];
  if (declared !== undefined) return !isLegacyVersion(declared);
  return method === 'server/discover' || headerVersion === MODERN_PROTOCOL_VERSION;
}

/** Runs one request of the modern era; throws a JsonRpcError (with its HTTP status when it has one) or an ApiError. */
export async function serveModern(
  facts: ServerFacts,
  headers: Headers,
  method: string,
  params: Json,
  dispatch: Dispatch,
): Promise<ModernAnswer> {
  checkEnvelope(headers, method, params);
  switch (method) {
    case 'server/discover':
      return { result: facts.discover };
    case 'tools/list':
      return { ...(await dispatch(method, params)), tail: tailsOf(facts).list };
    case 'tools/call':
      if (typeof params.name === 'string') checkHeader(headers, 'Mcp-Name', params.name, 'params.name', true);
      return { ...(await dispatch(method, params)), tail: tailsOf(facts).call };
    default:
      // initialize, ping, logging/setLevel… are not methods of this revision: unknown methods all the same.
      throw new McpStatusError(
        404,
        JSONRPC_CODES.methodNotFound,
        `Method not found: ${method}. In protocol version ${MODERN_PROTOCOL_VERSION} this server offers server/discover, tools/list and tools/call.`,
      );
  }
}

/** The per-request `_meta` fields, the version headers and `Mcp-Method`, in the revision's order of failures. */
function checkEnvelope(headers: Headers, method: string, params: Json): void {
  const meta = metaOf(params);
  const version = meta?.[PROTOCOL_VERSION_META];
  if (typeof version !== 'string' || version === '') throw missingMeta(PROTOCOL_VERSION_META, 'a string, the protocol version');
  const capabilities = meta?.[CLIENT_CAPABILITIES_META];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    throw missingMeta(CLIENT_CAPABILITIES_META, 'an object, the client capabilities for this request ({} for none)');
  }
  checkHeader(headers, 'MCP-Protocol-Version', version, `params._meta["${PROTOCOL_VERSION_META}"]`);
  if (version !== MODERN_PROTOCOL_VERSION) throw unsupportedVersion(version, SUPPORTED_PROTOCOL_VERSIONS);
  checkHeader(headers, 'Mcp-Method', method, 'method');
}

function checkHeader(headers: Headers, name: string, bodyValue: string, bodyField: string, decodes = false): void {
  try {
    expectHeader(headers, name, bodyValue, bodyField, decodes);
  } catch (error) {
    if (error instanceof HeaderMismatch) throw new McpStatusError(400, MCP_CODES.headerMismatch, error.message);
    throw error;
  }
}

function missingMeta(field: string, what: string): McpStatusError {
  return new McpStatusError(400, JSONRPC_CODES.invalidParams, `Invalid params: params._meta["${field}"] is required: ${what}.`, {
    field: `params._meta.${field}`,
  });
}

function metaOf(params: Json): Json | undefined {
  const meta = params._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Json) : undefined;
}

/**
 * The success response of a modern request: the method's result (JSON text or bytes of an object) with its tail
 * in place of the closing brace. The result's bytes are copied once, as the 2025 era's response copies them.
 */
export function modernResponse(id: JsonRpcId, answer: ModernAnswer): string | Buffer {
  const { result, tail } = answer;
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  if (typeof result === 'string') return tail === undefined ? `${head}${result}}` : `${head}${result.slice(0, -1)}${tail.text}`;
  const headBytes = Buffer.from(head);
  if (tail === undefined) return Buffer.concat([headBytes, result, CLOSE]);
  const end = result.length - 1;
  return Buffer.concat([headBytes, result.subarray(0, end), tail.bytes], headBytes.length + end + tail.bytes.length);
}

const CLOSE = Buffer.from('}');
