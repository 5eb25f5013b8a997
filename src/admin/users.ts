/**
 * The people who sign in to the account console (docs/console.md): created by an operator (`munidata users`) or
 * by an account's owner, each with a one-time link to set their password. A link's token is shown once; only
 * its SHA-256 is stored.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../access/api-keys.js';
import { AdminError } from '../lib/admin-error.js';
import {
  type OneTimeLinkPurpose,
  USER_ROLES,
  type UserRecord,
  type UserRole,
} from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { checkNewPassword, hashPassword } from './passwords.js';

/** How long a one-time link works. */
export const LINK_HOURS = 24;

/** A user as it may be shown: never the password hash. */
export interface UserView {
  id: number;
  account_id: number;
  email: string;
  display_name: string;
  role: UserRole;
  has_password: boolean;
  created_at: string;
  disabled_at: string | null;
}

/**
 * How a refusal names the field given wrong, in its caller's words: the command line by its option (`--role`), the
 * console by its form's label (“Role”), as rule refusals do (rule-wording.ts).
 */
export interface UserWording {
  role: string;
}

export const USERS_COMMAND_LINE: UserWording = { role: '--role' };

export interface CreatedUser {
  user: UserView;
  /** The one-time set-password link: shown once. */
  link: string;
}

export async function createUser(
  store: Store,
  input: { accountId: number; email: string; role: string; name?: string },
  now: Date,
  baseUrl: string,
  wording: UserWording = USERS_COMMAND_LINE,
): Promise<CreatedUser> {
  if (!(await store.getAccount(input.accountId))) throw new AdminError(`No account with id ${input.accountId}.`);
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
    throw new AdminError(`"${input.email}" is not an email address.`);
  if (!isRole(input.role))
    throw new AdminError(`${wording.role} must be one of ${USER_ROLES.join(', ')}; got "${input.role}".`);
  const name = input.name?.trim() || email.split('@')[0];
  const user = await store.console.createUser({
    account_id: input.accountId,
    email,
    display_name: name,
    role: input.role,
    now: now.toISOString(),
  });
  if (!user) throw new AdminError(await emailTaken(store, email, input.accountId));
  return { user: userView(user), link: await issueLink(store, user.id, 'set-password', now, baseUrl) };
}

/**
 * Why an email cannot be added: emails sign in, so each belongs to one user of one account. A member of the same
 * account is named as such (whoever adds them sees the account's members); of another, no more than that it is taken
 * (docs/console.md, People and roles).
 */
async function emailTaken(store: Store, email: string, accountId: number): Promise<string> {
  const holder = await store.console.findUserByEmail(email);
  return holder?.account_id === accountId
    ? `A user with the email ${email} exists already in this account${holder.disabled_at === null ? '' : ', disabled'}.`
    : `A user with the email ${email} exists already.`;
}

export async function listUsers(store: Store, accountId?: number): Promise<UserView[]> {
  if (accountId !== undefined && !(await store.getAccount(accountId)))
    throw new AdminError(`No account with id ${accountId}.`);
  return (await store.console.listUsers(accountId)).map(userView);
}

/** Disables a user and ends their sessions at once: they cannot sign in again. */
export async function disableUser(store: Store, userId: number, now: Date): Promise<void> {
  if (!(await store.console.disableUser(userId, now.toISOString()))) {
    throw new AdminError(`No active user with id ${userId} (it does not exist or is disabled already).`);
  }
  await store.console.endUserSessions(userId, now.toISOString());
}

/**
 * A one-time link: `set-password` (a new user, or a reset) or `sign-in` (the demo owner's link printed at start).
 * Valid for LINK_HOURS.
 */
export async function issueLink(
  store: Store,
  userId: number,
  purpose: OneTimeLinkPurpose,
  now: Date,
  baseUrl: string,
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await store.console.createOneTimeLink({
    hash: hashSecret(token),
    user_id: userId,
    purpose,
    expires_at: new Date(now.getTime() + LINK_HOURS * 3_600_000).toISOString(),
    now: now.toISOString(),
  });
  const path = purpose === 'set-password' ? 'set-password' : 'link';
  return `${baseUrl}/console/${path}?token=${token}`;
}

/** Whether a link's token can still set a password (unused, unexpired), without using it. */
export async function canSetPassword(store: Store, token: string, now: Date): Promise<boolean> {
  return (await store.console.openOneTimeLink(hashSecret(token), now.toISOString())) === 'set-password';
}

/** Uses a link's token once: its active user and purpose, or undefined (unknown, used, expired, user disabled). */
export async function useLink(
  store: Store,
  token: string,
  now: Date,
): Promise<{ user: UserRecord; purpose: OneTimeLinkPurpose } | undefined> {
  const used = await store.console.useOneTimeLink(hashSecret(token), now.toISOString());
  const user = used && (await store.console.getUser(used.user_id));
  return user && user.disabled_at === null && used ? { user, purpose: used.purpose } : undefined;
}

export async function setPassword(store: Store, userId: number, password: string): Promise<void> {
  checkNewPassword(password);
  if (!(await store.console.setUserPassword(userId, await hashPassword(password))))
    throw new AdminError(`No user with id ${userId}.`);
}

export function userView(user: UserRecord): UserView {
  return {
    id: user.id,
    account_id: user.account_id,
    email: user.email,
    display_name: user.display_name,
    role: user.role,
    has_password: user.password_hash !== null,
    created_at: user.created_at,
    disabled_at: user.disabled_at,
  };
}

export function isRole(role: string): role is UserRole {
  return (USER_ROLES as readonly string[]).includes(role);
}
