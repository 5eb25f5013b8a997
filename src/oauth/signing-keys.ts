/**
 * The authorization server's signing keys (ES256), kept in the store so that every instance signs and publishes
 * the same ones (`/oauth/jwks`). `munidata oauth keys rotate` puts a new key first — it signs from the next start
 * of each instance — and keeps the previous one published, so that what it signed still verifies
 * (docs/oauth.md, Signing keys).
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { OAuthStore } from '../store/oauth/oauth-sql-store.js';

const MODEL = 'SigningKeys';
const ID = 'jwks';
/** The current key and the one before it. */
const KEPT = 2;

export interface PublicKeyInfo {
  readonly kid: string;
  readonly createdAt: string;
}

/** The keys, creating the first one on first use. */
export async function signingKeys(store: OAuthStore): Promise<{ keys: JWK[] }> {
  const record = await store.oauthFind(MODEL, ID, Date.now());
  const keys = (record?.payload.keys as JWK[] | undefined) ?? [];
  if (keys.length > 0) return { keys };
  const created = [newKey()];
  await store.oauthUpsert(MODEL, ID, { keys: created }, null);
  // Two instances starting at once may both create one: read back the one that was written last.
  const written = await store.oauthFind(MODEL, ID, Date.now());
  return { keys: (written?.payload.keys as JWK[] | undefined) ?? created };
}

/** A new signing key first, the previous current one kept; returns the key ids, newest first. */
export async function rotateSigningKeys(store: OAuthStore): Promise<PublicKeyInfo[]> {
  const { keys } = await signingKeys(store);
  const next = [newKey(), ...keys].slice(0, KEPT);
  await store.oauthUpsert(MODEL, ID, { keys: next }, null);
  return next.map(info);
}

export async function listSigningKeys(store: OAuthStore): Promise<PublicKeyInfo[]> {
  return (await signingKeys(store)).keys.map(info);
}

function newKey(): JWK {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return {
    ...jwk,
    kid: `${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`,
    alg: 'ES256',
    use: 'sig',
  };
}

function info(key: JWK): PublicKeyInfo {
  return { kid: String(key.kid), createdAt: String(key.kid).slice(0, 10) };
}
