/** The console's records (held by `Store.console`), written once for both stores over the SQL port (../sql/port.ts). */

import { createHash } from 'node:crypto';
import { firstApplication, type UsageBatch } from '../access/usage-batches.js';
import { int, recordCodec, text, textOrNull } from '../shared/record-codec.js';
import type { SqlPort } from '../sql/port.js';
import { insertInto } from '../sql/statements.js';
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
} from './console-records.js';

const USER = recordCodec<UserRecord>({
  id: int,
  account_id: int,
  email: text,
  display_name: text,
  role: text,
  password_hash: textOrNull,
  created_at: text,
  disabled_at: textOrNull,
});

const SESSION = recordCodec<SessionRecord>({
  id: text,
  user_id: int,
  created_at: text,
  last_seen_at: text,
  expires_at: text,
  ended_at: textOrNull,
  user_agent: textOrNull,
  address: textOrNull,
});

/** What opening a session writes: it has not ended. */
const NEW_SESSION_COLUMNS = SESSION.except('ended_at');

const LICENCE = recordCodec<LicenceRecord>({
  id: int,
  deployment_id: int,
  buyer_account_id: int,
  credential_id: int,
  created_at: text,
  revoked_at: textOrNull,
});

export class ConsoleSqlStore {
  readonly #port: SqlPort;

  constructor(port: SqlPort) {
    this.#port = port;
  }

  /** A new user; undefined when the email is taken (in any account). */
  async createUser(input: NewUser): Promise<UserRecord | undefined> {
    const user = { ...input, email: input.email.toLowerCase(), created_at: input.now };
    return USER.insertNew(
      this.#port,
      'console_users',
      user,
      ['account_id', 'email', 'display_name', 'role', 'created_at'],
      'email',
    );
  }

  async getUser(id: number): Promise<UserRecord | undefined> {
    return USER.first(this.#port, 'SELECT * FROM console_users WHERE id = $1', [id]);
  }

  /** By lower-cased email. */
  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    return USER.first(this.#port, 'SELECT * FROM console_users WHERE email = $1', [email.toLowerCase()]);
  }

  /** An account's users (every account's when undefined), by id. */
  async listUsers(accountId?: number): Promise<UserRecord[]> {
    return accountId === undefined
      ? USER.all(this.#port, 'SELECT * FROM console_users ORDER BY id')
      : USER.all(this.#port, 'SELECT * FROM console_users WHERE account_id = $1 ORDER BY id', [accountId]);
  }

  /** False when there is no such user. */
  async setUserPassword(id: number, passwordHash: string): Promise<boolean> {
    return (await this.#port.run('UPDATE console_users SET password_hash = $1 WHERE id = $2', [passwordHash, id])) > 0;
  }

  /** Sets the password of a user who has none yet; false when there is no such user or it has one already. */
  async setFirstUserPassword(id: number, passwordHash: string): Promise<boolean> {
    const sql = 'UPDATE console_users SET password_hash = $1 WHERE id = $2 AND password_hash IS NULL';
    return (await this.#port.run(sql, [passwordHash, id])) > 0;
  }

  /** Marks a user disabled; false when there is no such user or it was disabled already. */
  async disableUser(id: number, now: string): Promise<boolean> {
    return (
      (await this.#port.run('UPDATE console_users SET disabled_at = $1 WHERE id = $2 AND disabled_at IS NULL', [
        now,
        id,
      ])) > 0
    );
  }

  async createOneTimeLink(link: NewOneTimeLink): Promise<void> {
    await this.#port.run(insertInto('console_links', ['hash', 'user_id', 'purpose', 'expires_at', 'created_at']), [
      link.hash,
      link.user_id,
      link.purpose,
      link.expires_at,
      link.now,
    ]);
  }

  /**
   * A link's purpose while it can still be used (unused, unexpired), without using it: what a page opened from the
   * link (by a person, or a mail scanner) may say before the form that uses it.
   */
  async openOneTimeLink(hash: string, now: string): Promise<OneTimeLinkPurpose | undefined> {
    const [row] = await this.#port.query(
      'SELECT purpose FROM console_links WHERE hash = $1 AND used_at IS NULL AND expires_at > $2',
      [hash, now],
    );
    return row ? (row.purpose as OneTimeLinkPurpose) : undefined;
  }

