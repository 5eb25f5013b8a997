/**
 * What an MCP server says about itself (server info, capabilities, instructions) in each era, serialised once per
 * server. docs/mcp.md, "Two eras on one endpoint", says what each era sees.
 */
import { readFileSync } from 'node:fs';
import { APP_MIME_TYPE, UI_EXTENSION } from './apps/app-views.js';
import { LEGACY_PROTOCOL_VERSIONS, type LegacyVersion, SUPPORTED_PROTOCOL_VERSIONS } from './versions.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** The version of the running software (package.json), two folders up from `src/` or `dist/`. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const SERVER_INFO = Object.freeze({
  name: 'munidata',
  title: 'munidata: Portuguese municipal data',
  version: packageVersion(),
});

/**
 * Tools only (a company agent). The tool list never changes while a client is connected (no stream could carry the
 * notification anyway: the server is stateless and offers no GET stream).
 */
export const CAPABILITIES = Object.freeze({ tools: Object.freeze({ listChanged: false }) });

/**
 * The data service's: tools, the resources of its MCP Apps views (which change only with a deployment) and the
 * Apps extension (docs/mcp.md, "Apps").
 */
export const DATA_CAPABILITIES = Object.freeze({
  ...CAPABILITIES,
  resources: Object.freeze({ listChanged: false }),
  extensions: Object.freeze({ [UI_EXTENSION]: Object.freeze({ mimeTypes: [APP_MIME_TYPE] }) }),
});

/** A hint for the model's system prompt: how to start and how to read answers and refusals. */
export const INSTRUCTIONS = [
  'Read-only data on Portuguese municipalities: indicators (series, snapshots, statistics) and the 308 ' +
    'municipalities, plus the other data domains your plan includes.',
  'Call the tool `me` first: it is free and tells you the plan, its data domains, your scopes, the limits and the ' +
    'requests left this month.',
  'Only the tools your key may call are listed. Each tools/call counts as one request against the monthly quota ' +
    '(`me` is free).',
  'Answers are the same JSON as the REST API (`structuredContent`, and the same JSON as text); a list answer is ' +
    '`{"items": [...]}`.',
  'Paged tools return `next_cursor` and `has_more`: pass `next_cursor` as the `cursor` argument for the next page.',
  'Municipalities are given by their 4-digit code (e.g. "1106") or slug (e.g. "lisboa").',
  'A failed call returns `isError: true` with a problem document (`type`, `title`, `status`, `detail`, and `errors` ' +
    'naming each bad argument): fix the arguments rather than retrying unchanged.',
].join(' ');

export interface ServerDescription {
  readonly serverInfo: { readonly name: string; readonly title: string; readonly version: string };
  readonly instructions: string;
  /** What it offers; tools only when not said. */
  readonly capabilities?: object;
}

/**
 * How long (ms) a client may keep a `tools/list` or `server/discover` result of the modern era (its `ttlMs`): the
 * tools and the server's description change only with a deployment of the software or of a company agent.
 */
export const RESULT_TTL_MS = 300_000;

/** What a server says about itself, serialised once per server (the data service; each company deployment revision). */
export interface ServerFacts {
  /** The `initialize` result (JSON text) for each 2025 version. */
  readonly initialize: Readonly<Record<LegacyVersion, string>>;
  /** The `server/discover` result (JSON text). */
  readonly discover: string;
  /**
   * The members every result of the modern era adds (`resultType`, `_meta` with the server info), as JSON text
   * without braces, to be spliced into a result object.
   */
  readonly modernMembers: string;
  /** It offers resources (the data service's MCP Apps views), in both eras. */
  readonly resources: boolean;
}

export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

export function serverFacts(server: ServerDescription): ServerFacts {
  const capabilities = server.capabilities ?? CAPABILITIES;
  const initialize = Object.fromEntries(
    LEGACY_PROTOCOL_VERSIONS.map((protocolVersion) => [
      protocolVersion,
      JSON.stringify({
        protocolVersion,
        capabilities,
        serverInfo: server.serverInfo,
        instructions: server.instructions,
      }),
    ]),
  ) as Record<LegacyVersion, string>;
  const meta = { [SERVER_INFO_META]: server.serverInfo };
  // The same for every caller of this server: a shared cache may keep it (`public`).
  const discover = JSON.stringify({
    resultType: 'complete',
    supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
    capabilities,
    instructions: server.instructions,
    ttlMs: RESULT_TTL_MS,
    cacheScope: 'public',
    _meta: meta,
  });
  return Object.freeze({
    initialize: Object.freeze(initialize),
    discover,
    modernMembers: `"resultType":"complete","_meta":${JSON.stringify(meta)}`,
    resources: 'resources' in capabilities,
  });
}

/** The data service's facts. */
export const DATA_SERVER = serverFacts({
  serverInfo: SERVER_INFO,
  instructions: INSTRUCTIONS,
  capabilities: DATA_CAPABILITIES,
});
