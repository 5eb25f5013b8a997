/**
 * Setting and resetting console passwords (docs/console.md, "Passwords"): the demo owner, who signs in with the
 * one-time link printed at start and has no password, sets one on the account page without a current one; a user
 * who has one must give it; a fresh set-password link (`munidata users reset-password`) sets a new one and ends
 * the user's sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePasswordLink } from '../src/admin/password-changes.js';
import { issueDemoOwnerLink } from '../src/demo/demo-account.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** The path and query of an absolute link the app printed. */
function pathOf(link: string): string {
  const url = new URL(link);
  expect(url.origin).toBe(BASE_URL);
  return url.pathname + url.search;
}

describe('the demo owner', () => {
  const startLinkThenPassword =
    'signs in with the start link, sets a password without a current one, and signs in with it after the link is used';
  it(startLinkThenPassword, async () => {
    const demo = await issueDemoOwnerLink(t.store, new Date(t.clock.now), BASE_URL);
    const browser = new ConsoleClient(t, '10.30.0.1');
    expect((await browser.get(pathOf(demo.link))).status).toBe(303);
    const account = await browser.get('/console/account');
    expect(account.body).toContain('Set a password');
    expect(account.body).not.toContain('name="current"');
    const set = await browser.post('/console/account/password', {
      password: 'the owner’s own password',
      confirm: 'the owner’s own password',
    });
    expect(set.status).toBe(303);
    expect(set.headers.location).toBe('/console/account?done=password-set');
    const after = await browser.get(String(set.headers.location));
    expect(after.body.match(/Your password is set/g)).toHaveLength(1);
    // Now it is a password like any other: the page asks for it before a change.
    expect(after.body).toContain('name="current"');
    expect((await browser.get('/console/account')).body).not.toContain('Your password is set');
    const without = await browser.post('/console/account/password', {
      password: 'a password without proof',
      confirm: 'a password without proof',
    });
    expect(without.status).toBe(422);
    expect(without.body).toContain('The current password is not right');
    // The link was used; the owner comes back with email and password.
    expect((await new ConsoleClient(t, '10.30.0.2').get(pathOf(demo.link))).status).toBe(400);
    const later = new ConsoleClient(t, '10.30.0.3');
    expect((await later.signIn(demo.email, 'the owner’s own password')).status).toBe(303);
    expect((await later.get('/console/account')).body).toContain(demo.email);
  });
});

describe('a reset link', () => {
  it('sets a new password for a user who forgot theirs, ends their sessions, and works once', async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'forgetful@premium.example',
      role: 'member',
    });
    const stale = new ConsoleClient(t, '10.31.0.1');
    await stale.signIn(user.email, user.password);
    expect((await stale.get('/console/keys')).status).toBe(200);

    const path = pathOf((await issuePasswordLink(t.store, user.id, new Date(t.clock.now), BASE_URL)).link);
    expect(path).toMatch(/^\/console\/set-password\?token=/);
    const browser = new ConsoleClient(t, '10.31.0.2');
    await browser.get(path);
    const token = String(new URL(path, BASE_URL).searchParams.get('token'));
    const done = await browser.post('/console/set-password', {
      token,
      password: 'remembered at last',
      confirm: 'remembered at last',
    });
    expect(done.status).toBe(303);
    expect((await browser.get('/console/keys')).status).toBe(200);
    expect((await stale.get('/console/keys')).status).toBe(303);
    expect((await new ConsoleClient(t, '10.31.0.3').signIn(user.email, user.password)).status).toBe(401);
    expect((await new ConsoleClient(t, '10.31.0.4').signIn(user.email, 'remembered at last')).status).toBe(303);
    const again = await browser.post('/console/set-password', {
      token,
      password: 'someone else’s try',
      confirm: 'someone else’s try',
    });
    expect(again.status).toBe(422);
    expect(again.body).toContain('used already');
    // Opened again, the used link says so at once: no form to type a password twice into for nothing.
    const reopened = await browser.get(path);
    expect(reopened.status).toBe(400);
    expect(reopened.body).toContain('used already, has expired or is not right');
    expect(reopened.body).not.toContain('<form method="post" action="/console/set-password"');
    // A made-up token likewise; opening a good one shows the form and leaves it usable.
    expect((await browser.get('/console/set-password?token=not-a-token')).status).toBe(400);
    const fresh = pathOf((await issuePasswordLink(t.store, user.id, new Date(t.clock.now), BASE_URL)).link);
    for (let i = 0; i < 2; i++) {
      const opened = await browser.get(fresh);
      expect(opened.status).toBe(200);
      expect(opened.body).toContain('<form method="post" action="/console/set-password"');
    }
  });

  it('is not issued for a disabled or unknown user', async () => {
    const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'gone@premium.example', role: 'member' });
    await t.store.console.disableUser(user.id, new Date(t.clock.now).toISOString());
    await expect(issuePasswordLink(t.store, user.id, new Date(t.clock.now), BASE_URL)).rejects.toThrow(
      /No active user/,
    );
    await expect(issuePasswordLink(t.store, 999_999, new Date(t.clock.now), BASE_URL)).rejects.toThrow(
      /No active user/,
    );
  });
});
