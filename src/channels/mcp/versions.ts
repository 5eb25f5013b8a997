/**
 * The MCP protocol versions this server speaks — the two 2025 revisions, served with an `initialize` handshake (the
 * legacy era), and 2026-07-28, served per request (the modern era) — and how `initialize` negotiates between the
 * 2025 ones. docs/mcp.md, "Two eras on one endpoint".
 */

/**
 * The versions negotiated with `initialize`, newest first: on an unknown requested version, `initialize` answers with
 * the first.
 */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18'] as const;
export type LegacyVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** The version served per request (`params._meta`), with no `initialize` and no session. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Every version this server speaks, newest first: `server/discover` and every -32022 answer list them all. */
export const SUPPORTED_PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS] as const;

export const LATEST_LEGACY_VERSION: LegacyVersion = LEGACY_PROTOCOL_VERSIONS[0];
/**
 * A request without `MCP-Protocol-Version` (and without `_meta`) is read as this version. (The spec's default,
 * 2025-03-26, is not one this server speaks; the oldest supported version is the closest.)
 */
export const DEFAULT_PROTOCOL_VERSION: LegacyVersion = '2025-06-18';

export function isLegacyVersion(value: unknown): value is LegacyVersion {
  return (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

export function isSupportedVersion(value: unknown): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/**
 * The client's version when this server negotiates it, else this server's latest 2025 one (a counter-offer, not an
 * error).
 */
export function negotiateVersion(requested: unknown): LegacyVersion {
  return isLegacyVersion(requested) ? requested : LATEST_LEGACY_VERSION;
}
