/**
 * Checking an email and password, with the lock-out (docs/console.md): after 10 failures inside 15 minutes for
 * one email, or from one address, the next attempt is refused without looking at the password. An unknown email
 * gets the same answer, in the same time, as a wrong password, and counts the same.
 */
import type { UserRecord } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { passwordMatches, verifyNothing } from './passwords.js';

export const SIGN_IN_WINDOW_MINUTES = 15;
/** Failures allowed inside the window; the next attempt is refused. */
export const SIGN_IN_FAILURES_ALLOWED = 10;

export type SignInOutcome = { ok: true; user: UserRecord } | { ok: false; reason: 'invalid' | 'locked' };

export async function checkSignIn(
  store: Store,
  input: { email: string; password: string; address: string },
  now: Date,
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  const subjects = [`email:${email}`, `addr:${input.address}`];
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MINUTES * 60_000).toISOString();
  for (const subject of subjects) {
    if ((await store.console.countSignInFailures(subject, since)) >= SIGN_IN_FAILURES_ALLOWED) return { ok: false, reason: 'locked' };
  }
  const user = email === '' ? undefined : await store.console.findUserByEmail(email);
  let matches = false;
  if (user?.password_hash) matches = await passwordMatches(user.password_hash, input.password);
  else await verifyNothing(input.password);
  if (user && matches && user.disabled_at === null) return { ok: true, user };
  await store.console.recordSignInFailure(subjects, now.toISOString());
  // Failures older than the window no longer count: forget them now and then, not on every failure.
  if (Math.random() < 0.05) await store.console.pruneSignInFailures(since);
  return { ok: false, reason: 'invalid' };
}
