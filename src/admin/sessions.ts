/**
 * Console sessions (docs/console.md): an opaque random id in a cookie, its SHA-256 in the store (so every instance
 * sees it, and a stolen database holds no usable session). A session ends after IDLE_MINUTES without a request,
 * ABSOLUTE_HOURS after it began, at sign-out, or when its user signs out everywhere or is disabled.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../access/api-keys.js';
import type { SessionRecord, UserRecord } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';

export const IDLE_MINUTES = 60;
export const ABSOLUTE_HOURS = 12;
/** A session's last-seen time is written at most this often (not on every page). */
const TOUCH_EVERY_MS = 60_000;

export interface StartedSession {
  /** The cookie value: shown to the browser only. */
  token: string;
  expiresAt: Date;
}

export async function startSession(
  store: Store,
  user: UserRecord,
  client: { userAgent?: string; address?: string },
  now: Date,
): Promise<StartedSession> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ABSOLUTE_HOURS * 3_600_000);
  await store.console.createSession({
    id: hashSecret(token),
    user_id: user.id,
    expires_at: expiresAt.toISOString(),
    user_agent: client.userAgent?.slice(0, 300) ?? null,
    address: client.address ?? null,
    now: now.toISOString(),
  });
  return { token, expiresAt };
}

export interface ResumedSession {
  session: SessionRecord;
  user: UserRecord;
}

/** The open session of this cookie value and its (active) user, or undefined; keeps it alive. */
export async function resumeSession(store: Store, token: string, now: Date): Promise<ResumedSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const session = await store.console.getSession(hashSecret(token));
  if (!session || !isOpen(session, now)) return undefined;
  const user = await store.console.getUser(session.user_id);
  if (!user || user.disabled_at !== null) return undefined;
  if (now.getTime() - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS)
    await store.console.touchSession(session.id, now.toISOString());
  return { session, user };
}

export function isOpen(session: SessionRecord, now: Date): boolean {
  const nowMs = now.getTime();
  return (
    session.ended_at === null &&
    Date.parse(session.expires_at) > nowMs &&
    Date.parse(session.last_seen_at) + IDLE_MINUTES * 60_000 > nowMs
  );
}

export async function endSession(store: Store, token: string, now: Date): Promise<void> {
  await store.console.endSession(hashSecret(token), now.toISOString());
}

/** Sign-out everywhere: every session of the user but `keep` (the current one, when it stays). */
export async function endOtherSessions(store: Store, userId: number, now: Date, keep?: string): Promise<number> {
  return store.console.endUserSessions(userId, now.toISOString(), keep);
}

/** The user's open sessions, newest first (the account page lists them). */
export async function openSessions(store: Store, userId: number, now: Date): Promise<SessionRecord[]> {
  return (await store.console.listOpenSessions(userId, now.toISOString())).filter((s) => isOpen(s, now));
}
