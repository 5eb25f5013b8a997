/**
 * Signing in to the account console over inject (docs/console.md): cookie flags, the security headers, CSRF
 * refusals, the lock-out, one-time links, sign-out, sign-out everywhere and the expiry of sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSOLUTE_HOURS, IDLE_MINUTES } from '../src/admin/sessions.js';
import { createUser, disableUser, issueLink } from '../src/admin/users.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let owner: { id: number; email: string; password: string };

beforeAll(async () => {
  t = await startTestApp();
  owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@premium.example', role: 'owner' });
});

afterAll(async () => {
  await t?.close();
});

describe('sign-in', () => {
  it('sends a GET of a console page to the sign-in page and back to it after signing in', async () => {
    const c = new ConsoleClient(t);
    const page = await c.get('/console/keys');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fkeys');
    await c.get(String(page.headers.location));
    const signedIn = await c.post('/console/sign-in', {
      email: 'ANA@premium.example',
      password: owner.password,
      next: '/console/keys',
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/console/keys');
    const keys = await c.get('/console/keys');
    expect(keys.status).toBe(200);
    expect(keys.body).toContain('ana@premium.example');
  });

  it('never sends the browser to another site after signing in', async () => {
    const c = new ConsoleClient(t);
    await c.get('/console/sign-in');
    const res = await c.post('/console/sign-in', {
      email: owner.email,
      password: owner.password,
      next: '//evil.example/console',
    });
    expect(res.headers.location).toBe('/console');
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, path /, without Secure on a plain-HTTP base URL', async () => {
    const c = new ConsoleClient(t);
    const res = await c.signIn(owner.email, owner.password);
    const session = res.setCookies.find((line) => line.startsWith('munidata_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\//);
    expect(session).not.toMatch(/; Secure/);
    // The value is opaque: 32 random bytes, nothing of the user in it.
    expect(session).toMatch(/^munidata_session=[A-Za-z0-9_-]{43};/);
  });

  it('answers with CSP (frame-ancestors none), no-referrer, nosniff and no-store', async () => {
    const res = await new ConsoleClient(t).get('/console/sign-in');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('leaves the data channels without the console headers', async () => {
    const res = await t.get('/v1/me');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a sign-in form without its CSRF token (403), and signs nobody in', async () => {
    const c = new ConsoleClient(t);
    await c.get('/console/sign-in');
    const res = await c.post('/console/sign-in', { email: owner.email, password: owner.password, _csrf: null });
    expect(res.status).toBe(403);
    expect(res.body).toContain('did not come from this site');
    expect(res.setCookies.some((line) => line.startsWith('munidata_session='))).toBe(false);
  });

  it('refuses a token from another browser (its own CSRF cookie differs)', async () => {
    const attacker = new ConsoleClient(t);
    await attacker.get('/console/sign-in');
    const victim = new ConsoleClient(t);
    await victim.signIn(owner.email, owner.password);
    const res = await victim.post('/console/keys', {
      _csrf: attacker.csrf,
      label: 'forged',
      scopes: 'indicators:read',
    });
    expect(res.status).toBe(403);
    expect((await t.store.listApiKeys(t.accounts.premium)).some((k) => k.label === 'forged')).toBe(false);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const c = new ConsoleClient(t, '10.0.0.1');
    const wrong = await c.signIn(owner.email, 'not the password');
    const unknown = await c.signIn('nobody@premium.example', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const text = (body: string) => /<p class="error"[^>]*>([^<]*)</.exec(body)?.[1];
    expect(text(wrong.body)).toBe('The email or the password is not right.');
    expect(text(unknown.body)).toBe(text(wrong.body));
  });
});

describe('the lock-out', () => {
  const eleventhFailureRefused =
    'refuses the 11th failure inside 15 minutes for one email, even with the right password, then lets it in';
  it(eleventhFailureRefused, async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'locked@premium.example',
      role: 'member',
    });
    for (let i = 0; i < 10; i++) {
      // From ten addresses: the email's count, not an address's, locks it.
      const res = await new ConsoleClient(t, `10.1.0.${i + 1}`).signIn(user.email, `wrong ${i}`);
      expect(res.status).toBe(401);
    }
    const c = new ConsoleClient(t, '10.1.1.1');
    const refused = await c.signIn(user.email, user.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toContain('Too many failed sign-ins');
    expect(refused.setCookies.some((line) => line.startsWith('munidata_session='))).toBe(false);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await c.signIn(user.email, user.password)).status).toBe(303);
  });

  it('says the same for an unknown email: the lock-out tells nothing about who exists', async () => {
    for (let i = 0; i < 10; i++) await new ConsoleClient(t, `10.2.0.${i + 1}`).signIn('ghost@premium.example', 'guess');
    const res = await new ConsoleClient(t, '10.2.1.1').signIn('ghost@premium.example', 'guess');
    expect(res.status).toBe(429);
    expect(res.body).toContain('Too many failed sign-ins');
  });

  it('refuses the 11th failure from one address, whatever the emails', async () => {
    const c = new ConsoleClient(t, '10.3.0.1');
    for (let i = 0; i < 10; i++) expect((await c.signIn(`guess${i}@premium.example`, 'guess')).status).toBe(401);
    expect((await c.signIn(owner.email, owner.password)).status).toBe(429);
    // Another address still signs in.
    expect((await new ConsoleClient(t, '10.3.0.2').signIn(owner.email, owner.password)).status).toBe(303);
  });
});

describe('sessions', () => {
  it('ends at sign-out: the same cookie no longer opens a page', async () => {
    const c = new ConsoleClient(t);
    await c.signIn(owner.email, owner.password);
    const cookie = c.cookies.get('munidata_session');
    await c.get('/console/keys');
    expect((await c.post('/console/sign-out')).headers.location).toBe('/console/sign-in?signed_out');
    const replay = new ConsoleClient(t);
    replay.cookies.set('munidata_session', String(cookie));
    expect((await replay.get('/console/keys')).status).toBe(303);
  });

  it('signs out everywhere: every session of the user ends', async () => {
    const laptop = new ConsoleClient(t);
    const phone = new ConsoleClient(t);
    await laptop.signIn(owner.email, owner.password);
    await phone.signIn(owner.email, owner.password);
    await laptop.get('/console/keys');
    expect((await laptop.post('/console/sign-out-everywhere')).status).toBe(303);
    expect((await phone.get('/console/keys')).status).toBe(303);
    expect((await laptop.get('/console/keys')).status).toBe(303);
  });

  it(`ends after ${IDLE_MINUTES} minutes without a request, and ${ABSOLUTE_HOURS} hours after it began`, async () => {
    const c = new ConsoleClient(t);
    await c.signIn(owner.email, owner.password);
    t.clock.advance((IDLE_MINUTES - 1) * 60_000);
    expect((await c.get('/console/keys')).status).toBe(200);
    t.clock.advance((IDLE_MINUTES - 1) * 60_000);
    expect((await c.get('/console/keys')).status).toBe(200); // kept alive by the request before
    t.clock.advance((IDLE_MINUTES + 1) * 60_000);
    expect((await c.get('/console/keys')).status).toBe(303);

    const busy = new ConsoleClient(t);
    await busy.signIn(owner.email, owner.password);
    for (let hours = 0; hours < ABSOLUTE_HOURS; hours += 0.5) {
      t.clock.advance(30 * 60_000);
      const res = await busy.get('/console/keys');
      if (hours + 0.5 < ABSOLUTE_HOURS) expect(res.status).toBe(200);
      else expect(res.status).toBe(303);
    }
  });

  it('ends when the user is disabled, and a disabled user cannot sign in', async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'leaver@premium.example',
      role: 'member',
    });
    const c = new ConsoleClient(t);
    await c.signIn(user.email, user.password);
    expect((await c.get('/console/keys')).status).toBe(200);
    await disableUser(t.store, user.id, new Date(t.clock.now));
    expect((await c.get('/console/keys')).status).toBe(303);
    expect((await new ConsoleClient(t, '10.4.0.1').signIn(user.email, user.password)).status).toBe(401);
  });
});

describe('one-time links', () => {
  it('sets the password of a new user once, and signs them in', async () => {
    const created = await createUser(
      t.store,
      { accountId: t.accounts.free, email: 'new@free.example', role: 'member' },
      new Date(t.clock.now),
      BASE_URL,
    );
    const url = new URL(created.link);
    expect(url.origin + url.pathname).toBe(`${BASE_URL}/console/set-password`);
    const c = new ConsoleClient(t);
    await c.get(url.pathname + url.search);
    const token = String(url.searchParams.get('token'));
    expect((await c.post('/console/set-password', { token, password: 'short', confirm: 'short' })).status).toBe(422);
    const done = await c.post('/console/set-password', {
      token,
      password: 'a long new password',
      confirm: 'a long new password',
    });
    expect(done.status).toBe(303);
    expect((await c.get('/console/keys')).body).toContain('new@free.example');
    const again = await new ConsoleClient(t).post('/console/set-password', {
      token,
      password: 'another long password',
      confirm: 'another long password',
    });
    expect(again.status).toBe(403); // no CSRF cookie in a fresh browser
    const fresh = new ConsoleClient(t);
    // Opened again, the used link says so at once, with no form to fill in…
    const reopened = await fresh.get(url.pathname + url.search);
    expect(reopened.status).toBe(400);
    expect(reopened.body).toContain('used already');
    // …and its token sent anyway (a form of another console page gives the CSRF cookie) is refused the same way.
    await fresh.get('/console/sign-in');
    const reused = await fresh.post('/console/set-password', {
      token,
      password: 'another long password',
      confirm: 'another long password',
    });
    expect(reused.status).toBe(422);
    expect(reused.body).toContain('used already');
    expect((await new ConsoleClient(t, '10.5.0.1').signIn('new@free.example', 'a long new password')).status).toBe(303);
  });

  it('signs the demo owner in with one click, once', async () => {
    const link = new URL(await issueLink(t.store, owner.id, 'sign-in', new Date(t.clock.now), BASE_URL));
    const c = new ConsoleClient(t);
    const res = await c.get(link.pathname + link.search);
    expect(res.status).toBe(303);
    expect((await c.get('/console/keys')).status).toBe(200);
    expect((await new ConsoleClient(t).get(link.pathname + link.search)).status).toBe(400);
  });
});

describe('behind HTTPS', () => {
  it('names the cookies __Host- and marks them Secure', async () => {
    const https = await startTestApp({ baseUrl: 'https://munidata.example' });
    try {
      const user = await consoleUser(https, {
        accountId: https.accounts.premium,
        email: 'tls@premium.example',
        role: 'owner',
      });
      const c = new ConsoleClient(https);
      const res = await c.signIn(user.email, user.password);
      const session = res.setCookies.find((line) => line.startsWith('__Host-munidata_session='));
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; Path=\//);
      expect(session).not.toMatch(/Domain=/i);
      expect(c.cookies.has('__Host-munidata_csrf')).toBe(true);
      expect(String((await c.get('/console/keys')).headers['strict-transport-security'])).toContain('max-age=');
    } finally {
      await https.close();
    }
  });
});
