/**
 * What the authorization server keeps (docs/oauth.md): one record per model (`Client`, `Grant`, `AuthorizationCode`,
 * `AccessToken`, `RefreshToken`, `Session`, `Interaction`, the signing keys…) and id, with its payload as the
 * OAuth library wrote it. The columns the server searches by — grant, interaction uid, account — are read out of
 * the payload once, when it is written.
 */

export interface OAuthRecord {
  readonly model: string;
  readonly id: string;
  readonly payload: Record<string, unknown>;
  /** Milliseconds since the epoch; null for records that do not expire (clients, signing keys). */
  readonly expiresAtMs: number | null;
  readonly consumed: boolean;
  /** The first and the last time a token of this grant was accepted (Grant records only). */
  readonly firstUsedAtMs: number | null;
  readonly lastUsedAtMs: number | null;
}

export interface OAuthStore {
  oauthUpsert(model: string, id: string, payload: Record<string, unknown>, expiresAtMs: number | null): Promise<void>;
  /** The record, unless it has expired. */
  oauthFind(model: string, id: string, nowMs: number): Promise<OAuthRecord | undefined>;
  oauthFindByUid(model: string, uid: string, nowMs: number): Promise<OAuthRecord | undefined>;
  oauthConsume(model: string, id: string): Promise<void>;
  oauthDestroy(model: string, id: string): Promise<void>;
  /** Removes every record of the grant, of every model (the grant itself, its codes and tokens). */
  oauthRevokeGrant(grantId: string): Promise<void>;
  /** Live records of a model, optionally those of one account, oldest first. */
  oauthList(model: string, nowMs: number, filter?: { accountId?: string }): Promise<OAuthRecord[]>;
  oauthTouchGrant(grantId: string, nowMs: number): Promise<void>;
}

/** One process's records (tests, and a single instance without a shared store). */
export class MemoryOAuthStore implements OAuthStore {
  readonly #records = new Map<string, OAuthRecord & { grantId?: string; uid?: string; accountId?: string }>();

  async oauthUpsert(model: string, id: string, payload: Record<string, unknown>, expiresAtMs: number | null): Promise<void> {
    const previous = this.#records.get(`${model} ${id}`);
    this.#records.set(`${model} ${id}`, {
      model,
      id,
      payload: structuredClone(payload),
      expiresAtMs,
      consumed: false,
      firstUsedAtMs: previous?.firstUsedAtMs ?? null,
      lastUsedAtMs: previous?.lastUsedAtMs ?? null,
      grantId: stringOf(payload.grantId),
      uid: stringOf(payload.uid),
      accountId: stringOf(payload.accountId),
    });
  }

  async oauthFind(model: string, id: string, nowMs: number): Promise<OAuthRecord | undefined> {
    const record = this.#records.get(`${model} ${id}`);
    return record && live(record, nowMs) ? structuredClone(record) : undefined;
  }

  async oauthFindByUid(model: string, uid: string, nowMs: number): Promise<OAuthRecord | undefined> {
    for (const record of this.#records.values()) {
      if (record.model === model && record.uid === uid && live(record, nowMs)) return structuredClone(record);
    }
    return undefined;
  }

  async oauthConsume(model: string, id: string): Promise<void> {
    const record = this.#records.get(`${model} ${id}`);
    if (record) this.#records.set(`${model} ${id}`, { ...record, consumed: true });
  }

  async oauthDestroy(model: string, id: string): Promise<void> {
    this.#records.delete(`${model} ${id}`);
  }

  async oauthRevokeGrant(grantId: string): Promise<void> {
    for (const [key, record] of this.#records) {
      if (record.grantId === grantId || (record.model === 'Grant' && record.id === grantId)) this.#records.delete(key);
    }
  }

  async oauthList(model: string, nowMs: number, filter: { accountId?: string } = {}): Promise<OAuthRecord[]> {
    return [...this.#records.values()]
      .filter((r) => r.model === model && live(r, nowMs) && (filter.accountId === undefined || r.accountId === filter.accountId))
      .map((r) => structuredClone(r));
  }

  async oauthTouchGrant(grantId: string, nowMs: number): Promise<void> {
    const record = this.#records.get(`Grant ${grantId}`);
    if (record) this.#records.set(`Grant ${grantId}`, { ...record, firstUsedAtMs: record.firstUsedAtMs ?? nowMs, lastUsedAtMs: nowMs });
  }
}

function live(record: OAuthRecord, nowMs: number): boolean {
  return record.expiresAtMs === null || record.expiresAtMs > nowMs;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
