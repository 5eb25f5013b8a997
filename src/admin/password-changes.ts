/**
 * Changing a console password (docs/console.md, "Passwords"): on the account page with the current password,
 * checked under the sign-in lock-out; without one only by a signed-in user who has none yet (the demo owner, who
 * signed in with the link printed at start); or with a one-time set-password link (a new user's, or a reset that
 * `munidata users reset-password` prints). Every change ends the user's other sessions.
 */
import { AdminError } from '../lib/admin-error.js';
import type { UserRecord } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { checkNewPassword, hashPassword, passwordMatches } from './passwords.js';
import { LOCKED_OUT_MESSAGE, limitedCheck } from './sign-in.js';
import { issueLink, setPassword, useLink } from './users.js';

/** The lock-out refused the check of the current password (the page answers 429). */
export class LockedOutError extends AdminError {
  override name = 'LockedOutError';
}

/**
 * A signed-in user's change: the current password first (counted against their email and `address` like a
 * sign-in), none when they have no password yet. Ends every other session of the user but `keepSession` (the
 * id of the session that asked).
 */
export async function changePassword(
  store: Store,
  userId: number,
  input: { current: string; next: string; address: string; keepSession: string },
  now: Date,
): Promise<void> {
  checkNewPassword(input.next);
  const user = await store.console.getUser(userId);
  if (!user || user.disabled_at !== null) throw new AdminError(`No active user with id ${userId}.`);
  const stored = user.password_hash;
  if (stored === null) {
    // Only while the store still says none: a password set meanwhile must be given as the current one.
    if (!(await store.console.setFirstUserPassword(user.id, await hashPassword(input.next)))) {
      throw new AdminError('A password was set meanwhile. Reload the page and give it as your current password.');
    }
  } else {
    const passed = await limitedCheck(store, { email: user.email, address: input.address }, now, () =>
      passwordMatches(stored, input.current),
    );
    if (passed === 'locked') throw new LockedOutError(LOCKED_OUT_MESSAGE);
    if (!passed) throw new AdminError('The current password is not right.');
    await setPassword(store, user.id, input.next);
  }
  await store.console.endUserSessions(user.id, now.toISOString(), input.keepSession);
}

/**
 * Uses a one-time set-password link: sets the password and ends every session of the user (the caller signs
 * them in again). Undefined when the link was used already, has expired, is not a set-password link or its user
 * is disabled; an unfit password is refused before the link is used.
 */
export async function setPasswordWithLink(
  store: Store,
  token: string,
  password: string,
  now: Date,
): Promise<UserRecord | undefined> {
  checkNewPassword(password);
  const link = await useLink(store, token, now);
  if (link?.purpose !== 'set-password') return undefined;
  await setPassword(store, link.user.id, password);
  await store.console.endUserSessions(link.user.id, now.toISOString());
  return link.user;
}

/** A fresh one-time link where an active user sets a new password (a reset, or the demo owner's first one). */
export async function issuePasswordLink(
  store: Store,
  userId: number,
  now: Date,
  baseUrl: string,
): Promise<{ email: string; link: string }> {
  const user = await store.console.getUser(userId);
  if (!user || user.disabled_at !== null) {
    throw new AdminError(`No active user with id ${userId} (it does not exist or is disabled).`);
  }
  return { email: user.email, link: await issueLink(store, user.id, 'set-password', now, baseUrl) };
}
