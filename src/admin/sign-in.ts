/**
 * Checking a password, with the lock-out (docs/console.md): at most 10 failed checks inside 15 minutes for one
 * email, or from one address; the next attempt is refused without looking at the password. Each check reserves
 * its attempt in the store before the password is hashed, so concurrent attempts (on any instance) are counted
 * exactly like a sequence; a right password gives its attempt back. An unknown email gets the same answer, in the
 * same time, as a wrong password, and counts the same. Sign-in and the change of password share the limit.
 */
import type { UserRecord } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { passwordMatches, verifyNothing } from './passwords.js';

export const SIGN_IN_WINDOW_MINUTES = 15;
/** Failed checks allowed inside the window; the next attempt is refused. */
export const SIGN_IN_FAILURES_ALLOWED = 10;

export type SignInOutcome = { ok: true; user: UserRecord } | { ok: false; reason: 'invalid' | 'locked' };

/** Who a password check is counted against: the email it names and the address it comes from. */
export interface CheckSubjects {
  readonly email: string;
  readonly address: string;
}

export async function checkSignIn(
  store: Store,
  input: { email: string; password: string; address: string },
  now: Date,
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  let user: UserRecord | undefined;
  const passed = await limitedCheck(store, { email, address: input.address }, now, async () => {
    user = email === '' ? undefined : await store.console.findUserByEmail(email);
    if (!user?.password_hash) {
      await verifyNothing(input.password);
      return false;
    }
    return (await passwordMatches(user.password_hash, input.password)) && user.disabled_at === null;
  });
  if (passed === 'locked') return { ok: false, reason: 'locked' };
  return passed && user ? { ok: true, user } : { ok: false, reason: 'invalid' };
}

/**
 * Runs one password check under the lock-out: 'locked', without running it, when the email or the address has
 * used its attempts of the window; else the check's answer. The attempt is reserved before the check and kept
 * when it fails; a check that passes (or throws) gives it back.
 */
export async function limitedCheck(
  store: Store,
  who: CheckSubjects,
  now: Date,
  check: () => Promise<boolean>,
): Promise<boolean | 'locked'> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MINUTES * 60_000).toISOString();
  const subjects = [`email:${who.email.trim().toLowerCase()}`, `addr:${who.address}`];
  const at = now.toISOString();
  const reserved = await store.console.reserveSignInAttempt(subjects, at, since, SIGN_IN_FAILURES_ALLOWED);
  if (!reserved) return 'locked';
  let passed: boolean;
  try {
    passed = await check();
  } catch (error) {
    await store.console.releaseSignInAttempt(reserved).catch(() => {});
    throw error;
  }
  if (passed) await store.console.releaseSignInAttempt(reserved);
  // Attempts older than the window no longer count: forget them now and then, not on every failure.
  else if (Math.random() < 0.05) await store.console.pruneSignInFailures(since);
  return passed;
}

/** What the sign-in and password forms say when the lock-out refuses an attempt. */
export const LOCKED_OUT_MESSAGE =
  `Too many failed sign-ins for this email or from this address. ` +
  `Wait ${SIGN_IN_WINDOW_MINUTES} minutes, then try again.`;
