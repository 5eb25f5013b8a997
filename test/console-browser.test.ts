/**
 * The account console in a real browser (Debian's Chromium through playwright-core), as a new user would use
 * it (docs/console.md): sign in, create a key and use it from a server (here, the test's fetch) on REST, A2A and
 * MCP, watch usage move, revoke it and be refused at once; upload a deployment file with an error and read the
 * field path, publish it; license it from a second account and call it over A2A with the licensed credential;
 * sign out. Every page is saved as a screenshot under screenshots/console/ (not committed) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLAR_INSTALLER } from '../src/agents/demo/solar-installer.js';
import { signInInBrowser } from './helpers/browser-sign-in.js';
import { CHANNELS, type Channel, dataRequest } from './helpers/channels.js';
import { launchChromium } from './helpers/chromium.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { freePort } from './helpers/free-port.js';
import { pkce } from './helpers/oauth-flow.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** The browser globals the evaluated callbacks use (they run in the page; this program has no DOM types). */
declare const document: { documentElement: { scrollWidth: number } };
declare function getComputedStyle(element: unknown, pseudo: string): { content: string; height: string };

const SHOTS = resolve(import.meta.dirname, '../screenshots/console');

let t: TestApp;
let base: string;
let browser: Browser;
let seller: { context: BrowserContext; page: Page };
let buyer: { context: BrowserContext; page: Page };
const pageErrors: string[] = [];
let ana: { email: string; password: string };
let bruno: { email: string; password: string };
let key = '';

async function open(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  // A form refused with 422 (the upload with an error) is logged as a failed load: that one is meant.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 422')) pageErrors.push(message.text());
  });
  return { context, page };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** One data request on a channel with the key, sent from "a server" (the test), as the key is meant to be used. */
