/**
 * The modern era of MCP (revision 2026-07-28) beside the 2025 revisions on the same endpoint. A request that
 * declares its version in `params._meta` is served on its own, with no `initialize` and no session, which is how
 * this server serves every request anyway: the era changes the envelope, not the work. The same `tools/list` and
 * `tools/call` run; this module adds the checks (`_meta`, the mirrored headers, the methods the revision has) and
 * the result members the revision asks for, in the order docs/mcp.md, "Two eras on one endpoint", gives.
 */
import type { Json } from '../../lib/json.js';
import { JSONRPC_CODES, type JsonRpcId } from '../jsonrpc/index.js';
import { MCP_CODES, McpStatusError, unsupportedVersion } from './errors.js';
import {
  expectHeader,
  HeaderMismatch,
  type Headers,
  METHOD_HEADER,
  type MirroredHeader,
  NAME_HEADER,
  PROTOCOL_VERSION_HEADER,
} from './request-headers.js';
import { RESULT_TTL_MS, type ServerFacts } from './server-facts.js';
import { isLegacyVersion, MODERN_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './versions.js';

export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';

/**
 * What the modern era adds to a `tools/list`, `resources/list` or `resources/read` result besides the common members:
 * the tools and the listed views depend on the key; a view changes only with a deployment.
 */
const LIST_MEMBERS = `"ttlMs":${RESULT_TTL_MS},"cacheScope":"private",`;

/**
 * What replaces a result object's closing brace (its added members, then the braces closing the result and the
 * response), as text (for results that are text) and as bytes (for results that are bytes).
 */
export interface Tail {
  readonly text: string;
  readonly bytes: Buffer;
}

/**
 * How a modern request is answered once its envelope is checked: its method runs as in the 2025 era and the
 * result takes `tail` in place of its closing brace (tools/list, tools/call); or the answer is `result`, whole
 * (server/discover).
 */
export type ModernPlan =
  | { readonly tail: Tail; readonly result?: undefined }
  | { readonly tail?: undefined; readonly result: string };

interface Plans {
  readonly call: ModernPlan;
  readonly list: ModernPlan;
  readonly discover: ModernPlan;
}

function tail(text: string): Tail {
  return Object.freeze({ text, bytes: Buffer.from(text) });
}

/** The plans of each server's requests, built once per server (its facts): a request allocates none. */
const plans = new WeakMap<ServerFacts, Plans>();

function plansOf(facts: ServerFacts): Plans {
  let found = plans.get(facts);
  if (found === undefined) {
    // tools/call and tools/list results are never the empty object, so the members always follow a comma.
    found = Object.freeze({
      call: Object.freeze({ tail: tail(`,${facts.modernMembers}}}`) }),
      list: Object.freeze({ tail: tail(`,${LIST_MEMBERS}${facts.modernMembers}}}`) }),
      discover: Object.freeze({ result: facts.discover }),
    });
    plans.set(facts, found);
  }
  return found;
}

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

/**
 * Checks one request of the modern era and says how to answer it; throws a JsonRpcError (with its HTTP status
 * when it has one). Synchronous, so that a modern call awaits its method once, as a 2025 call does.
 */
export function planModern(facts: ServerFacts, headers: Headers, method: string, params: Json): ModernPlan {
  checkEnvelope(headers, method, params);
  switch (method) {
    case 'server/discover':
      return plansOf(facts).discover;
    case 'tools/list':
      return plansOf(facts).list;
    case 'tools/call':
      if (typeof params.name === 'string') checkHeader(headers, NAME_HEADER, params.name, 'params.name');
      return plansOf(facts).call;
    case 'resources/list':
    case 'resources/read':
      if (facts.resources) return plansOf(facts).list;
      throw notInRevision(method, facts);
    default:
      // initialize, ping, logging/setLevel… are not methods of this revision: unknown methods all the same.
      throw notInRevision(method, facts);
  }
}

function notInRevision(method: string, facts: ServerFacts): McpStatusError {
  const offered = facts.resources ? ', tools/call, resources/list and resources/read' : ' and tools/call';
  return new McpStatusError(
    404,
    JSONRPC_CODES.methodNotFound,
    `Method not found: ${method}. In protocol version ${MODERN_PROTOCOL_VERSION} this server offers ` +
      `server/discover, tools/list${offered}.`,
  );
}

/** The per-request `_meta` fields, the version headers and `Mcp-Method`, in the revision's order of failures. */
function checkEnvelope(headers: Headers, method: string, params: Json): void {
  const meta = metaOf(params);
  const version = meta?.[PROTOCOL_VERSION_META];
  if (typeof version !== 'string' || version === '')
    throw missingMeta(PROTOCOL_VERSION_META, 'a string, the protocol version');
  const capabilities = meta?.[CLIENT_CAPABILITIES_META];
  if (capabilities === null || typeof capabilities !== 'object' || Array.isArray(capabilities)) {
    throw missingMeta(CLIENT_CAPABILITIES_META, 'an object, the client capabilities for this request ({} for none)');
  }
  checkHeader(headers, PROTOCOL_VERSION_HEADER, version, `params._meta["${PROTOCOL_VERSION_META}"]`);
  if (version !== MODERN_PROTOCOL_VERSION) throw unsupportedVersion(version, SUPPORTED_PROTOCOL_VERSIONS);
  checkHeader(headers, METHOD_HEADER, method, 'method');
}

function checkHeader(headers: Headers, header: MirroredHeader, bodyValue: string, bodyField: string): void {
  try {
    expectHeader(headers, header, bodyValue, bodyField);
  } catch (error) {
    if (error instanceof HeaderMismatch) throw new McpStatusError(400, MCP_CODES.headerMismatch, error.message);
    throw error;
  }
}

function missingMeta(field: string, what: string): McpStatusError {
  return new McpStatusError(
    400,
    JSONRPC_CODES.invalidParams,
    `Invalid params: params._meta["${field}"] is required: ${what}.`,
    {
      field: `params._meta.${field}`,
    },
  );
}

function metaOf(params: Json): Json | undefined {
  const meta = params._meta;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Json) : undefined;
}

/**
 * The success response of a modern request: the method's result (JSON text or bytes of an object) with the
 * plan's tail in place of the closing brace. The result's bytes are copied once, whole, as the 2025 era's
 * response copies them (the tail's first byte then overwrites the brace): no view of the result is made.
 */
export function modernResponse(id: JsonRpcId, result: string | Buffer, tail: Tail | undefined): string | Buffer {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  if (typeof result === 'string')
    return tail === undefined ? `${head}${result}}` : `${head}${result.slice(0, -1)}${tail.text}`;
  const end = tail === undefined ? CLOSE : tail.bytes;
  const headLength = Buffer.byteLength(head);
  const start = headLength + result.length - (tail === undefined ? 0 : 1);
  const response = Buffer.allocUnsafe(start + end.length);
  response.write(head, 0);
  response.set(result, headLength);
  response.set(end, start);
  return response;
}

const CLOSE = Buffer.from('}');
