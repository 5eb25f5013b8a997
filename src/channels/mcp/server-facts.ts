/**
 * What an MCP server says about itself (server info, capabilities, instructions) in each era, serialised once per
 * server. docs/mcp.md, "Two eras on one endpoint", says what each era sees.
 */
import { readFileSync } from 'node:fs';
import { SERVICE_ICON, serviceIconUrl } from '../../lib/service.js';
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

/** The data server's name, title and description: MCP `serverInfo`, and the registry's `server.json` (a test). */
export const SERVER_IDENTITY = Object.freeze({
  name: 'munidata',
  title: 'munidata: Portuguese municipal data',
  // At most 100 characters: the registry's limit for server.json, which says the same.
  description: "Read-only data on Portugal's 308 municipalities: indicators, procurement, signals and alerts.",
  version: packageVersion(),
});

/**
 * What a server offers besides tools, each with its capability and its methods (docs/mcp.md, Methods). No list
 * ever changes while a client is connected, and no resource is watched: no stream could carry a notification (the
 * server is stateless and offers no GET stream).
 */
export const FEATURES = {
  resources: {
    capability: { subscribe: false, listChanged: false },
    methods: ['resources/list', 'resources/templates/list', 'resources/read'],
  },
  prompts: { capability: { listChanged: false }, methods: ['prompts/list', 'prompts/get'] },
  completions: { capability: {}, methods: ['completion/complete'] },
} as const;
export type McpFeature = keyof typeof FEATURES;

function capabilitiesOf(features: readonly McpFeature[], extensions: object | undefined) {
  return {
    tools: { listChanged: false },
    ...Object.fromEntries(features.map((feature) => [feature, FEATURES[feature].capability])),
    ...(extensions ? { extensions } : {}),
  };
}

/** The extensions the data server offers: MCP Apps' views of its tools (docs/mcp.md, "Apps"). */
const DATA_EXTENSIONS = Object.freeze({ [UI_EXTENSION]: Object.freeze({ mimeTypes: [APP_MIME_TYPE] }) });

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
  'Records are also resources (munidata://municipalities/{code} and the other templates; a read counts as the tool ' +
    'call), and four prompts (pt or en) embed the data of a ready analysis.',
  'A failed call returns `isError: true` with a problem document (`type`, `title`, `status`, `detail`, and `errors` ' +
    'naming each bad argument): fix the arguments rather than retrying unchanged.',
].join(' ');

/** An icon as MCP lists it (2025-11-25 on): `src`, `mimeType`, `sizes`. */
export interface ServerIcon {
  readonly src: string;
  readonly mimeType: string;
  readonly sizes: readonly string[];
}

/**
 * A server's `Implementation`. 2025-06-18 defines only name, title and version; description, websiteUrl and icons
 * came with 2025-11-25 and are given to that revision and the ones after it.
 */
export interface ServerInfo {
  readonly name: string;
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly websiteUrl: string;
  readonly icons: readonly ServerIcon[];
}

export interface ServerDescription {
  readonly serverInfo: ServerInfo;
  readonly instructions: string;
  /** What it offers besides tools (none: a tools-only server). */
  readonly features?: readonly McpFeature[];
  /** The protocol extensions it offers, as `capabilities.extensions` names them. */
  readonly extensions?: object;
}

/** The service's icon at this address, as `serverInfo.icons` lists it (an SVG scales to any size). */
export function serviceIcons(iconUrl: string): readonly ServerIcon[] {
  return [{ src: iconUrl, mimeType: SERVICE_ICON.mimeType, sizes: ['any'] }];
}

/** The members 2025-06-18 knows. */
function serverInfoOf(version: LegacyVersion, info: ServerInfo) {
  return version === '2025-06-18' ? { name: info.name, title: info.title, version: info.version } : info;
}

/**
 * How long (ms) a client may keep a `tools/list` or `server/discover` result of the modern era (its `ttlMs`): the
 * tools and the server's description change only with a deployment of the software or of a company agent.
 */
export const RESULT_TTL_MS = 300_000;

/**
 * How long (ms) a client may keep a `resources/read` result of the modern era: the data moves only with an import,
 * a few times a day at most; a minute keeps an agent's repeated reads local without serving day-old data.
 */
export const READ_TTL_MS = 60_000;

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
  /** The methods it answers besides the tools' and the handshake's (its features'). */
  readonly methods: readonly string[];
}

export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

export function serverFacts(server: ServerDescription): ServerFacts {
  const features = server.features ?? [];
  const capabilities = capabilitiesOf(features, server.extensions);
  const initialize = Object.fromEntries(
    LEGACY_PROTOCOL_VERSIONS.map((protocolVersion) => [
      protocolVersion,
      JSON.stringify({
        protocolVersion,
        capabilities,
        serverInfo: serverInfoOf(protocolVersion, server.serverInfo),
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
    methods: Object.freeze(features.flatMap((feature) => FEATURES[feature].methods)),
  });
}

/** The data service's facts: its address names its website and its icon; it offers resources, prompts, completions. */
export function dataServerFacts(baseUrl: string): ServerFacts {
  return serverFacts({
    serverInfo: { ...SERVER_IDENTITY, websiteUrl: `${baseUrl}/docs`, icons: serviceIcons(serviceIconUrl(baseUrl)) },
    instructions: INSTRUCTIONS,
    features: ['resources', 'prompts', 'completions'],
    extensions: DATA_EXTENSIONS,
  });
}