  /**
   * Uses a link once, atomically: the first call before it expires gets its user and purpose, every later one
   * (or one after expiry) undefined.
   */
  async useOneTimeLink(
    hash: string,
    now: string,
  ): Promise<{ user_id: number; purpose: OneTimeLinkPurpose } | undefined> {
    const [row] = await this.#port.query(
      'UPDATE console_links SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $3 ' +
        'RETURNING user_id, purpose',
      [now, hash, now],
    );
    return row ? { user_id: Number(row.user_id), purpose: row.purpose as OneTimeLinkPurpose } : undefined;
  }

  async createSession(session: NewSession): Promise<void> {
    const record = { ...session, created_at: session.now, last_seen_at: session.now };
    await this.#port.run(
      insertInto('console_sessions', NEW_SESSION_COLUMNS),
      SESSION.values(record, NEW_SESSION_COLUMNS),
    );
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    return SESSION.first(this.#port, 'SELECT * FROM console_sessions WHERE id = $1', [id]);
  }

  async touchSession(id: string, now: string): Promise<void> {
    await this.#port.query('UPDATE console_sessions SET last_seen_at = $1 WHERE id = $2 AND last_seen_at < $3', [
      now,
      id,
      now,
    ]);
  }

  /** Ends one session; false when it had ended already (or never was). */
  async endSession(id: string, now: string): Promise<boolean> {
    return (
      (await this.#port.run('UPDATE console_sessions SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL', [
        now,
        id,
      ])) > 0
    );
  }

  /** Ends every open session of a user but `keep`; gives how many. */
  async endUserSessions(userId: number, now: string, keep?: string): Promise<number> {
    return this.#port.run(
      'UPDATE console_sessions SET ended_at = $1 WHERE user_id = $2 AND ended_at IS NULL AND id <> $3',
      [now, userId, keep ?? ''],
    );
  }

  /** A user's sessions that have not ended and are before their absolute end, newest first. */
  async listOpenSessions(userId: number, now: string): Promise<SessionRecord[]> {
    return SESSION.all(
      this.#port,
      'SELECT * FROM console_sessions WHERE user_id = $1 AND ended_at IS NULL AND expires_at > $2 ' +
        'ORDER BY created_at DESC, id',
      [userId, now],
    );
  }

  /**
   * Reserves one password check against each subject (`email:…`, `addr:…`), atomically: undefined, and nothing
   * written, when a subject already has `allowed` attempts at or after `since`; else one row per subject, whose
   * ids are returned. Concurrent reservations of a subject take turns (on every instance sharing the store), so
   * a burst is counted exactly like a sequence. A reservation kept is a failure; `releaseSignInAttempt` refunds it.
   */
  async reserveSignInAttempt(
    subjects: readonly string[],
    at: string,
    since: string,
    allowed: number,
  ): Promise<number[] | undefined> {
    return this.#port.transaction(async (tx) => {
      // In a fixed order, so that two reservations sharing both subjects cannot wait for each other.
      for (const key of subjects.map(turnKey).sort()) {
        const lock = tx.dialect.turnLock(key);
        if (lock) await tx.query(lock);
      }
      for (const subject of subjects) {
        const [row] = await tx.query(
          'SELECT count(*) AS n FROM console_sign_in_failures WHERE subject = $1 AND at >= $2',
          [subject, since],
        );
        if (Number(row.n) >= allowed) return undefined;
      }
      const ids: number[] = [];
      for (const subject of subjects) {
        const [row] = await tx.query(
          'INSERT INTO console_sign_in_failures (subject, at) VALUES ($1, $2) RETURNING id',
          [subject, at],
        );
        ids.push(Number(row.id));
      }
      return ids;
    });
  }

  /** Refunds a reservation of `reserveSignInAttempt` (the password was right). */
  async releaseSignInAttempt(ids: readonly number[]): Promise<void> {
    await this.#port.run(`DELETE FROM console_sign_in_failures WHERE ${this.#port.dialect.inList('id', '$1')}`, [
      [...ids],
    ]);
  }

  /** Forgets failures before `before` (kept only as long as the window that counts them). */
  async pruneSignInFailures(before: string): Promise<void> {
    await this.#port.query('DELETE FROM console_sign_in_failures WHERE at < $1', [before]);
  }

  /**
   * Marks a form's one-use token as sent, atomically: true the first time, false for every later send of the same
   * token (on every instance). Tokens used before `forgetBefore` are forgotten (their forms' CSRF token and session
   * have ended long since).
   */
  async useFormToken(token: string, now: string, forgetBefore: string): Promise<boolean> {
    await this.#port.run('DELETE FROM console_form_uses WHERE used_at < $1', [forgetBefore]);
    const sql = 'INSERT INTO console_form_uses (token, used_at) VALUES ($1, $2) ON CONFLICT (token) DO NOTHING';
    return (await this.#port.run(sql, [token, now])) > 0;
  }

  /** Gives a token back (what its form asked for was refused, and nothing was made): the form may be sent again. */
  async releaseFormToken(token: string): Promise<void> {
    await this.#port.run('DELETE FROM console_form_uses WHERE token = $1', [token]);
  }

  /** Records which account owns a deployment (once; a later call for the same deployment is ignored). */
  async setDeploymentOwner(deploymentId: number, accountId: number): Promise<void> {
    await this.#port.query(
      'INSERT INTO console_deployment_owners (deployment_id, account_id) VALUES ($1, $2) ' +
        'ON CONFLICT (deployment_id) DO NOTHING',
      [deploymentId, accountId],
    );
  }

  /** The owning account, or undefined for a deployment made only with the command line. */
  async getDeploymentOwner(deploymentId: number): Promise<number | undefined> {
    const [row] = await this.#port.query('SELECT account_id FROM console_deployment_owners WHERE deployment_id = $1', [
      deploymentId,
    ]);
    return row ? Number(row.account_id) : undefined;
  }

  /** Every owned deployment's owner, by deployment id. */
  async listDeploymentOwners(): Promise<Map<number, number>> {
    const rows = await this.#port.query('SELECT deployment_id, account_id FROM console_deployment_owners');
    return new Map(rows.map((r) => [Number(r.deployment_id), Number(r.account_id)]));
  }

  async createLicence(
    input: Omit<LicenceRecord, 'id' | 'created_at' | 'revoked_at'> & { now: string },
  ): Promise<LicenceRecord> {
    return LICENCE.insert(
      this.#port,
      'console_licences',
      { ...input, created_at: input.now },
      LICENCE.except('id', 'revoked_at'),
    );
  }

  async getLicence(id: number): Promise<LicenceRecord | undefined> {
    return LICENCE.first(this.#port, 'SELECT * FROM console_licences WHERE id = $1', [id]);
  }

  /** Licences of these deployments (the seller's view), newest first. */
  async listLicencesOfDeployments(deploymentIds: readonly number[]): Promise<LicenceRecord[]> {
    if (deploymentIds.length === 0) return [];
    const inDeployments = this.#port.dialect.inList('deployment_id', '$1');
    return LICENCE.all(this.#port, `SELECT * FROM console_licences WHERE ${inDeployments} ORDER BY id DESC`, [
      deploymentIds,
    ]);
  }

  /** Licences an account holds (the buyer's view), newest first. */
  async listLicencesOfBuyer(accountId: number): Promise<LicenceRecord[]> {
    return LICENCE.all(this.#port, 'SELECT * FROM console_licences WHERE buyer_account_id = $1 ORDER BY id DESC', [
      accountId,
    ]);
  }

  /** False when there is no such licence or it was revoked already. */
  async revokeLicence(id: number, now: string): Promise<boolean> {
    return (
      (await this.#port.run('UPDATE console_licences SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        now,
        id,
      ])) > 0
    );
  }

  /** Records when keys were used (a later instant than the one stored wins). */
  async recordKeyUse(entries: readonly { keyId: number; at: string }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#port.transaction(async (tx) => {
      for (const e of entries) {
        await tx.run(
          `INSERT INTO console_key_use (key_id, last_used_at) VALUES ($1, $2)
           ON CONFLICT (key_id) DO UPDATE SET last_used_at =
             CASE WHEN excluded.last_used_at > console_key_use.last_used_at
             THEN excluded.last_used_at ELSE console_key_use.last_used_at END`,
          [e.keyId, e.at],
        );
      }
    });
  }

  /** The last use of each of these keys that has one. */
  async keysLastUsed(keyIds: readonly number[]): Promise<Map<number, string>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.#port.query(
      `SELECT key_id, last_used_at FROM console_key_use WHERE ${this.#port.dialect.inList('key_id', '$1')}`,
      [keyIds],
    );
    return new Map(rows.map((r) => [Number(r.key_id), String(r.last_used_at)]));
  }

  /**
   * Adds counts to the daily usage per channel, atomically for the whole batch; a numbered batch
   * (../access/usage-batches.ts) once, however often it is sent.
   */
  async addDailyUsage(entries: readonly DailyUsageEntry[], batch?: UsageBatch): Promise<void> {
    if (entries.length === 0) return;
    await this.#port.transaction(async (tx) => {
      if (batch && !(await firstApplication(tx, batch, new Date()))) return;
      for (const e of entries) {
        await tx.query(
          `INSERT INTO console_usage_days (account_id, day, channel, count) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, day, channel) DO UPDATE SET count = console_usage_days.count + excluded.count`,
          [e.accountId, e.day, e.channel, e.count],
        );
      }
    });
  }

  /** An account's daily counts from `fromDay` to `toDay` (inclusive), by day then channel. */
  async dailyUsage(accountId: number, fromDay: string, toDay: string): Promise<Omit<DailyUsageEntry, 'accountId'>[]> {
    const rows = await this.#port.query(
      'SELECT day, channel, count FROM console_usage_days WHERE account_id = $1 AND day >= $2 AND day <= $3 ' +
        'ORDER BY day, channel',
      [accountId, fromDay, toDay],
    );
    return rows.map((r) => ({ day: String(r.day), channel: r.channel as UsageChannel, count: Number(r.count) }));
  }
}

/** What the console needs of the store (`Store.console`); each method's guarantee is on ConsoleSqlStore above. */
export type ConsoleStore = Pick<ConsoleSqlStore, keyof ConsoleSqlStore>;

/** The 64-bit key of a subject's turn (dialect.turnLock): the first 8 bytes of its SHA-256. */
function turnKey(subject: string): string {
  return createHash('sha256').update(`console sign-in ${subject}`).digest().readBigInt64BE(0).toString();
}
