/**
 * Console passwords: argon2id (memory-hard) through the `argon2` package, at OWASP's minimum cost (19 MiB, two
 * passes, one lane: about 30 ms here). Only the PHC string is stored; the password is never logged.
 */
import argon2 from 'argon2';
import { AdminError } from '../lib/admin-error.js';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** Whether `password` matches; false for a malformed hash too. */
export async function passwordMatches(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/** Spends the time of one verification, for an unknown email: both answers take as long. */
export async function verifyNothing(password: string): Promise<void> {
  dummy ??= hashPassword('not a password of anyone');
  await passwordMatches(await dummy, password);
}

/** A new password: long enough, not absurdly long (hashing cost), and not only spaces. */
export function checkNewPassword(password: string): void {
  if (password.trim().length < PASSWORD_MIN_LENGTH) {
    throw new AdminError(`A password needs at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new AdminError(`A password has at most ${PASSWORD_MAX_LENGTH} characters.`);
}
