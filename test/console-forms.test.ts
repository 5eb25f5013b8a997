/**
 * Odd fields in the console's forms (docs/console.md, "Forms"): every form the console and the OAuth consent page
 * show, found by reading the pages as a signed-in owner, is posted with each of its fields sent twice, and
 * answers the console's 400 page, never a 5xx; the same for the query fields of the sign-in page and the links. A
 * `next` that is not a printable ASCII path is ignored after a successful sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLink } from '../src/admin/users.js';
import { issueDemoOwnerLink } from '../src/demo/demo-account.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { authorize, pkce, register } from './helpers/oauth-flow.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

interface FoundForm {
  page: string;
  action: string;
  /** Each named field with the value the page gives it (the first option of a select). */
  fields: Map<string, string>;
  /** Names that several checkboxes share: made to repeat. */
  repeating: Set<string>;
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const fromHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<');

/** The POST forms of a page, with their fields. */
function formsOf(page: string, html: string): FoundForm[] {
  const forms: FoundForm[] = [];
  for (const [, attributes, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    if (attr(attributes, 'method') !== 'post') continue;
    const form: FoundForm = {
      page,
      action: fromHtml(attr(attributes, 'action') ?? page),
      fields: new Map(),
      repeating: new Set(),
    };
    for (const [tag, element] of inner.matchAll(/<(input|select|textarea|button)\b[^>]*>/g)) {
      const name = attr(tag, 'name');
      if (!name || name === '_csrf') continue;
      if (attr(tag, 'type') === 'checkbox') form.repeating.add(name);
      const value =
        element === 'select'
          ? (new RegExp(`name="${name}"[^>]*>\\s*<option value="([^"]*)"`).exec(inner)?.[1] ?? '')
          : (attr(tag, 'value') ?? '');
      if (!form.fields.has(name)) form.fields.set(name, fromHtml(value));
    }
    forms.push(form);
  }
  return forms;
}

/** Every POST form with a field, on the pages a signed-in owner (of the demo account, with its agents) reaches. */
async function everyForm(owner: ConsoleClient, anonymous: ConsoleClient, consentPage: string): Promise<FoundForm[]> {
  const pages = [
    '/console/keys',
    '/console/apps',
    '/console/usage',
    '/console/agents',
    '/console/marketplace',
    '/console/account',
  ];
  const agents = (await owner.get('/console/agents')).body;
  const deployment = /href="(\/console\/agents\/[a-z0-9-]+)"/.exec(agents)?.[1];
  expect(deployment, 'a deployment page of the demo account').toBeDefined();
  pages.push(String(deployment), consentPage);
  const found: FoundForm[] = [];
  for (const page of pages) {
    const res = await owner.get(page);
    expect(res.status, page).toBe(200);
    found.push(...formsOf(page, res.body));
  }
  // A set-password link that can still be used: the page shows its form only then.
  const newcomer = await consoleUser(t, {
    accountId: t.accounts.premium,
    email: 'forms-link@example.test',
    role: 'member',
  });
  const link = await issueLink(t.store, newcomer.id, 'set-password', new Date(t.clock.now), BASE_URL);
  for (const page of ['/console/sign-in', new URL(link).pathname + new URL(link).search])
    found.push(...formsOf(page, (await anonymous.get(page)).body));
  return found.filter((f) => f.fields.size > 0);
}

describe('a field sent twice', () => {
  const refusedOnEveryForm =
    'is refused with the 400 page on every form of the console and the consent page, before anything is done';
  it(refusedOnEveryForm, async () => {
    const demo = await issueDemoOwnerLink(t.store, new Date(t.clock.now), BASE_URL);
    const owner = new ConsoleClient(t, '10.40.0.1');
    await owner.get(new URL(demo.link).pathname + new URL(demo.link).search);
    // A deployment of the owner's account, so that its page and credential form are read too.
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    await owner.get('/console/agents');
    expect(
      (
        await owner.post('/console/agents/upload', {
          file: JSON.stringify({ ...SOLAR_INSTALLER, slug: 'forms-solar' }),
        })
      ).status,
    ).toBe(303);
    // An authorization request of this browser, so that its consent page and form can be read.
    const { challenge } = pkce();
    const auth = await authorize(t, { clientId: (await register(t)).json.client_id, challenge, method: 'S256' });
    for (const pair of auth.jar.header().split('; '))
      owner.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    const forms = await everyForm(owner, new ConsoleClient(t, '10.40.0.2'), `/console/connect/${auth.uid}`);
    const actions = forms.map((f) => f.action);
    for (const expected of [
      '/console/sign-in',
      '/console/set-password',
      '/console/keys',
      '/console/account/users',
      '/console/account/password',
    ]) {
      expect(actions).toContain(expected);
    }
    expect(actions).toContain('/console/agents/upload');
    expect(actions.some((a) => a.startsWith('/console/connect/'))).toBe(true);
    expect(actions.some((a) => /^\/console\/agents\/[^/]+\/credentials$/.test(a))).toBe(true);
    const keysBefore = (await t.store.listApiKeys(t.accounts.premium)).length;
    const usersBefore = (await t.store.console.listUsers()).length;

    for (const form of forms) {
      const browser =
        form.page.startsWith('/console/sign-in') || form.page.startsWith('/console/set-password')
          ? new ConsoleClient(t, '10.40.0.3')
          : owner;
      for (const name of form.fields.keys()) {
        if (form.repeating.has(name)) continue;
        await browser.get(form.page); // a fresh CSRF token, as a browser that shows the form has
        const body: Record<string, string | string[]> = Object.fromEntries(form.fields);
        for (const repeating of form.repeating) body[repeating] = form.fields.get(repeating) ?? '';
        body[name] = [form.fields.get(name) || 'one@example.pt', 'two@example.pt'];
        const res = await browser.post(form.action, body);
        expect(res.status, `${form.action} with ${name} twice: ${res.body.slice(0, 300)}`).toBe(400);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain(`“${name}” was sent more than once`);
      }
    }
    expect((await t.store.listApiKeys(t.accounts.premium)).length).toBe(keysBefore);
    expect((await t.store.console.listUsers()).length).toBe(usersBefore);
  });

  it('is refused in the query of the sign-in page and of the one-time links', async () => {
    const c = new ConsoleClient(t, '10.41.0.1');
    for (const url of [
      '/console/sign-in?next=/console&next=/console/keys',
      '/console/set-password?token=a&token=b',
      '/console/link?token=a&token=b',
    ]) {
      const res = await c.get(url);
      expect(res.status, url).toBe(400);
      expect(res.body).toContain('was sent more than once');
    }
  });
});

describe('the page to go back to after signing in (next)', () => {
  const odd = [
    '/console/keys\r\nSet-Cookie: planted=1',
    '/console\n',
    '/console/\u0100',
    '/explore/municípios',
    '/console/ключи',
    '/console/\u2028',
    '/console/a b',
    '/console/\t',
  ];

  it('is ignored, for the console’s default, when it holds CR, LF, a space or a character beyond ASCII', async () => {
    const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'next@premium.example', role: 'member' });
    for (const next of odd) {
      const c = new ConsoleClient(t, '10.42.0.1');
      await c.get('/console/sign-in');
      const res = await c.post('/console/sign-in', { email: user.email, password: user.password, next });
      expect(res.status, JSON.stringify(next)).toBe(303);
      expect(res.headers.location).toBe('/console');
      expect(res.setCookies.some((line) => line.startsWith('munidata_session='))).toBe(true);
      expect(res.setCookies.some((line) => line.startsWith('planted'))).toBe(false);
    }
  });

  it('is kept when it is a console or explorer path, percent-encoded as the sign-in redirect writes it', async () => {
    const user = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'next-ok@premium.example',
      role: 'member',
    });
    const c = new ConsoleClient(t, '10.42.0.2');
    const start = await c.get(`/explore/procurement?q=${encodeURIComponent('São João')}`);
    const next = new URL(String(start.headers.location), BASE_URL).searchParams.get('next') ?? '';
    expect(next).toMatch(/^\/explore\/procurement\?q=/);
    await c.get(String(start.headers.location));
    const res = await c.post('/console/sign-in', { email: user.email, password: user.password, next });
    expect(res.headers.location).toBe(next);
  });
});
