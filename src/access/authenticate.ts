/**
 * From the credential of a request to a `Caller`. Answers are cached for a few seconds, keyed by the hash of
 * the secret, so that the hot path does not read the store on every request; a revoked or expired key, or a
 * changed plan, therefore takes effect within `CACHE_MS`.
 */

import { ApiError } from '../lib/errors.js';
import type { AccessStore } from '../store/store.js';
import { parseKeySecret, sameHash } from './api-keys.js';
import type { Caller } from './caller.js';

const CACHE_MS = 5_000;
const MAX_CACHED = 10_000;

interface CacheEntry {
  caller: Caller | undefined;
  expiresAtMs: number;
  until: number;
}

export interface CredentialHeaders {
  authorization?: string;
  apiKey?: string;
}

export class Authenticator {
  readonly #store: AccessStore;
  readonly #cache = new Map<string, CacheEntry>();

  constructor(store: AccessStore) {
    this.#store = store;
  }

  /** The caller, or `invalid-auth`. */
  async authenticate(headers: CredentialHeaders, nowMs: number): Promise<Caller> {
    const secret = credentialOf(headers);
    const parsed = secret === undefined ? undefined : parseKeySecret(secret);
    if (!parsed) throw invalid(secret === undefined ? 'No API key was sent. Send `Authorization: Bearer sk_live_…`.' : malformed(headers));

    let entry = this.#cache.get(parsed.hash);
    if (!entry || entry.until <= nowMs) {
      entry = { ...(await this.#load(parsed.lookup, parsed.hash)), until: nowMs + CACHE_MS };
      if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
      this.#cache.set(parsed.hash, entry);
    }
    if (!entry.caller) throw invalid();
    if (entry.expiresAtMs <= nowMs) throw invalid('The API key has expired.');
    return entry.caller;
  }

  async #load(lookup: string, hash: string): Promise<Omit<CacheEntry, 'until'>> {
    const grant = await this.#store.findKeyGrant(lookup);
    if (!grant || !sameHash(grant.key.hash, hash) || grant.key.revoked_at !== null) {
      return { caller: undefined, expiresAtMs: Number.POSITIVE_INFINITY };
    }
    return {
      caller: Object.freeze({ keyId: grant.key.id, scopes: grant.key.scopes, account: grant.account, plan: grant.plan }),
      expiresAtMs: grant.key.expires_at === null ? Number.POSITIVE_INFINITY : Date.parse(grant.key.expires_at),
    };
  }
}

/** `Authorization: Bearer <key>` first; `X-API-Key` as the fallback (docs/api.md, Authentication). */
export function credentialOf(headers: CredentialHeaders): string | undefined {
  const authorization = headers.authorization?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return match ? match[1] : '';
  }
  const apiKey = headers.apiKey?.trim();
  return apiKey ? apiKey : undefined;
}

/**
 * What is wrong with an `Authorization` header that holds no Bearer credential: a key sent without its scheme is
 * not a wrong key, and saying so spares the caller a hunt for a revoked key (docs/api.md, Authentication).
 */
function malformed(headers: CredentialHeaders): string | undefined {
  const authorization = headers.authorization?.trim();
  if (!authorization || /^Bearer\s+\S+$/i.test(authorization)) return undefined;
  if (/^sk_[a-z]+_\S+$/i.test(authorization)) {
    return 'The Authorization header holds the key without its scheme: "Bearer " is missing. Send `Authorization: Bearer sk_live_…`.';
  }
  if (/^Bearer\s*$/i.test(authorization))
    return 'The Authorization header says "Bearer" but no key follows it. Send `Authorization: Bearer sk_live_…`.';
  // The header's text is not echoed: a token sent by mistake is a secret too.
  return 'The Authorization header does not use the "Bearer" scheme, the only one the service takes. Send `Authorization: Bearer sk_live_…`.';
}

function invalid(detail = 'The API key is not valid: it is wrong, expired or revoked.'): ApiError {
  return new ApiError('invalid-auth', { detail });
}
