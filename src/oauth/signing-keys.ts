/**
 * The service's signing keys (ES256), kept in the store so that every instance signs and publishes the same ones
 * (`/oauth/jwks`): the authorization server's tokens and the A2A agent cards (docs/a2a.md, Signed cards) are
 * signed with the first. `munidata oauth keys rotate` puts a new key first — it signs from the next start of each
 * instance — and keeps every key it retired less than RETIRED_KEY_OVERLAP_DAYS ago published, so that what it
 * signed still verifies (docs/oauth.md, Signing keys).
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { OAuthStore } from '../store/oauth/oauth-sql-store.js';

const MODEL = 'SigningKeys';
const ID = 'jwks';
/** How long a retired key stays published: a card or token it signed verifies at least this long after rotation. */
export const RETIRED_KEY_OVERLAP_DAYS = 30;
const OVERLAP_MS = RETIRED_KEY_OVERLAP_DAYS * 24 * 60 * 60 * 1000;

/** What the store keeps: the keys, newest first, and when each one a rotation replaced was retired. */
interface KeySet {
  readonly keys: JWK[];
  readonly retired: Record<string, string>;
}

export interface PublicKeyInfo {
  readonly kid: string;
  readonly createdAt: string;
  /** When a rotation replaced it; null for the key that signs. */
  readonly retiredAt: string | null;
}

async function read(store: OAuthStore): Promise<KeySet> {
  const payload = (await store.oauthFind(MODEL, ID, Date.now()))?.payload;
  return {
    keys: (payload?.keys as JWK[] | undefined) ?? [],
    retired: (payload?.retired as Record<string, string> | undefined) ?? {},
  };
}

/** The keys, the one that signs first, creating it on first use. */
export async function signingKeys(store: OAuthStore): Promise<{ keys: JWK[] }> {
  const { keys } = await read(store);
  if (keys.length > 0) return { keys };
  const created = [newKey(new Date())];
  await store.oauthUpsert(MODEL, ID, { keys: created, retired: {} }, null);
  // Two instances starting at once may both create one: read back the one that was written last.
  const written = await read(store);
  return { keys: written.keys.length > 0 ? written.keys : created };
}

/**
 * A new signing key first; the one it replaces, and every key retired less than the overlap ago, stay published.
 * Returns the keys, newest first.
 */
export async function rotateSigningKeys(store: OAuthStore, nowMs = Date.now()): Promise<PublicKeyInfo[]> {
  await signingKeys(store);
  const { keys, retired } = await read(store);
  const now = new Date(nowMs);
  const replaced = String(keys[0].kid);
  const stillPublished = (key: JWK) => {
    const at = retired[String(key.kid)];
    return at !== undefined && nowMs - Date.parse(at) < OVERLAP_MS;
  };
  const next = [newKey(now), keys[0], ...keys.slice(1).filter(stillPublished)];
  const nextRetired: Record<string, string> = { [replaced]: now.toISOString() };
  for (const key of next.slice(2)) nextRetired[String(key.kid)] = retired[String(key.kid)];
  await store.oauthUpsert(MODEL, ID, { keys: next, retired: nextRetired }, null);
  return next.map((key) => info(key, nextRetired));
}

export async function listSigningKeys(store: OAuthStore): Promise<PublicKeyInfo[]> {
  await signingKeys(store);
  const { keys, retired } = await read(store);
  return keys.map((key) => info(key, retired));
}

function newKey(now: Date): JWK {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return {
    ...jwk,
    kid: `${now.toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`,
    alg: 'ES256',
    use: 'sig',
  };
}

function info(key: JWK, retired: Record<string, string>): PublicKeyInfo {
  const kid = String(key.kid);
  return { kid, createdAt: kid.slice(0, 10), retiredAt: retired[kid] ?? null };
}
