/**
 * Records of the account console (src/web/console, docs/console.md): the people who sign in, their sessions,
 * one-time links, failed sign-ins, which account owns a company deployment, marketplace licences and the daily
 * usage per channel. Instants are ISO 8601 text (UTC), compared as text.
 */

export type UserRole = 'owner' | 'admin' | 'member';
export const USER_ROLES: readonly UserRole[] = ['owner', 'admin', 'member'];

export interface UserRecord {
  id: number;
  account_id: number;
  /** Lower-cased; unique across accounts. */
  email: string;
  display_name: string;
  role: UserRole;
  /** argon2id (PHC string); null until the user sets one with their one-time link. */
  password_hash: string | null;
  created_at: string;
  disabled_at: string | null;
}

export type NewUser = Pick<UserRecord, 'account_id' | 'email' | 'display_name' | 'role'> & { now: string };

export type OneTimeLinkPurpose = 'set-password' | 'sign-in';

export interface NewOneTimeLink {
  /** SHA-256 of the token (hex); the token itself is only in the link. */
  hash: string;
  user_id: number;
  purpose: OneTimeLinkPurpose;
  expires_at: string;
  now: string;
}

export interface SessionRecord {
  /** SHA-256 of the cookie value (hex); the value itself is only in the browser. */
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  /** The absolute end, whatever the activity. */
  expires_at: string;
  ended_at: string | null;
  user_agent: string | null;
  address: string | null;
}

export type NewSession = Omit<SessionRecord, 'last_seen_at' | 'ended_at' | 'created_at'> & { now: string };

export interface LicenceRecord {
  id: number;
  deployment_id: number;
  buyer_account_id: number;
  /** The licensed agent credential the buyer received. */
  credential_id: number;
  created_at: string;
  revoked_at: string | null;
}

/**
 * The ways in that a charged request is counted under, one part each of the console's usage split: every charged
 * request comes in by one of them (docs/console.md), so the parts sum to the month's total.
 */
export const USAGE_CHANNELS = ['rest', 'a2a', 'mcp', 'explorer'] as const;
export type UsageChannel = (typeof USAGE_CHANNELS)[number];

export interface DailyUsageEntry {
  accountId: number;
  /** YYYY-MM-DD (UTC). */
  day: string;
  channel: UsageChannel;
  count: number;
}
