/** Creating, listing and revoking API keys. The secret exists only in the value `createKey` returns. */
import { generateKeySecret } from '../access/api-keys.js';
import { AdminError } from '../lib/admin-error.js';
import { isDate } from '../lib/calendar.js';
import { isScope, SCOPES, type Scope } from '../lib/domains.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export interface CreatedKey {
  key: PublicKeyView;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** A key as it may be shown: never the hash, never the secret. */
export interface PublicKeyView {
  id: number;
  account_id: number;
  prefix: string;
  label: string | null;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export async function createKey(
  store: Store,
  input: { accountId: number; scopes?: string[]; expires?: string; label?: string },
  now: Date,
): Promise<CreatedKey> {
  if (!(await store.getAccount(input.accountId))) throw new AdminError(`No account with id ${input.accountId}.`);
  const scopes = parseScopes(input.scopes);
  const expiresAt = input.expires === undefined ? null : parseExpiry(input.expires, now);
  const { secret, lookup, hash } = generateKeySecret();
  const key = await store.createApiKey({
    account_id: input.accountId,
    lookup,
    hash,
    label: input.label ?? null,
    scopes,
    expires_at: expiresAt,
    now: now.toISOString(),
  });
  return { key: toPublicView(key), secret };
}

export async function listKeys(store: Store, accountId: number): Promise<PublicKeyView[]> {
  if (!(await store.getAccount(accountId))) throw new AdminError(`No account with id ${accountId}.`);
  return (await store.listApiKeys(accountId)).map(toPublicView);
}

export async function revokeKey(store: Store, keyId: number, now: Date): Promise<void> {
  if (!(await store.revokeApiKey(keyId, now.toISOString()))) {
    throw new AdminError(`No active key with id ${keyId} (it does not exist or is already revoked).`);
  }
}

export function toPublicView(key: ApiKeyRecord): PublicKeyView {
  return {
    id: key.id,
    account_id: key.account_id,
    prefix: `sk_live_${key.lookup.slice(0, 4)}…`,
    label: key.label,
    scopes: key.scopes,
    expires_at: key.expires_at,
    revoked_at: key.revoked_at,
    created_at: key.created_at,
  };
}

function parseScopes(scopes: string[] | undefined): Scope[] {
  if (scopes === undefined) return [...SCOPES];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw new AdminError(`Unknown scope ${unknown.join(', ')}. Scopes: ${SCOPES.join(', ')}.`);
  return [...new Set(scopes)] as Scope[];
}

/**
 * The last day (YYYY-MM-DD, UTC) a key works: the day `--expires` named, as the key stops at the midnight after it.
 */
export function lastDayOf(expiresAt: string): string {
  return new Date(Date.parse(expiresAt) - 1).toISOString().slice(0, 10);
}

/** `--expires YYYY-MM-DD`: the key works through that day (UTC) and stops at the next midnight. */
function parseExpiry(date: string, now: Date): string {
  const day = isDate(date) ? new Date(`${date}T00:00:00Z`) : undefined;
  if (!day) {
    throw new AdminError(`--expires must be a date YYYY-MM-DD; got "${date}".`);
  }
  const end = new Date(day.getTime() + 86_400_000);
  if (end <= now) throw new AdminError(`--expires ${date} is in the past.`);
  return end.toISOString();
}
