/**
 * Webhooks and the pipeline in the console, in a real browser (docs/console.md, Webhooks and Operators): an owner
 * registers an endpoint (a private address refused with the CLI's own message) and sees its secret once; a local
 * receiver (WEBHOOK_ALLOW_LOOPBACK=1) verifies each delivery with `standardwebhooks`; the attempt is in the log, a
 * redelivery sends the same webhook-id again; a 410 disables the endpoint and a notice stands on the console's
 * pages until acknowledged; a member reads but changes nothing; an operator sees the pipeline, no one else; no page
 * scrolls sideways at 390 px. Screenshots under screenshots/console-webhooks/ (not committed) at 1280 and 390 px.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { storeLease } from '../src/pipeline/lease.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import type { WebhookEndpointRecord } from '../src/store/webhooks/records.js';
import { deliverWebhooks } from '../src/webhooks/deliver.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { writeProcurementFixture } from './helpers/alert-fixture.js';
import { signInInBrowser } from './helpers/browser-sign-in.js';
import { launchChromium } from './helpers/chromium.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { freePort } from './helpers/free-port.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

declare const document: { documentElement: { scrollWidth: number } };

const SHOTS = resolve(import.meta.dirname, '../screenshots/console-webhooks');
const OPERATOR = 'ops@hooks.example';

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let member: ConsoleClient;
let operator: ConsoleClient;
let operatorPassword: string;

/** The receiver: verifies each delivery with the secrets it knows, answers `status`. */
const receiver = {
  secrets: [] as string[],
  status: 200,
  got: [] as { id: string; type: string; verified: boolean }[],
  server: createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = receiver.secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      });
      receiver.got.push({ id: String(request.headers['webhook-id']), type: JSON.parse(body).type, verified });
      response.writeHead(receiver.status, { 'content-type': 'text/plain' }).end(`receiver says ${receiver.status}`);
    });
  }),
  url: () => `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`,
};

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function endpoint(): Promise<WebhookEndpointRecord> {
  const [only] = await t.store.webhooks.listEndpoints(t.accounts.premium);
  return only;
}

const deliver = () => deliverWebhooks(t.store, { now: new Date(), allowLoopback: true, schedule: [1] });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await new Promise<void>((done) => receiver.server.listen(0, '127.0.0.1', done));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({
    baseUrl: base,
    env: { WEBHOOK_ALLOW_LOOPBACK: '1', CONSOLE_OPERATORS: OPERATOR, PIPELINE_INTERVAL_S: '30' },
  });
  await t.app.http.listen({ host: '127.0.0.1', port });
  await writeProcurementFixture(t.store, new Date(t.clock.now));
  const owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@hooks.example', role: 'owner' });
  const m = await consoleUser(t, { accountId: t.accounts.premium, email: 'rui@hooks.example', role: 'member' });
  member = new ConsoleClient(t);
  await member.signIn(m.email, m.password);
  const o = await consoleUser(t, { accountId: t.accounts.beta, email: OPERATOR, role: 'member' });
  operator = new ConsoleClient(t);
  await operator.signIn(o.email, o.password);
  operatorPassword = o.password;
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    // The refusals the test asks for (a refused form 422, 403, 404) are logged by the browser as failed loads.
    if (message.type() === 'error' && !/status of (40[34]|422)/.test(message.text())) pageErrors.push(message.text());
  });
  await signInInBrowser(page, base, owner);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  receiver.server.close();
});

