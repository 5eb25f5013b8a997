/** The console's records, written once for both stores over the SQL port (../sql/port.ts). */

import type { SqlPort, Row as SqlRow } from '../sql/port.js';
import type {
  DailyUsageEntry,
  LicenceRecord,
  NewOneTimeLink,
  NewSession,
  NewUser,
  OneTimeLinkPurpose,
  SessionRecord,
  UsageChannel,
  UserRecord,
  UserRole,
} from './console-records.js';
import type { ConsoleStore } from './console-store.js';

export class ConsoleSqlStore implements ConsoleStore {
  readonly #port: SqlPort;

  constructor(port: SqlPort) {
    this.#port = port;
  }

  async createUser(input: NewUser): Promise<UserRecord | undefined> {
    const [row] = await this.#port.query(
      `INSERT INTO console_users (account_id, email, display_name, role, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING RETURNING *`,
      [input.account_id, input.email.toLowerCase(), input.display_name, input.role, input.now],
    );
    return row ? toUser(row) : undefined;
  }

  async getUser(id: number): Promise<UserRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM console_users WHERE id = $1', [id]);
    return row ? toUser(row) : undefined;
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM console_users WHERE email = $1', [email.toLowerCase()]);
    return row ? toUser(row) : undefined;
  }

  async listUsers(accountId?: number): Promise<UserRecord[]> {
    const rows =
      accountId === undefined
        ? await this.#port.query('SELECT * FROM console_users ORDER BY id')
        : await this.#port.query('SELECT * FROM console_users WHERE account_id = $1 ORDER BY id', [accountId]);
    return rows.map(toUser);
  }

  async setUserPassword(id: number, passwordHash: string): Promise<boolean> {
    const rows = await this.#port.query('UPDATE console_users SET password_hash = $1 WHERE id = $2 RETURNING id', [passwordHash, id]);
    return rows.length > 0;
  }

  async disableUser(id: number, now: string): Promise<boolean> {
    const rows = await this.#port.query('UPDATE console_users SET disabled_at = $1 WHERE id = $2 AND disabled_at IS NULL RETURNING id', [
      now,
      id,
    ]);
    return rows.length > 0;
  }

  async createOneTimeLink(link: NewOneTimeLink): Promise<void> {
    await this.#port.query('INSERT INTO console_links (hash, user_id, purpose, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
      link.hash,
      link.user_id,
      link.purpose,
      link.expires_at,
      link.now,
    ]);
  }

  async useOneTimeLink(hash: string, now: string): Promise<{ user_id: number; purpose: OneTimeLinkPurpose } | undefined> {
    const [row] = await this.#port.query(
      'UPDATE console_links SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id, purpose',
      [now, hash, now],
    );
    return row ? { user_id: Number(row.user_id), purpose: row.purpose as OneTimeLinkPurpose } : undefined;
  }

  async createSession(session: NewSession): Promise<void> {
    await this.#port.query(
      `INSERT INTO console_sessions (id, user_id, created_at, last_seen_at, expires_at, user_agent, address)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [session.id, session.user_id, session.now, session.now, session.expires_at, session.user_agent, session.address],
    );
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM console_sessions WHERE id = $1', [id]);
    return row ? toSession(row) : undefined;
  }

  async touchSession(id: string, now: string): Promise<void> {
    await this.#port.query('UPDATE console_sessions SET last_seen_at = $1 WHERE id = $2 AND last_seen_at < $3', [now, id, now]);
  }

  async endSession(id: string, now: string): Promise<boolean> {
    const rows = await this.#port.query('UPDATE console_sessions SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL RETURNING id', [
      now,
      id,
    ]);
    return rows.length > 0;
  }

  async endUserSessions(userId: number, now: string, keep?: string): Promise<number> {
    const rows = await this.#port.query(
      'UPDATE console_sessions SET ended_at = $1 WHERE user_id = $2 AND ended_at IS NULL AND id <> $3 RETURNING id',
      [now, userId, keep ?? ''],
    );
    return rows.length;
  }

  async listOpenSessions(userId: number, now: string): Promise<SessionRecord[]> {
    const rows = await this.#port.query(
      'SELECT * FROM console_sessions WHERE user_id = $1 AND ended_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id',
      [userId, now],
    );
    return rows.map(toSession);
  }

  async recordSignInFailure(subjects: readonly string[], at: string): Promise<void> {
    await this.#port.transaction(async (tx) => {
      for (const subject of subjects) await tx.query('INSERT INTO console_sign_in_failures (subject, at) VALUES ($1, $2)', [subject, at]);
    });
  }

  async countSignInFailures(subject: string, since: string): Promise<number> {
    const [row] = await this.#port.query('SELECT count(*) AS n FROM console_sign_in_failures WHERE subject = $1 AND at >= $2', [
      subject,
      since,
    ]);
    return Number(row.n);
  }

  async pruneSignInFailures(before: string): Promise<void> {
    await this.#port.query('DELETE FROM console_sign_in_failures WHERE at < $1', [before]);
  }

  async setDeploymentOwner(deploymentId: number, accountId: number): Promise<void> {
    await this.#port.query(
      'INSERT INTO console_deployment_owners (deployment_id, account_id) VALUES ($1, $2) ON CONFLICT (deployment_id) DO NOTHING',
      [deploymentId, accountId],
    );
  }

  async getDeploymentOwner(deploymentId: number): Promise<number | undefined> {
    const [row] = await this.#port.query('SELECT account_id FROM console_deployment_owners WHERE deployment_id = $1', [deploymentId]);
    return row ? Number(row.account_id) : undefined;
  }

  async listDeploymentOwners(): Promise<Map<number, number>> {
    const rows = await this.#port.query('SELECT deployment_id, account_id FROM console_deployment_owners');
    return new Map(rows.map((r) => [Number(r.deployment_id), Number(r.account_id)]));
  }

  async createLicence(input: Omit<LicenceRecord, 'id' | 'created_at' | 'revoked_at'> & { now: string }): Promise<LicenceRecord> {
    const [row] = await this.#port.query(
      `INSERT INTO console_licences (deployment_id, buyer_account_id, credential_id, created_at) VALUES ($1, $2, $3, $4) RETURNING *`,
      [input.deployment_id, input.buyer_account_id, input.credential_id, input.now],
    );
    return toLicence(row);
  }

  async getLicence(id: number): Promise<LicenceRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM console_licences WHERE id = $1', [id]);
    return row ? toLicence(row) : undefined;
  }

  async listLicencesOfDeployments(deploymentIds: readonly number[]): Promise<LicenceRecord[]> {
    if (deploymentIds.length === 0) return [];
    const rows = await this.#port.query(
      `SELECT * FROM console_licences WHERE ${this.#port.dialect.inList('deployment_id', '$1')} ORDER BY id DESC`,
      [deploymentIds],
    );
    return rows.map(toLicence);
  }

  async listLicencesOfBuyer(accountId: number): Promise<LicenceRecord[]> {
    const rows = await this.#port.query('SELECT * FROM console_licences WHERE buyer_account_id = $1 ORDER BY id DESC', [accountId]);
    return rows.map(toLicence);
  }

  async revokeLicence(id: number, now: string): Promise<boolean> {
    const rows = await this.#port.query('UPDATE console_licences SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id', [
      now,
      id,
    ]);
    return rows.length > 0;
  }

  async recordKeyUse(entries: readonly { keyId: number; at: string }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#port.transaction(async (tx) => {
      for (const e of entries) {
        await tx.run(
          `INSERT INTO console_key_use (key_id, last_used_at) VALUES ($1, $2)
           ON CONFLICT (key_id) DO UPDATE SET last_used_at = CASE WHEN excluded.last_used_at > console_key_use.last_used_at
             THEN excluded.last_used_at ELSE console_key_use.last_used_at END`,
          [e.keyId, e.at],
        );
      }
    });
  }

  async keysLastUsed(keyIds: readonly number[]): Promise<Map<number, string>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.#port.query(
      `SELECT key_id, last_used_at FROM console_key_use WHERE ${this.#port.dialect.inList('key_id', '$1')}`,
      [keyIds],
    );
    return new Map(rows.map((r) => [Number(r.key_id), String(r.last_used_at)]));
  }

  async addDailyUsage(entries: readonly DailyUsageEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#port.transaction(async (tx) => {
      for (const e of entries) {
        await tx.query(
          `INSERT INTO console_usage_days (account_id, day, channel, count) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, day, channel) DO UPDATE SET count = console_usage_days.count + excluded.count`,
          [e.accountId, e.day, e.channel, e.count],
        );
      }
    });
  }

  async dailyUsage(accountId: number, fromDay: string, toDay: string): Promise<Omit<DailyUsageEntry, 'accountId'>[]> {
    const rows = await this.#port.query(
      'SELECT day, channel, count FROM console_usage_days WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, channel',
      [accountId, fromDay, toDay],
    );
    return rows.map((r) => ({ day: String(r.day), channel: r.channel as UsageChannel, count: Number(r.count) }));
  }
}

function toUser(row: SqlRow): UserRecord {
  return {
    id: Number(row.id),
    account_id: Number(row.account_id),
    email: String(row.email),
    display_name: String(row.display_name),
    role: row.role as UserRole,
    password_hash: row.password_hash === null ? null : String(row.password_hash),
    created_at: String(row.created_at),
    disabled_at: row.disabled_at === null ? null : String(row.disabled_at),
  };
}

function toSession(row: SqlRow): SessionRecord {
  return {
    id: String(row.id),
    user_id: Number(row.user_id),
    created_at: String(row.created_at),
    last_seen_at: String(row.last_seen_at),
    expires_at: String(row.expires_at),
    ended_at: row.ended_at === null ? null : String(row.ended_at),
    user_agent: row.user_agent === null ? null : String(row.user_agent),
    address: row.address === null ? null : String(row.address),
  };
}

function toLicence(row: SqlRow): LicenceRecord {
  return {
    id: Number(row.id),
    deployment_id: Number(row.deployment_id),
    buyer_account_id: Number(row.buyer_account_id),
    credential_id: Number(row.credential_id),
    created_at: String(row.created_at),
    revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
  };
}
