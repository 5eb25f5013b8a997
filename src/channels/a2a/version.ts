/**
 * A2A version negotiation (A2A 1.0 §3.6): the `A2A-Version` header, else the `A2A-Version` query parameter,
 * else 0.3 (an empty value too). Only Major.Minor counts: `1.0.3` is 1.0.
 */

export interface RequestedVersion {
  /** What the client sent, or `0.3` when it sent nothing. */
  readonly requested: string;
  /** True for 1.0 (any patch). */
  readonly isV1: boolean;
}

const ABSENT_VERSION = '0.3';

export function requestedVersion(header: string | string[] | undefined, query: unknown): RequestedVersion {
  const raw = first(header) ?? queryVersion(query);
  const requested = raw === undefined || raw.trim() === '' ? ABSENT_VERSION : raw.trim();
  return { requested, isV1: isVersion1(requested) };
}

function isVersion1(version: string): boolean {
  const match = /^(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(version);
  if (!match) return false;
  return Number(match[1]) === 1 && Number(match[2] ?? '0') === 0;
}

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === '' ? undefined : v;
}

function queryVersion(query: unknown): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const q = query as Record<string, unknown>;
  const value = q['A2A-Version'] ?? q['a2a-version'];
  return typeof value === 'string'
    ? value
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0]
      : undefined;
}
