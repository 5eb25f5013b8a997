/**
 * From the credential of a request to a `Caller`: an API key (`sk_live_…`), or on the agent channels an OAuth
 * access token (docs/oauth.md), told apart by the key prefix before anything is looked up. Answers are cached
 * for a few seconds, keyed by the hash of the secret, so that the hot path does not read the store on every
 * request. Each cached answer remembers the store's access version it was read at, and every request compares
 * it with the current one (a one-row read on SQLite, a value held by LISTEN on PostgreSQL): a revoked key is
 * refused at the very next request, on every instance (docs/architecture.md, Revocation). An expired key is
 * refused at its instant; a changed plan takes effect within `CACHE_MS`. A revoked OAuth grant takes effect at
 * once: its cached answers are dropped when the revocation is announced.
 */

import { ApiError } from '../lib/errors.js';
import { isApiKeyShaped } from '../lib/oauth-resource.js';
import type { AccessStore } from '../store/store.js';
import { checksumHolds, hashSecret, sameHash, shapedKeySecret } from './api-keys.js';
import type { Caller } from './caller.js';
import type { GrantRevocations, TokenVerifier } from './tokens.js';

const CACHE_MS = 5_000;
const MAX_CACHED = 10_000;
/** The shape of the authorization server's opaque access tokens (43 base64url characters), checked before a lookup. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

interface CacheEntry {
  caller: Caller | undefined;
  expiresAtMs: number;
  until: number;
  /** The store's access version when this was read. */
  version: number;
}

export interface CredentialHeaders {
  authorization?: string;
  apiKey?: string;
  /**
   * The resource an OAuth access token must be bound to for this request (the agent channels: the canonical MCP
   * URI); unset, only API keys are accepted (REST, company agents).
   */
  tokenAudience?: string;
}

export interface TokenAuthentication {
  readonly verifier: TokenVerifier;
  readonly revocations: GrantRevocations;
}

export class Authenticator {
  readonly #store: AccessStore;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #tokens: TokenAuthentication | undefined;
  /** Cache keys of token answers by grant, to drop them when the grant is revoked. */
  readonly #byGrant = new Map<string, Set<string>>();

