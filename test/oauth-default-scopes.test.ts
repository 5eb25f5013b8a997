/**
 * The scopes an OAuth client is offered (docs/oauth.md, Consent and Scopes): a request that names none asks for
 * every data scope, and the consent page offers each; docs/oauth.md lists exactly those the service grants.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../src/lib/domains.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { authorize, pkce, register } from './helpers/oauth-flow.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** The scopes the consent page offers (its checkboxes) for an authorization request naming `scope`. */
async function offered(scope: string): Promise<string[]> {
  const owner = await consoleUser(t, {
    accountId: t.accounts.premium,
    email: `owner-${Math.random()}@scopes.example`,
    role: 'owner',
  });
  const c = new ConsoleClient(t);
  await c.signIn(owner.email, owner.password);
  const client = (await register(t)).json;
  const auth = await authorize(t, { clientId: client.client_id, challenge: pkce().challenge, method: 'S256', scope });
  expect(auth.uid, auth.location).toBeDefined();
  for (const pair of auth.jar.header().split('; '))
    c.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  const page = await c.get(new URL(auth.location, 'http://x').pathname);
  expect(page.status, page.body).toBe(200);
  return [...page.body.matchAll(/name="scopes" value="([^"]+)"/g)].map((m) => m[1]);
}

describe('the default scopes', () => {
  it('offers every data scope to a request that names none', async () => {
    expect(await offered('')).toEqual(SCOPES);
    expect(await offered('openid')).toEqual(SCOPES);
  });

  it('are the scopes docs/oauth.md lists, all of them', () => {
    const doc = readFileSync(new URL('../docs/oauth.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Scopes'), doc.indexOf('\n## ', doc.indexOf('## Scopes') + 1));
    const listed = [...section.matchAll(/`([a-z]+:read)`/g)].map((m) => m[1]);
    expect([...new Set(listed)]).toEqual(SCOPES);
    // A count written in words would go stale when a domain is added: the text names none.
    expect(doc).not.toMatch(/all (two|three|four|five|six|seven|eight)\b/);
  });
});
