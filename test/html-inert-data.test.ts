/**
 * Text from data is shown as text (docs/console.md, docs/explorer.md): a key label, an account name, an agent's
 * name and description, an app's name, a sign-in email and an address in the explorer, each holding markup and
 * quotes, reach the page escaped — no element, no attribute made of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/admin/accounts.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { authorize, pkce, register } from './helpers/oauth-flow.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const EVIL = `<script>alert("x")</script><img src=x onerror='alert(1)'>`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;';

let t: TestApp;
let owner: ConsoleClient;

beforeAll(async () => {
  t = await startTestApp();
  const plan = (await t.store.getAccount(t.accounts.premium))?.plan_code ?? '';
  const account = await createAccount(t.store, { name: EVIL, plan }, new Date(t.clock.now));
  const user = await consoleUser(t, { accountId: account.id, email: 'owner@inert.example', role: 'owner' });
  owner = new ConsoleClient(t);
  expect((await owner.signIn(user.email, user.password)).status).toBe(303);
});

afterAll(async () => {
  await t?.close();
});

/** The page holds the text escaped, and none of its markup. */
function expectInert(body: string): void {
  expect(body).toContain(ESCAPED);
  expect(body).not.toContain('<script>alert');
  expect(body).not.toContain('<img src=x');
}

describe('text from data in the console', () => {
  it('shows the account name and a key label as text, on the keys page and the revocation page', async () => {
    await owner.get('/console/keys'); // the form, with its one-use token
    const created = await owner.post('/console/keys', { label: EVIL, scopes: 'indicators:read' });
    expect(created.status).toBe(200);
    expectInert(created.body);
    expect(created.body.split(ESCAPED).length).toBeGreaterThanOrEqual(4); // header, secret's label, the key's row
    const revoke = /href="(\/console\/keys\/\d+\/revoke)"/.exec(created.body)?.[1];
    expectInert((await owner.get(String(revoke))).body);
  });

  const agentTextAsText =
    "shows an agent's name and description as text on the company agents, deployment and marketplace pages";
  it(agentTextAsText, async () => {
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    await owner.get('/console/agents');
    const file = JSON.stringify({ ...SOLAR_INSTALLER, slug: 'inert-solar', name: EVIL, description: EVIL });
    const uploaded = await owner.post('/console/agents/upload', { file });
    expect(uploaded.status).toBe(303);
    expectInert((await owner.get(String(uploaded.headers.location))).body);
    expectInert((await owner.get('/console/agents/inert-solar')).body);
    expect((await owner.post('/console/agents/inert-solar/publish')).status).toBe(303);
    expectInert((await owner.get('/console/marketplace')).body);
  });

  it("shows an app's name as text on the consent page", async () => {
    const { challenge } = pkce();
    const client = (await register(t, { client_name: EVIL })).json;
    const auth = await authorize(t, { clientId: client.client_id, challenge, method: 'S256' });
    for (const pair of auth.jar.header().split('; '))
      owner.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    const consent = await owner.get(`/console/connect/${auth.uid}`);
    expect(consent.status).toBe(200);
    expectInert(consent.body);
  });

  it('keeps an email sent to the sign-in form inside its attribute', async () => {
    const browser = new ConsoleClient(t, '10.60.0.9');
    await browser.get('/console/sign-in');
    const res = await browser.post('/console/sign-in', {
      email: `a@b.pt" autofocus onfocus="alert(1)`,
      password: 'wrong',
    });
    expect(res.status).toBe(401);
    expect(res.body).toContain('value="a@b.pt&quot; autofocus onfocus=&quot;alert(1)"');
  });
});

describe('text from the address in the explorer', () => {
  it('shows a municipality reference that holds markup as text on its refusal page', async () => {
    const res = await owner.get(`/explore/municipalities/${encodeURIComponent(EVIL)}`);
    expect(res.status).toBe(404);
    expectInert(res.body);
  });
});
