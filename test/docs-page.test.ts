import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../src/admin/default-plans.js';
import { AGENT_CARD_PATH } from '../src/channels/a2a/card.js';
import { ERROR_KINDS, problemTypeUrl } from '../src/lib/errors.js';
import { launchChromium } from './helpers/chromium.js';
import { freePort } from './helpers/free-port.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** The browser globals the evaluated callbacks use (they run in the page; this program has no DOM types). */
declare const document: {
  getElementById(id: string): unknown;
  documentElement: { scrollWidth: number; clientWidth: number };
};

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const requested: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The page names the public address in its links and examples: here, where the test server listens.
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  page.on('request', (request) => requested.push(request.url()));
  const response = await page.goto(`${base}/docs`);
  expect(response?.status()).toBe(200);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('/docs in a browser', () => {
  it('renders on its own: no script error, nothing fetched but the page', async () => {
    expect(await page.title()).toBe('munidata — REST API reference');
    await expect(page.locator('h1').innerText()).resolves.toContain('munidata');
    expect(consoleErrors).toEqual([]);
    expect(requested).toEqual([`${base}/docs`]);
  });

  it('documents every operation of the registry, with its path', async () => {
    for (const op of t.app.registry.all) {
      const article = page.locator(`article[id="${op.name}"]`);
      await expect(article.isVisible()).resolves.toBe(true);
      const heading = await article.locator('h3').innerText();
      expect(heading).toBe(`GET ${op.rest.path.replace(/:(\w+)/g, '{$1}')}`);
    }
  });

  it('has no in-page link to a missing anchor, and the table of contents jumps', async () => {
    const targets = await page.$$eval('a[href^="#"]', (links) =>
      links.map((a) => a.getAttribute('href')?.slice(1) ?? ''),
    );
    expect(targets.length).toBeGreaterThan(20);
    const missing = await page.evaluate((ids: string[]) => ids.filter((id) => !document.getElementById(id)), targets);
    expect(missing).toEqual([]);

    await page.locator('nav a[href="#plans"]').first().click();
    expect(new URL(page.url()).hash).toBe('#plans');
    await expect(page.locator('#plans h2').isVisible()).resolves.toBe(true);
    const top = await page.locator('#plans').evaluate((e) => e.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(50);
  });

  it('links to the OpenAPI document, the agent card and a page for each problem type, which answer', async () => {
    const links = await page.$$eval('a[href^="http"]', (as) => as.map((a) => (a as unknown as { href: string }).href));
    const openapi = links.find((href) => href.endsWith('/v1/openapi.json'));
    expect(openapi).toBe(`${base}/v1/openapi.json`);
    expect(links).toContain(`${base}${AGENT_CARD_PATH}`);
    const problems = [...new Set(links.filter((href) => href.startsWith(`${base}/problems/`)))].sort();
    expect(problems).toEqual(
      Object.keys(ERROR_KINDS)
        .map((kind) => problemTypeUrl(base, kind as keyof typeof ERROR_KINDS))
        .sort(),
    );

    const other = await browser.newPage();
    try {
      const doc = await other.goto(openapi as string);
      if (!doc) throw new Error('no answer for the OpenAPI document');
      expect(doc.status()).toBe(200);
      expect((await doc.json()).openapi).toBe('3.1.0');
      const card = await other.goto(`${base}${AGENT_CARD_PATH}`);
      if (!card) throw new Error('no answer for the agent card');
      expect(card.status()).toBe(200);
      expect((await card.json()).skills.length).toBe(t.app.registry.all.length);
      for (const href of problems) {
        const res = await other.goto(href);
        expect(res?.status(), href).toBe(200);
        expect(await other.locator('body').innerText()).toContain(href.split('/').pop());
      }
    } finally {
      await other.close();
    }
  });

  it('shows example requests that answer 200 when copied with a key', async () => {
    const examples = await page.$$eval('code.url', (codes) => codes.map((c) => c.textContent ?? ''));
    expect(examples.length).toBeGreaterThanOrEqual(t.app.registry.all.length);
    for (const example of examples) {
      expect(example).toMatch(/^GET http:\/\//);
      const url = example.slice('GET '.length);
      const res = await fetch(url, { headers: { authorization: `Bearer ${t.keys.beta}` } });
      expect(res.status, url).toBe(200);
    }
  });

  it('states the plans migrate seeds, and limit headers as an answer on such limits carries them', async () => {
    const plans = await page.$$eval('#plans tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
    expect(plans).toEqual(DEFAULT_PLANS.map((p) => p.code));
    const shown = await page.$$eval('#limits li code', (codes) => codes.map((c) => c.textContent ?? ''));
    const policy = shown.find((text) => text.includes(';q='));
    const state = shown.find((text) => text.includes(';r='));
    const [minute, month] = [...String(policy).matchAll(/q=(\d+)/g)].map((m) => Number(m[1]));
    const { key } = await t.keyOnPlan('docs_limits', { requests_per_minute: minute, requests_per_month: month });
    const res = await fetch(`${base}/v1/municipalities?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.headers.get('ratelimit-policy')).toBe(policy);
    const form = (text: string | null) => String(text).replace(/=\d+/g, '=N');
    expect(form(res.headers.get('ratelimit'))).toBe(form(state ?? ''));
  });

  it('reads on a phone: the page itself never scrolls sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 740 } });
    try {
      await phone.goto(`${base}/docs`);
      const overflow = await phone.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      // A code block wider than the screen scrolls within itself: a keyboard reaches it to scroll it.
      const blocks = await phone.$$eval('pre', (pres) =>
        pres.map((p) => ({ wide: p.scrollWidth > p.clientWidth, focusable: p.tabIndex >= 0, text: p.textContent })),
      );
      expect(blocks.filter((b) => b.wide).length).toBeGreaterThan(0);
      expect(blocks.filter((b) => b.wide && !b.focusable).map((b) => b.text)).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});

/** A port nobody listens on now (the app must know its address before it starts). */