describe('webhooks in the console', () => {
  it('refuses a private address with the command line’s own message', async () => {
    const url = 'http://10.1.2.3/hooks';
    const cli = await createWebhookEndpoint(
      t.store,
      { account: t.accounts.premium, url, events: ['alert_match.created'] },
      { now: new Date(), allowLoopback: true },
    ).then(
      () => 'accepted',
      (error: Error) => error.message,
    );
    expect(cli).toMatch(/^refused URL: /);
    await page.click('nav >> text=Webhooks');
    await page.fill('#url', url);
    await page.check('input[name=events][value="alert_match.created"]');
    await page.click('button:text("Register")');
    // The command line's message, as a sentence of the page.
    await expect(page.locator('[role=alert]').innerText()).resolves.toBe(`R${cli.slice(1)}.`);
    await expect(page.inputValue('#url')).resolves.toBe(url);
    expect(await t.store.webhooks.listEndpoints(t.accounts.premium)).toEqual([]);
  });

  it('registers an endpoint and shows its secret once', async () => {
    await page.goto(`${base}/console/webhooks`);
    await page.fill('#url', receiver.url());
    await page.check('input[name=events][value="alert_match.created"]');
    await page.click('button:text("Register")');
    const secret = await page.locator('#secret').innerText();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets = [secret];
    await shot('1280-01-registered');
    // A reload of the answer sends the form again (Chromium resubmits it): nothing more is registered.
    await page.reload();
    await expect(page.locator('.notice').innerText()).resolves.toContain('nothing new was registered');
    await expect(page.locator('#secret').count()).resolves.toBe(0);
    await shot('1280-01b-form-sent-again');
    expect(await t.store.webhooks.listEndpoints(t.accounts.premium)).toHaveLength(1);
    expect(await endpoint()).toMatchObject({ url: receiver.url(), events: ['alert_match.created'], enabled: true });
    await page.goto(`${base}/console/webhooks`);
    expect(await page.content()).not.toContain(secret);
    await expect(page.locator('tr', { hasText: receiver.url() }).innerText()).resolves.toContain('on');
  });

  it('logs each delivery attempt, verified by the receiver, and redelivers with the same webhook-id', async () => {
    await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'] },
      new Date(t.clock.now),
    );
    await runAlertMatching(t.store, { now: new Date() });
    expect((await deliver()).delivered).toBeGreaterThan(0);
    expect(receiver.got.length).toBeGreaterThan(0);
    expect(receiver.got.every((r) => r.verified && r.type === 'alert_match.created')).toBe(true);
    const first = receiver.got[0].id;

    await page.click(`a:text("${receiver.url()}")`);
    const row = page.locator('tbody tr', { hasText: first });
    await expect(row.innerText()).resolves.toMatch(
      /alert_match\.created[\s\S]*200[\s\S]*\d+ ms[\s\S]*receiver says 200/,
    );
    await shot('1280-02-log');
    await row.locator('button:text("Redeliver")').click();
    await expect(page.locator('.notice').innerText()).resolves.toContain(`${first} is queued again`);
    await expect(page.locator('.notice').innerText()).resolves.toContain('within one pipeline cycle (every 30 s)');
    await deliver();
    expect(receiver.got.filter((r) => r.id === first)).toHaveLength(2);
    expect(receiver.got.every((r) => r.verified)).toBe(true);
    await page.reload();
    await expect(page.locator('tbody tr', { hasText: first }).count()).resolves.toBe(2);
  });

  it('rotates the secret: the new one is shown once, and both sign during the overlap', async () => {
    await page.click('button:text("Rotate the secret")');
    const rotated = await page.locator('#secret').innerText();
    expect(rotated).toMatch(/^whsec_/);
    expect(receiver.secrets).not.toContain(rotated);
    await expect(page.locator('.notice').innerText()).resolves.toContain('The old secret signs alongside the new one');
    const [delivery] = await t.store.webhooks.listDeliveries((await endpoint()).id, 1);
    receiver.got.length = 0;
    for (const secrets of [[rotated], receiver.secrets]) {
      receiver.secrets = secrets;
      await t.store.webhooks.redeliver(delivery.id, new Date().toISOString());
      await deliver();
      expect(receiver.got.at(-1)?.verified).toBe(true);
    }
    receiver.secrets = [rotated];
  });

  it('tells the account on its pages when a 410 disabled the endpoint, until acknowledged', async () => {
    receiver.status = 410;
    const hook = await endpoint();
    const [delivery] = await t.store.webhooks.listDeliveries(hook.id, 1);
    await t.store.webhooks.redeliver(delivery.id, new Date().toISOString());
    expect((await deliver()).disabled).toBe(1);
    expect(await endpoint()).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('410') });
    for (const path of ['/console/webhooks', '/console/alerts', '/console/account', '/console/keys']) {
      await page.goto(`${base}${path}`);
      await expect(page.locator('.banner').innerText(), path).resolves.toContain(`${hook.url} was disabled`);
    }
    await expect(page.locator('.banner').innerText()).resolves.toContain('answered 410 Gone');
    await shot('1280-03-notice');
    await page.setViewportSize({ width: 390, height: 844 });
    // The console lays a table too wide for a phone out row by row on the frame after a resize (its script's
    // fitTables, on requestAnimationFrame), as a person turning a phone sees it: read the width once that frame ran.
    await page.evaluate('new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))');
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'notice at 390').toBeLessThanOrEqual(390);
    await shot('390-03-notice');
    await page.setViewportSize({ width: 1280, height: 900 });
    // A member reads the notice too, but cannot acknowledge it.
    const asMember = await member.get('/console/alerts');
    expect(asMember.body).toContain(`${hook.url} was disabled`);
    expect((await member.post(`/console/webhooks/${hook.id}/acknowledge`)).status).toBe(403);

    await page.click('.banner >> button:text("Acknowledge")');
    await expect(page.locator('.notice').innerText()).resolves.toContain('Acknowledged');
    await expect(page.locator('.banner').count()).resolves.toBe(0);
    expect((await endpoint()).enabled).toBe(false);

    // Off by the account's own hand: no notice; on again, deliveries resume.
    receiver.status = 200;
    await page.click('button:text("Turn on")');
    expect((await endpoint()).enabled).toBe(true);
    await page.click('button:text("Turn off")');
    expect(await endpoint()).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('ana@') });
    await expect(page.locator('.banner').count()).resolves.toBe(0);
    await page.click('button:text("Turn on")');
  });

  it('lets a member read endpoints and their log but change nothing (403)', async () => {
    const hook = await endpoint();
    const list = await member.get('/console/webhooks');
    expect(list.status).toBe(200);
    expect(list.body).toContain(hook.url);
    expect(list.body).not.toContain('Register an endpoint');
    expect((await member.get(`/console/webhooks/${hook.id}`)).body).toContain('Delivery log');
    const created = await member.post('/console/webhooks', { url: receiver.url(), events: 'alert_match.created' });
    expect(created.status).toBe(403);
    for (const action of ['disable', 'rotate', 'delete'])
      expect((await member.post(`/console/webhooks/${hook.id}/${action}`)).status).toBe(403);
    expect(await t.store.webhooks.listEndpoints(t.accounts.premium)).toEqual([hook]);
  });

  it('answers another account’s endpoint as if it did not exist (404)', async () => {
    const other = await createWebhookEndpoint(
      t.store,
      { account: t.accounts.beta, url: receiver.url(), events: ['alert_match.created'] },
      { now: new Date(), allowLoopback: true },
    );
    expect((await page.goto(`${base}/console/webhooks/${other.endpoint.id}`))?.status()).toBe(404);
    expect(await t.store.webhooks.getEndpoint(other.endpoint.id)).toBeDefined();
  });
});

