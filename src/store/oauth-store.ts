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
