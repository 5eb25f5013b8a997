/**
 * The sign-in lock-out under concurrency (docs/console.md, "Sign-in, sessions and cookies"): at most 10 failed
 * password checks per email, and per address, inside 15 minutes, whatever the number of attempts in flight at
 * once, on one instance and across two instances sharing one PostgreSQL store; the change-password form counts
 * against the same limit, and a change of password ends the user's other sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_FAILURES_ALLOWED, SIGN_IN_WINDOW_MINUTES } from '../src/admin/sign-in.js';
import { onPostgres, openStoreAt } from './helpers/backend.js';
import { ConsoleClient, type ConsoleResponse, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const BURST = 100;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** How many answers had each status. */
function statuses(answers: readonly ConsoleResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** A browser that has read the sign-in page (its CSRF token serves every post of the burst). */
async function signInPageReader(app: TestApp, address: string): Promise<ConsoleClient> {
  const c = new ConsoleClient(app, address);
  await c.get('/console/sign-in');
  return c;
}

describe('a burst of sign-ins', () => {
  const checksOfBurst = `checks at most ${SIGN_IN_FAILURES_ALLOWED} passwords of ${BURST} sent at once`;
  it(`${checksOfBurst} for one email from one address`, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'burst@premium.example',
      role: 'member',
    });
    const c = await signInPageReader(t, '10.20.0.1');
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        c.post('/console/sign-in', { email: user.email, password: `guess ${i}` }),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: SIGN_IN_FAILURES_ALLOWED, 429: BURST - SIGN_IN_FAILURES_ALLOWED });
    for (const a of answers.filter((x) => x.status === 429)) expect(a.body).toContain('Too many failed sign-ins');
    // The window is spent: the right password, sent after the burst, is not looked at.
    expect((await new ConsoleClient(t, '10.20.0.2').signIn(user.email, user.password)).status).toBe(429);
  });

  it('signs in with the right password sent 95th in a burst only if it is among the passwords checked', async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'burst95@premium.example',
      role: 'member',
    });
    const c = await signInPageReader(t, '10.20.1.1');
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        c.post('/console/sign-in', { email: user.email, password: i === 94 ? user.password : `guess ${i}` }),
      ),
    );
    const { 303: signedIn = 0, 401: failed = 0, 429: refused = 0 } = statuses(answers);
    expect(signedIn + failed + refused).toBe(BURST);
    expect(failed).toBeLessThanOrEqual(SIGN_IN_FAILURES_ALLOWED);
    expect(signedIn).toBeLessThanOrEqual(1);
    // Every check but the right one is a failure; the window's ten are all used (the right one gave its place back).
    expect(failed + signedIn).toBeGreaterThanOrEqual(SIGN_IN_FAILURES_ALLOWED);
    expect(refused).toBeGreaterThanOrEqual(BURST - SIGN_IN_FAILURES_ALLOWED - 1);
  });

  it(`${checksOfBurst} from one address, whatever the emails`, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'victim@premium.example',
      role: 'member',
    });
    const c = await signInPageReader(t, '10.21.0.1');
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        c.post('/console/sign-in', { email: `guess${i}@premium.example`, password: 'guess' }),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: SIGN_IN_FAILURES_ALLOWED, 429: BURST - SIGN_IN_FAILURES_ALLOWED });
    expect((await c.post('/console/sign-in', { email: user.email, password: user.password })).status).toBe(429);
    // The user's email has no failure of its own: from another address it signs in.
    expect((await new ConsoleClient(t, '10.21.0.2').signIn(user.email, user.password)).status).toBe(303);
  });

  it('gives a right password its attempt back: signing in does not use up the window', async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'regular@premium.example',
      role: 'member',
    });
    const c = await signInPageReader(t, '10.22.0.1');
    for (let i = 0; i < 2 * SIGN_IN_FAILURES_ALLOWED; i++) {
      expect((await c.post('/console/sign-in', { email: user.email, password: user.password })).status).toBe(303);
    }
    const failures = await Promise.all(
      Array.from({ length: SIGN_IN_FAILURES_ALLOWED - 1 }, (_, i) =>
        c.post('/console/sign-in', { email: user.email, password: `typo ${i}` }),
      ),
    );
    expect(statuses(failures)).toEqual({ 401: SIGN_IN_FAILURES_ALLOWED - 1 });
    expect((await c.post('/console/sign-in', { email: user.email, password: user.password })).status).toBe(303);
  });
});

