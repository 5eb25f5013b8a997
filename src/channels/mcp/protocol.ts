/**
 * The MCP protocol facts this server stands on: the two protocol versions it speaks, how `initialize`
 * negotiates between them, and what it says about itself (server info, capabilities, instructions).
 */
import { readFileSync } from 'node:fs';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** Newest first: on an unknown requested version, `initialize` answers with the first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];
/**
 * A request without `MCP-Protocol-Version` is read as this version. (The spec's default, 2025-03-26, is not one
 * this server speaks; the oldest supported version is the closest.)
 */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-06-18';

export function isSupportedVersion(value: unknown): value is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/** The client's version when this server speaks it, else this server's latest (a counter-offer, not an error). */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** The version of the running software (package.json), two folders up from `src/` or `dist/`. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
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
 * Tools only. The tool list never changes while a client is connected (no stream could carry the
 * notification anyway: the server is stateless and offers no GET stream).
 */
export const CAPABILITIES = Object.freeze({ tools: Object.freeze({ listChanged: false }) });

/** A hint for the model's system prompt: how to start and how to read answers and refusals. */
export const INSTRUCTIONS = [
  'Read-only data on Portuguese municipalities: indicators (series, snapshots, statistics) and the 308 municipalities, plus the other data domains your plan includes.',
  'Call the tool `me` first: it is free and tells you the plan, its data domains, your scopes, the limits and the requests left this month.',
  'Only the tools your key may call are listed. Each tools/call counts as one request against the monthly quota (`me` is free).',
  'Answers are the same JSON as the REST API (`structuredContent`, and the same JSON as text); a list answer is `{"items": [...]}`.',
  'Paged tools return `next_cursor` and `has_more`: pass `next_cursor` as the `cursor` argument for the next page.',
  'Municipalities are given by their 4-digit code (e.g. "1106") or slug (e.g. "lisboa").',
  'A failed call returns `isError: true` with a problem document (`type`, `title`, `status`, `detail`, and `errors` naming each bad argument): fix the arguments rather than retrying unchanged.',
].join(' ');

export interface ServerDescription {
  readonly serverInfo: { readonly name: string; readonly title: string; readonly version: string };
  readonly instructions: string;
}

/** The `initialize` result of a server for each version, serialised once. */
export function initializeResults(server: ServerDescription): Readonly<Record<ProtocolVersion, string>> {
  return Object.freeze(
    Object.fromEntries(
      SUPPORTED_PROTOCOL_VERSIONS.map((protocolVersion) => [
        protocolVersion,
        JSON.stringify({ protocolVersion, capabilities: CAPABILITIES, serverInfo: server.serverInfo, instructions: server.instructions }),
      ]),
    ) as Record<ProtocolVersion, string>,
  );
}

/** The data service's `initialize` result for each version. */
export const INITIALIZE_RESULTS = initializeResults({ serverInfo: SERVER_INFO, instructions: INSTRUCTIONS });
