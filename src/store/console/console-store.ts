import type {
  DailyUsageEntry,
  LicenceRecord,
  NewOneTimeLink,
  NewSession,
  NewUser,
  OneTimeLinkPurpose,
  SessionRecord,
  UserRecord,
} from './console-records.js';

/** The console's records (held by `Store.console`), written once over SQL for both stores (./console-sql-store.ts). */
export interface ConsoleStore {
  /** A new user; undefined when the email is taken (in any account). */
  createUser(input: NewUser): Promise<UserRecord | undefined>;
  getUser(id: number): Promise<UserRecord | undefined>;
  /** By lower-cased email. */
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  /** An account's users (every account's when undefined), by id. */
  listUsers(accountId?: number): Promise<UserRecord[]>;
  /** False when there is no such user. */
  setUserPassword(id: number, passwordHash: string): Promise<boolean>;
  /** Marks a user disabled; false when there is no such user or it was disabled already. */
  disableUser(id: number, now: string): Promise<boolean>;

  createOneTimeLink(link: NewOneTimeLink): Promise<void>;
  /**
   * Uses a link once, atomically: the first call before it expires gets its user and purpose, every later one
   * (or one after expiry) undefined.
   */
  useOneTimeLink(hash: string, now: string): Promise<{ user_id: number; purpose: OneTimeLinkPurpose } | undefined>;

  createSession(session: NewSession): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  touchSession(id: string, now: string): Promise<void>;
  /** Ends one session; false when it had ended already (or never was). */
  endSession(id: string, now: string): Promise<boolean>;
  /** Ends every open session of a user but `keep`; gives how many. */
  endUserSessions(userId: number, now: string, keep?: string): Promise<number>;
  /** A user's sessions that have not ended and are before their absolute end, newest first. */
  listOpenSessions(userId: number, now: string): Promise<SessionRecord[]>;

  /** One failed sign-in, counted against each subject (`email:…`, `addr:…`). */
  recordSignInFailure(subjects: readonly string[], at: string): Promise<void>;
  /** Failures of `subject` at or after `since`. */
  countSignInFailures(subject: string, since: string): Promise<number>;
  /** Forgets failures before `before` (kept only as long as the window that counts them). */
  pruneSignInFailures(before: string): Promise<void>;

  /** Records which account owns a deployment (once; a later call for the same deployment is ignored). */
  setDeploymentOwner(deploymentId: number, accountId: number): Promise<void>;
  /** The owning account, or undefined for a deployment made only with the command line. */
  getDeploymentOwner(deploymentId: number): Promise<number | undefined>;
  /** Every owned deployment's owner, by deployment id. */
  listDeploymentOwners(): Promise<Map<number, number>>;

  createLicence(input: Omit<LicenceRecord, 'id' | 'created_at' | 'revoked_at'> & { now: string }): Promise<LicenceRecord>;
  getLicence(id: number): Promise<LicenceRecord | undefined>;
  /** Licences of these deployments (the seller's view), newest first. */
  listLicencesOfDeployments(deploymentIds: readonly number[]): Promise<LicenceRecord[]>;
  /** Licences an account holds (the buyer's view), newest first. */
  listLicencesOfBuyer(accountId: number): Promise<LicenceRecord[]>;
  /** False when there is no such licence or it was revoked already. */
  revokeLicence(id: number, now: string): Promise<boolean>;

  /** Adds counts to the daily usage per channel, atomically for the whole batch. */
  addDailyUsage(entries: readonly DailyUsageEntry[]): Promise<void>;
  /** An account's daily counts from `fromDay` to `toDay` (inclusive), by day then channel. */
  dailyUsage(accountId: number, fromDay: string, toDay: string): Promise<Omit<DailyUsageEntry, 'accountId'>[]>;
}