describe('the pipeline for operators', () => {
  it('shows each step to an operator, and to no one else', async () => {
    const counting = { name: 'test_counting', run: async () => ({ delivered: 3 }) };
    const cycle = new Pipeline({ store: t.store, lease: storeLease(t.store), steps: [counting], intervalS: 30 });
    await cycle.runCycle();
    const seen = await operator.get('/console/pipeline');
    expect(seen.status).toBe(200);
    expect(seen.body).toContain('A cycle every 30 s');
    expect(seen.body).toMatch(/<th scope="row">test_counting<\/th><td>idle<\/td><td><time>[^<]+<\/time>/);
    expect(seen.body).toContain('delivered 3');
    expect((await operator.get('/console/keys')).body).toContain('href="/console/pipeline"');

    expect(await page.content()).not.toContain('href="/console/pipeline"');
    expect((await page.goto(`${base}/console/pipeline`))?.status()).toBe(403);
    expect((await member.get('/console/pipeline')).status).toBe(403);
  });
});

describe('phones', () => {
  it('no page scrolls sideways at 390 px (screenshots at 1280 and 390)', async () => {
    const hook = await endpoint();
    const pages: [string, string][] = [
      ['webhooks', '/console/webhooks'],
      ['endpoint', `/console/webhooks/${hook.id}`],
      ['alerts', '/console/alerts'],
    ];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [name, path] of pages) {
        await page.goto(`${base}${path}`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${name} at ${width}`,
        ).toBeLessThanOrEqual(width);
        await shot(`${width}-${name}`);
      }
    }
    // The operator's page, in a browser of its own.
    const ops = await (await browser.newContext({ viewport: { width: 1280, height: 844 } })).newPage();
    await signInInBrowser(ops, base, { email: OPERATOR, password: operatorPassword });
    for (const width of [1280, 390]) {
      await ops.setViewportSize({ width, height: 844 });
      await ops.goto(`${base}/console/pipeline`);
      expect(
        await ops.evaluate(() => document.documentElement.scrollWidth),
        `pipeline at ${width}`,
      ).toBeLessThanOrEqual(width);
      await ops.screenshot({ path: join(SHOTS, `${width}-pipeline.png`), fullPage: true });
    }
    expect(pageErrors).toEqual([]);
  });
});