  constructor(store: AccessStore, tokens?: TokenAuthentication) {
    this.#store = store;
    this.#tokens = tokens;
    tokens?.revocations.onRevoked((grantId) => this.#forgetGrant(grantId));
  }

  /** The caller, or `invalid-auth`. */
  async authenticate(headers: CredentialHeaders, nowMs: number): Promise<Caller> {
    const secret = credentialOf(headers);
    if (secret === undefined) throw invalid('No API key was sent. Send `Authorization: Bearer sk_live_…`.');
    // A malformed Authorization header gives an empty credential: it is answered as a key's, with what is wrong.
    if (secret !== '' && !isApiKeyShaped(secret) && headers.tokenAudience !== undefined && this.#tokens) {
      // Tokens travel only in `Authorization: Bearer` (docs/oauth.md); X-API-Key takes API keys.
      if (!headers.authorization?.trim()) throw tokenOutsideAuthorization();
      return this.#authenticateToken(secret, headers.tokenAudience, nowMs);
    }
    const parsed = shapedKeySecret(secret);
    // A mistyped key is refused before the store is read; one with a cached answer was checked when it was made.
    if (!parsed || (!this.#cache.has(parsed.hash) && !checksumHolds(parsed))) throw invalid(malformed(headers));

    const current = this.#store.accessVersion();
    // Not awaited when the store knows it at once (PostgreSQL's held value): every request's path. SQLite's is the
    // read the requests of one turn of the event loop share.
    const version = typeof current === 'number' ? current : await current;
    let entry = this.#cache.get(parsed.hash);
    if (!entry || entry.until <= nowMs || entry.version !== version) {
      entry = { ...(await this.#load(parsed.lookup, parsed.hash)), until: nowMs + CACHE_MS, version };
      this.#remember(parsed.hash, entry);
    }
    if (!entry.caller) throw invalid();
    if (entry.expiresAtMs <= nowMs) throw invalid('The API key has expired.');
    return entry.caller;
  }

  async #authenticateToken(token: string, audience: string, nowMs: number): Promise<Caller> {
    if (!TOKEN_PATTERN.test(token)) throw invalidToken();
    // Keyed by the audience too: a token bound to another resource is refused, whichever was asked first.
    const cacheKey = `t:${hashSecret(`${audience} ${token}`)}`;
    const version = await this.#store.accessVersion();
    let entry = this.#cache.get(cacheKey);
    if (!entry || entry.until <= nowMs || entry.version !== version) {
      entry = { ...(await this.#loadToken(token, audience, cacheKey)), until: nowMs + CACHE_MS, version };
      this.#remember(cacheKey, entry);
    }
    if (!entry.caller || entry.expiresAtMs <= nowMs) throw invalidToken();
    return entry.caller;
  }

  async #loadToken(token: string, audience: string, cacheKey: string): Promise<Omit<CacheEntry, 'until' | 'version'>> {
    const verified = await this.#tokens?.verifier.verify(token, audience);
    const account = verified && (await this.#store.getAccount(verified.accountId));
    const plan = account && (await this.#store.getPlan(account.plan_code));
    if (!verified || !account || !plan) return { caller: undefined, expiresAtMs: Number.POSITIVE_INFINITY };
    const keys = this.#byGrant.get(verified.grantId) ?? new Set<string>();
    keys.add(cacheKey);
    this.#byGrant.set(verified.grantId, keys);
    return {
      caller: Object.freeze({
        keyId: null,
        oauth: Object.freeze({ grantId: verified.grantId, clientId: verified.clientId }),
        scopes: verified.scopes,
        account,
        plan,
      }),
      expiresAtMs: verified.expiresAtMs,
    };
  }

  #remember(key: string, entry: CacheEntry): void {
    if (this.#cache.size >= MAX_CACHED) {
      this.#cache.clear();
      this.#byGrant.clear();
    }
    this.#cache.set(key, entry);
  }

  #forgetGrant(grantId: string): void {
    for (const key of this.#byGrant.get(grantId) ?? []) this.#cache.delete(key);
    this.#byGrant.delete(grantId);
  }

  async #load(lookup: string, hash: string): Promise<Omit<CacheEntry, 'until' | 'version'>> {
    const grant = await this.#store.findKeyGrant(lookup);
    if (!grant || !sameHash(grant.key.hash, hash) || grant.key.revoked_at !== null) {
      return { caller: undefined, expiresAtMs: Number.POSITIVE_INFINITY };
    }
    return {
      caller: Object.freeze({
        keyId: grant.key.id,
        scopes: grant.key.scopes,
        account: grant.account,
        plan: grant.plan,
      }),
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
    return (
      'The Authorization header holds the key without its scheme: "Bearer " is missing. Send `Authorization: ' +
      'Bearer sk_live_…`.'
    );
  }
  if (/^Bearer\s*$/i.test(authorization))
    return 'The Authorization header says "Bearer" but no key follows it. Send `Authorization: Bearer sk_live_…`.';
  // The header's text is not echoed: a token sent by mistake is a secret too.
  return (
    'The Authorization header does not use the "Bearer" scheme, the only one the service takes. Send ' +
    '`Authorization: Bearer sk_live_…`.'
  );
}

function invalid(detail = 'The API key is not valid: it is wrong, expired or revoked.'): ApiError {
  return new ApiError('invalid-auth', { detail });
}

/** A value in X-API-Key that is not an API key, on a channel that takes tokens: never read as a token. */
function tokenOutsideAuthorization(): ApiError {
  return new ApiError('invalid-auth', {
    detail:
      'X-API-Key takes API keys (sk_live_…) only: an OAuth access token is accepted only as `Authorization: Bearer …`.',
    challenge: 'invalid_token',
  });
}

/** A bearer value that is not an API key and not a live access token for this resource (RFC 6750 `invalid_token`). */
function invalidToken(): ApiError {
  return new ApiError('invalid-auth', {
    detail: 'The access token is not valid here: it is unknown, expired, revoked, or issued for another resource.',
    challenge: 'invalid_token',
  });
}