describe.runIf(onPostgres)('a burst of sign-ins across two instances sharing PostgreSQL and Redis', () => {
  let second: TestApp;

  beforeAll(async () => {
    second = await startTestApp({ store: openStoreAt(t.dbPath), dbPath: t.dbPath });
  });

  afterAll(async () => {
    await second?.close();
  });

  const checksForOneEmail = `checks at most ${SIGN_IN_FAILURES_ALLOWED} passwords for one email`;
  it(`${checksForOneEmail}, half the burst on each instance`, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'spread@premium.example',
      role: 'member',
    });
    const browsers = [await signInPageReader(t, '10.23.0.1'), await signInPageReader(second, '10.23.0.2')];
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        browsers[i % 2].post('/console/sign-in', { email: user.email, password: `guess ${i}` }),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: SIGN_IN_FAILURES_ALLOWED, 429: BURST - SIGN_IN_FAILURES_ALLOWED });
    for (const app of [t, second])
      expect((await new ConsoleClient(app, '10.23.0.3').signIn(user.email, user.password)).status).toBe(429);
  });
});

describe('the change-password form', () => {
  const likeAFailedSignIn = `like a failed sign-in: ${SIGN_IN_FAILURES_ALLOWED} checked`;
  it(`counts a wrong current password ${likeAFailedSignIn}, then 429`, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'oracle@premium.example',
      role: 'member',
    });
    const c = new ConsoleClient(t, '10.24.0.1');
    await c.signIn(user.email, user.password);
    await c.get('/console/account');
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        c.post('/console/account/password', {
          current: `guess ${i}`,
          password: 'a brand new password',
          confirm: 'a brand new password',
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 422: SIGN_IN_FAILURES_ALLOWED, 429: 25 - SIGN_IN_FAILURES_ALLOWED });
    for (const a of answers.filter((x) => x.status === 429)) expect(a.body).toContain('Too many failed sign-ins');
    // Even the right current password is not looked at now, and the sign-in form of that email is locked too.
    const right = await c.post('/console/account/password', {
      current: user.password,
      password: 'a brand new password',
      confirm: 'a brand new password',
    });
    expect(right.status).toBe(429);
    expect((await new ConsoleClient(t, '10.24.0.2').signIn(user.email, user.password)).status).toBe(429);
    t.clock.advance(SIGN_IN_WINDOW_MINUTES * 60_000 + 1000);
    expect((await new ConsoleClient(t, '10.24.0.3').signIn(user.email, user.password)).status).toBe(303);
  });

  const endsOtherSessions =
    'ends the other sessions of the user: their cookies are refused; the session that changed it goes on';
  it(endsOtherSessions, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'two-browsers@premium.example',
      role: 'member',
    });
    const laptop = new ConsoleClient(t, '10.25.0.1');
    const phone = new ConsoleClient(t, '10.25.0.2');
    await laptop.signIn(user.email, user.password);
    await phone.signIn(user.email, user.password);
    expect((await phone.get('/console/keys')).status).toBe(200);
    await laptop.get('/console/account');
    const changed = await laptop.post('/console/account/password', {
      current: user.password,
      password: 'another long password',
      confirm: 'another long password',
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/console/account?done=password-changed');
    expect((await laptop.get(String(changed.headers.location))).body).toContain('Your password is changed');
    expect((await phone.get('/console/keys')).status).toBe(303);
    expect((await phone.post('/console/sign-out-everywhere')).status).toBe(401);
    expect((await laptop.get('/console/keys')).status).toBe(200);
    expect((await new ConsoleClient(t, '10.25.0.3').signIn(user.email, user.password)).status).toBe(401);
    expect((await new ConsoleClient(t, '10.25.0.4').signIn(user.email, 'another long password')).status).toBe(303);
  });
});
