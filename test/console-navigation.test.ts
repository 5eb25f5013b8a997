/**
 * Where the console and the home page lead a person (docs/console.md, Pages; docs/api.md, The service's address):
 * the console's navigation names the explorer to every plan that has a view there, and the link reaches it signed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function signedIn(accountId: number, email: string, role: 'owner' | 'member'): Promise<ConsoleClient> {
  const user = await consoleUser(t, { accountId, email, role });
  const c = new ConsoleClient(t);
  expect((await c.signIn(user.email, user.password)).status).toBe(303);
  return c;
}

/** The links of the console's navigation on `page`. */
function navLinks(html: string): string[] {
  const nav = /<nav aria-label="Console">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
}

describe('the console navigation', () => {
  it('links every page of a plan with data access to the explorer, which opens for the session', async () => {
    const member = await signedIn(t.accounts.premium, 'member@nav.example', 'member');
    for (const path of [
      '/console/keys',
      '/console/usage',
      '/console/apps',
      '/console/marketplace',
      '/console/account',
    ]) {
      const links = navLinks((await member.get(path)).body);
      expect(links, path).toContain('/explore');
    }
    const explorer = await member.get('/explore');
    expect(explorer.status).toBe(200);
    expect(explorer.headers['content-type']).toMatch(/^text\/html/);
  });

  it('leaves the explorer out for a plan without data access, which has no view there', async () => {
    const owner = await signedIn(t.accounts.free, 'owner@free-nav.example', 'owner');
    const links = navLinks((await owner.get('/console/keys')).body);
    expect(links).toContain('/console/usage');
    expect(links).not.toContain('/explore');
  });
});

describe('a mistyped address of a page', () => {
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const get = (url: string, accept: string) => t.app.http.inject({ method: 'GET', url, headers: { accept } });
  /** The visible words of a page, tags gone. */
  const words = (body: string) => body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  it('is a page of the console or the explorer saying so, with the nearest page, for a browser', async () => {
    const console = await get('/console/kyes', BROWSER);
    expect(console.statusCode).toBe(404);
    expect(console.headers['content-type']).toMatch(/^text\/html/);
    expect(words(console.body)).toContain('There is no page at /console/kyes. Did you mean /console/keys?');
    expect(console.body).toContain('href="/console"');
    const explorer = await get('/explore/procurment', BROWSER);
    expect(explorer.statusCode).toBe(404);
    expect(explorer.headers['content-type']).toMatch(/^text\/html/);
    expect(words(explorer.body)).toContain(
      'There is no page at /explore/procurment. Did you mean /explore/procurement?',
    );
    expect(explorer.body).toContain('href="/explore"');
  });

  it('stays the problem document for a program, and for every path that is not a page', async () => {
    for (const [url, accept] of [
      ['/console/kyes', 'application/json'],
      ['/explore/api/v1/nowhere', '*/*'],
      ['/v1/nowhere', BROWSER],
    ]) {
      const res = await get(url, accept);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
    }
  });
});
