/**
 * The authorization server's records in SQL, written once for both stores (docs/oauth.md, Scale-out): one table
 * keyed by model and id, the payload as JSON text, and the columns searched by read out of it when written. Every
 * instance reads and writes the same rows, so that any instance serves any step of a flow.
 */
import type { SqlPort } from '../sql/port.js';

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

/** Expired records are swept once every this many writes. */
const SWEEP_EVERY = 200;

export class OAuthSqlStore {
  readonly #sql: SqlPort;
  /** Bumps the store's access version (docs/architecture.md, Revocation): every instance rereads its cached grants. */
  readonly #bumpAccessVersion: () => Promise<unknown>;
  #writes = 0;

  constructor(sql: SqlPort, bumpAccessVersion: () => Promise<unknown>) {
    this.#sql = sql;
    this.#bumpAccessVersion = bumpAccessVersion;
  }

  async oauthUpsert(
    model: string,
    id: string,
    payload: Record<string, unknown>,
    expiresAtMs: number | null,
  ): Promise<void> {
    await this.#sql.run(
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, account_id, expires_at, consumed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, account_id = excluded.account_id, expires_at = excluded.expires_at, consumed = 0`,
      [
        model,
        id,
        JSON.stringify(payload),
        text(payload.grantId),
        text(payload.uid),
        text(payload.accountId),
        expiresAtMs,
      ],
    );
    if (++this.#writes % SWEEP_EVERY === 0) {
      await this.#sql.run('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < $1', [Date.now()]);
    }
  }

  /** The record, unless it has expired. */
  async oauthFind(model: string, id: string, nowMs: number): Promise<OAuthRecord | undefined> {
    const rows = await this.#sql.query(`SELECT * FROM oauth_records WHERE model = $1 AND id = $2 AND ${LIVE}`, [
      model,
      id,
      nowMs,
    ]);
    return rows[0] && toRecord(rows[0]);
  }

  async oauthFindByUid(model: string, uid: string, nowMs: number): Promise<OAuthRecord | undefined> {
    const rows = await this.#sql.query(`SELECT * FROM oauth_records WHERE model = $1 AND uid = $2 AND ${LIVE}`, [
      model,
      uid,
      nowMs,
    ]);
    return rows[0] && toRecord(rows[0]);
  }

  async oauthConsume(model: string, id: string): Promise<void> {
    await this.#sql.run('UPDATE oauth_records SET consumed = 1 WHERE model = $1 AND id = $2', [model, id]);
  }

  async oauthDestroy(model: string, id: string): Promise<void> {
    await this.#sql.run('DELETE FROM oauth_records WHERE model = $1 AND id = $2', [model, id]);
  }

  /** Removes every record of the grant, of every model (the grant itself, its codes and tokens). */
  async oauthRevokeGrant(grantId: string): Promise<void> {
    await this.#sql.run("DELETE FROM oauth_records WHERE grant_id = $1 OR (model = 'Grant' AND id = $1)", [grantId]);
    // After the delete is committed: an instance that rereads then finds the grant gone, as for a revoked key.
    await this.#bumpAccessVersion();
  }

  /** Live records of a model, optionally those of one account, oldest first. */
  async oauthList(model: string, nowMs: number, filter: { accountId?: string } = {}): Promise<OAuthRecord[]> {
    const rows =
      filter.accountId === undefined
        ? await this.#sql.query(
            `SELECT * FROM oauth_records WHERE model = $1 AND ${LIVE.replace('$3', '$2')} ORDER BY id`,
            [model, nowMs],
          )
        : await this.#sql.query(
            `SELECT * FROM oauth_records WHERE model = $1 AND account_id = $3
             AND ${LIVE.replace('$3', '$2')} ORDER BY id`,
            [model, nowMs, filter.accountId],
          );
    return rows.map(toRecord);
  }

  async oauthTouchGrant(grantId: string, nowMs: number): Promise<void> {
    await this.#sql.run(
      'UPDATE oauth_records SET first_used_at = COALESCE(first_used_at, $2), last_used_at = $2 ' +
        "WHERE model = 'Grant' AND id = $1",
      [grantId, nowMs],
    );
  }
}

/** Not expired at `$3`. */
const LIVE = '(expires_at IS NULL OR expires_at > $3)';

function toRecord(row: Record<string, unknown>): OAuthRecord {
  return {
    model: String(row.model),
    id: String(row.id),
    payload: JSON.parse(String(row.payload)) as Record<string, unknown>,
    expiresAtMs: row.expires_at === null ? null : Number(row.expires_at),
    consumed: Number(row.consumed) === 1,
    firstUsedAtMs: row.first_used_at === null ? null : Number(row.first_used_at),
    lastUsedAtMs: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/**
 * What the authorization server needs of the store (`Store.oauth`); each method's guarantee is on OAuthSqlStore above.
 */
export type OAuthStore = Pick<OAuthSqlStore, keyof OAuthSqlStore>;