async function call(channel: Channel, secret: string): Promise<{ status: number; json: any }> {
  const request = dataRequest(channel, secret);
  const res = await fetch(`${base}${request.url}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await res.text();
  return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  ana = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@premium.example', role: 'owner' });
  bruno = await consoleUser(t, { accountId: t.accounts.beta, email: 'bruno@beta.example', role: 'admin' });
  browser = await launchChromium();
  seller = await open();
  buyer = await open();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the console in a browser', () => {
  it('signs in from the sign-in page', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/sign-in`);
    await shot(page, '01-sign-in');
    await signInInBrowser(page, base, ana, { from: '/console' });
    await expect(page.locator('.who').innerText()).resolves.toContain('Premium Lda');
  });

  it('creates a key, shows its secret once, and the key works from a server', async () => {
    const { page } = seller;
    await page.fill('#label', 'billing server');
    await page.click('text=Create key');
    key = await page.locator('[data-secret]').innerText();
    expect(key).toMatch(/^sk_live_[A-Za-z0-9]{46}$/);
    await shot(page, '02-key-created');
    // A reload of the answer sends the form again (Chromium resubmits it): nothing more is created, and it says so.
    await page.reload();
    await expect(page.locator('.notice').innerText()).resolves.toContain('nothing new was created');
    await expect(page.locator('[data-secret]').count()).resolves.toBe(0);
    await shot(page, '02b-key-form-sent-again');
    const labels = (await t.store.listApiKeys(t.accounts.premium)).map((k) => k.label);
    expect(labels.filter((l) => l === 'billing server')).toHaveLength(1);
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).account_id).toBe(t.accounts.premium);
    await page.goto(`${base}/console/keys`);
    const row = page.locator('tr', { hasText: 'billing server' });
    await expect(row.innerText()).resolves.toContain('sk_live_');
    expect(await page.content()).not.toContain(key);
  });

  it('shows usage move on each channel, with the month’s total /v1/me reports', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/usage`);
    const before = Object.fromEntries(
      await Promise.all(
        CHANNELS.map(async (c) => [c, Number((await page.locator(`#channel-${c}`).innerText()).replace(/,/g, ''))]),
      ),
    );
    const calls: Record<Channel, number> = { rest: 3, a2a: 2, mcp: 1 };
    for (const channel of CHANNELS) {
      for (let i = 0; i < calls[channel]; i++) expect((await call(channel, key)).status).toBe(200);
    }
    await page.goto(`${base}/console/usage`);
    for (const channel of CHANNELS) {
      expect(Number((await page.locator(`#channel-${channel}`).innerText()).replace(/,/g, ''))).toBe(
        before[channel] + calls[channel],
      );
    }
    const me = (await (await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    expect(Number((await page.locator('#used').innerText()).replace(/,/g, ''))).toBe(me.usage.requests_this_month);
    await expect(page.locator('#per-minute').innerText()).resolves.toContain(String(me.limits.requests_per_minute));
    await expect(page.locator('svg.chart rect').count()).resolves.toBeGreaterThan(0);
    await shot(page, '03-usage');
  });

  it('revokes the key after a confirmation; its next request is refused on every channel', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/keys`);
    // Used on every channel just before: its "last used" cell holds a time.
    await expect(
      page.locator('tr', { hasText: 'billing server' }).locator('td').nth(4).locator('time').count(),
    ).resolves.toBe(1);
    await page.locator('tr', { hasText: 'billing server' }).locator('text=Revoke…').click();
    await shot(page, '04-revoke-confirm');
    await page.click('text=Revoke this key');
    await expect(page.locator('.notice').innerText()).resolves.toContain('Revoked');
    expect(page.url()).toBe(`${base}/console/keys`); // the notice's query left the address
    await page.reload(); // the list again, not the revocation, and its notice said once
    await expect(page.locator('.notice').count()).resolves.toBe(0);
    await expect(page.locator('tr', { hasText: 'billing server' }).innerText()).resolves.toContain('revoked');
    for (const channel of CHANNELS) expect((await call(channel, key)).status).toBe(401);
    await shot(page, '05-key-revoked');
  });

  it('keeps what was typed when the last day is refused, and shows the last day chosen', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/keys`);
    await page.fill('#label', 'nightly export');
    await page.uncheck('input[name=scopes][value="bulk:read"]');
    await page.fill('#expires', '2020-01-01');
    await page.click('text=Create key');
    await expect(page.locator('[role=alert]').innerText()).resolves.toBe('The last day 2020-01-01 is in the past.');
    await expect(page.inputValue('#label')).resolves.toBe('nightly export');
    await expect(page.inputValue('#expires')).resolves.toBe('2020-01-01');
    await expect(page.isChecked('input[name=scopes][value="bulk:read"]')).resolves.toBe(false);
    await expect(page.isChecked('input[name=scopes][value="signals:read"]')).resolves.toBe(true);
    await shot(page, '05b-key-refused');
    await page.fill('#expires', '2027-06-30');
    await page.click('text=Create key');
    await expect(page.locator('[data-secret]').count()).resolves.toBe(1);
    await page.goto(`${base}/console/keys`);
    await expect(page.locator('tr', { hasText: 'nightly export' }).innerText()).resolves.toContain('2027-06-30');
    await shot(page, '05c-key-last-day');
  });

  it('says a revoked key is revoked already on its confirmation page, with nothing to press', async () => {
    const { page } = seller;
    const revoked = (await t.store.listApiKeys(t.accounts.premium)).find((k) => k.label === 'billing server');
    await page.goto(`${base}/console/keys/${revoked?.id}/revoke`);
    await expect(page.locator('main').innerText()).resolves.toContain('is revoked already');
    await expect(page.locator('button', { hasText: 'Revoke this key' }).count()).resolves.toBe(0);
    await shot(page, '05d-revoke-revoked-key');
  });

  it('shows the field path of an error in an uploaded deployment file, then takes the fixed file', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/agents`);
    const spec = { ...SOLAR_INSTALLER, slug: 'ana-solar', name: 'Ana Solar — installations' };
    const broken = { ...spec, service_area: { ...spec.service_area, municipalities: ['Atlantis'] } };
    await page.fill('#file', JSON.stringify(broken, null, 2));
    await page.click('button:has-text("Upload")');
    await expect(page.locator('.field-path').first().innerText()).resolves.toBe('service_area.municipalities[0]');
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('unknown municipality "Atlantis"');
    await shot(page, '06-upload-error');
    await page.fill('#file', JSON.stringify(spec, null, 2));
    await page.click('button:has-text("Upload")');
    await expect(page.locator('.notice').innerText()).resolves.toContain('Created the draft');
    await page.locator('tr', { hasText: 'ana-solar' }).locator('button', { hasText: 'Publish' }).click();
    await expect(page.locator('tr', { hasText: 'ana-solar' }).innerText()).resolves.toContain('live');
    await shot(page, '07-agents');
    await page.click('text=Ana Solar — installations');
    await shot(page, '08-deployment');
  });

  it('licenses the agent from a second account, and the licensed credential reaches it over A2A', async () => {
    const { page } = buyer;
    await signInInBrowser(page, base, bruno, { from: '/console' });
    await page.goto(`${base}/console/marketplace`);
    const card = page.locator('#agent-ana-solar');
    await expect(card.innerText()).resolves.toContain('Ana Solar');
    await shot(page, '09-marketplace');
    await card.locator('text=License this agent').click();
    const credential = await page.locator('[data-secret]').innerText();
    expect(credential).toMatch(/^sk_live_/);
    await shot(page, '10-licensed');
    // The host sees a newly published deployment within a second.
    let answer: any;
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${base}/agents/ana-solar/a2a`, {
        method: 'POST',
        headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: 'm-1',
              role: 'ROLE_USER',
              parts: [
                {
                  data: { skill: 'check_service_area', input: { municipality: 'Porto' } },
                  mediaType: 'application/json',
                },
              ],
            },
          },
        }),
      });
      if (res.status !== 404) {
        answer = { status: res.status, json: await res.json() };
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer?.status).toBe(200);
    expect(answer.json.error).toBeUndefined();
    expect(JSON.stringify(answer.json.result)).toContain('inside');

    // The seller sees the licence and revokes it; the buyer's next call is refused.
    await seller.page.goto(`${base}/console/agents/ana-solar`);
    await expect(seller.page.locator('tr', { hasText: 'Beta Lda' }).innerText()).resolves.toContain('sk_live_');
    await shot(seller.page, '11-seller-licences');
    await seller.page.locator('tr', { hasText: 'Beta Lda' }).locator('text=Revoke…').click();
    await seller.page.click('text=Revoke this licence');
    const refused = await fetch(`${base}/agents/ana-solar/a2a`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetExtendedAgentCard', params: {} }),
    });
    expect(refused.status).toBe(401);
  });

  it('lays every page out within a phone’s width and a desktop’s: none scrolls sideways', async () => {
    // The buyer holds a licence; the seller connects an app through the consent page: every table has rows.
    const client = await t.app.http.inject({
      method: 'POST',
      url: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        client_name: 'Phone test app',
        redirect_uris: [`${base}/`],
        token_endpoint_auth_method: 'none',
      }),
    });
    const authorize = new URL(`${base}/oauth/authorize`);
    const { challenge } = pkce();
    for (const [name, value] of Object.entries({
      client_id: JSON.parse(client.body).client_id,
      response_type: 'code',
      redirect_uri: `${base}/`,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'indicators:read signals:read',
      resource: `${base}/mcp`,
      state: 'phone',
    })) {
      authorize.searchParams.set(name, value);
    }
    const revokeLink = await seller.page
      .goto(`${base}/console/keys`)
      .then(() => seller.page.locator('a:has-text("Revoke…")').first().getAttribute('href'));
    const pages: [string, string][] = [
      ['home', '/'],
      ['docs', '/docs'],
      ['consent', authorize.href],
      ['keys', '/console/keys'],
      ['key-revoke', String(revokeLink)],
      ['apps', '/console/apps'],
      ['usage', '/console/usage'],
      ['alerts', '/console/alerts'],
      ['alert-rule', '/console/alerts/new'],
      ['alert-matches', '/console/alerts/matches'],
      ['agents', '/console/agents'],
      ['deployment', '/console/agents/ana-solar'],
      ['marketplace', '/console/marketplace'],
      ['account', '/console/account'],
    ];
    for (const width of [390, 1280]) {
      const wide = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
      const visitor = await browser.newPage({ viewport: { width, height: 844 } });
      await visitor.goto(`${base}/console/sign-in`);
      expect(await wide(visitor), `sign-in at ${width}`).toBeLessThanOrEqual(width);
      await visitor.close();
      for (const who of [seller, buyer]) await who.page.setViewportSize({ width, height: 844 });
      for (const [name, path] of pages) {
        await seller.page.goto(path.startsWith('http') ? path : `${base}${path}`);
        expect(await wide(seller.page), `${name} at ${width}`).toBeLessThanOrEqual(width);
        await shot(seller.page, `${width}-${name}`);
        if (name === 'consent' && width === 390) {
          await seller.page.click('button:has-text("Allow")');
          await seller.page.waitForURL(/\/\?code=/);
        }
      }
      await buyer.page.goto(`${base}/console/marketplace`);
      expect(await wide(buyer.page), `buyer's marketplace at ${width}`).toBeLessThanOrEqual(width);
      // A refusal's page (404, meant: outside the error log of the walk).
      const refused = await seller.context.newPage();
      await refused.setViewportSize({ width, height: 844 });
      await refused.goto(`${base}/console/keys/999999/revoke`);
      expect(await wide(refused), `a refusal at ${width}`).toBeLessThanOrEqual(width);
      await refused.close();
      await shot(buyer.page, `${width}-buyer-marketplace`);
    }
    // On a phone a table too wide for its box is read row by row, each cell beside its column's heading.
    await seller.page.setViewportSize({ width: 390, height: 844 });
    await seller.page.goto(`${base}/console/keys`);
    const cell = seller.page.locator('table.stacked tbody tr').first().locator('td[data-label="Scopes"]');
    await expect(cell.evaluate((td) => getComputedStyle(td, '::before').content)).resolves.toBe('"Scopes"');
    await seller.page.goto(`${base}/console/apps`);
    await expect(seller.page.locator('tr', { hasText: 'Phone test app' }).count()).resolves.toBe(1);
    await seller.page.setViewportSize({ width: 1200, height: 900 });
    // Thirty pages, each laid out and shot whole: about 25 s on this shared machine on a slow hour, the suite's 30 s
    // default at its edge. A budget, not a speed target (those are benches').
  }, 120_000);

  it('on a phone, keeps each row label within its row and a long key label within the page', async () => {
    const page = seller.page;
    await page.setViewportSize({ width: 390, height: 844 });
    // A stacked row's label of two lines ("Yours, by place" on the alerts page) makes its cell taller, never runs
    // into the next cell: each cell of a stacked table given such a label holds it.
    await page.goto(`${base}/console/keys`);
    const held = await page.locator('table.stacked td[data-label]').evaluateAll((cells) =>
      cells.map((td: any) => {
        td.dataset.label = 'A label of words enough for two lines';
        return Number.parseFloat(getComputedStyle(td, '::before').height) - td.getBoundingClientRect().height;
      }),
    );
    expect(held.length).toBeGreaterThan(0);
    expect(held.filter((overflow) => overflow > 0.5)).toEqual([]);
    await shot(page, '390-long-labels');
    // A key label of one long word: the page that shows the new key wraps it rather than scroll sideways.
    await page.goto(`${base}/console/keys`);
    await page.fill('#label', 'IntegracaoCamaraMunicipalDeVilaNovaDeFamalicaoServicoDeDadosAbertos2026');
    await page.click('main button:has-text("Create key")');
    await expect(page.locator('.secret').innerText()).resolves.toContain('IntegracaoCamara');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, '390-long-key-label');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('shows the account page and signs out', async () => {
    const { page } = seller;
    await page.goto(`${base}/console/account`);
    await expect(page.locator('#members tr', { hasText: ana.email }).innerText()).resolves.toContain('owner');
    // One row of the sessions table is this one (its column's heading, hidden but for screen readers, says the same).
    await expect(page.locator('#sessions tbody >> text=this session').count()).resolves.toBe(1);
    await shot(page, '12-account');
    await page.click('text=Sign out');
    await page.waitForURL(`${base}/console/sign-in?signed_out`);
    await page.goto(`${base}/console/keys`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');
    expect(pageErrors, JSON.stringify(pageErrors)).toEqual([]);
  });

  it('has sent every page of the console with a CSP that forbids framing', async () => {
    const res = await new ConsoleClient(t).get('/console/sign-in');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});
