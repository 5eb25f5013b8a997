/**
 * The console from the keyboard and on a phone (390 px), in a real browser (docs/console.md, Pages): the first Tab
 * of a page shows a link past the navigation's dozen links, and following it puts the next Tab on the page's own
 * first control, as the explorer's pages do; the usage chart's figures stay inside the picture; a revoked key's
 * status prints beside its label; the demo's company agents are marked demo (screenshots at 390 and 1280 px).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { ensureDemoAccount } from '../src/demo/demo-account.js';
import { noCounts, usageChart } from '../src/web/console/usage-chart.js';
import { signInInBrowser } from './helpers/browser-sign-in.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { freePort } from './helpers/free-port.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** The browser globals the evaluated callbacks use (they run in the page; this program has no DOM types). */
declare const document: { activeElement: any };
declare const innerWidth: number;
declare function getComputedStyle(element: unknown, pseudo: string): { content: string };

const SHOTS = resolve(import.meta.dirname, '../screenshots/console');

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  const owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@keys.example', role: 'owner' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
  await signInInBrowser(page, base, owner);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** What has the focus: its text, whether it is inside <main> and inside the navigation, and where it is drawn. */
const focused = () =>
  page.evaluate(() => {
    const e = document.activeElement;
    const box = e.getBoundingClientRect();
    return {
      text: (e.innerText ?? '').trim(),
      inMain: e.closest('main') !== null,
      inNav: e.closest('nav') !== null,
      visible: box.width > 0 && box.height > 0 && box.left >= 0 && box.right <= innerWidth,
    };
  });

describe('the console from the keyboard', () => {
  for (const path of ['/console/keys', '/console/alerts', '/console/webhooks']) {
    it(`${path}: the first Tab offers to skip the navigation, and skipping lands in the page`, async () => {
      await page.goto(`${base}${path}`);
      await page.keyboard.press('Tab');
      expect(await focused()).toMatchObject({ text: 'Skip to the content', visible: true });
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await focused()).toMatchObject({ inMain: true, inNav: false });
    });
  }
});

describe('the usage chart on a phone', () => {
  it('keeps every figure of its axis inside the picture, up to days of tens of thousands of requests', async () => {
    for (const most of [1, 480, 12_345, 87_654]) {
      const days = [1, 2, 3].map((d) => ({
        day: `2026-12-0${d}`,
        counts: { ...noCounts(), rest: d === 2 ? most : 1 },
      }));
      await page.setContent(
        `<link rel="stylesheet" href="${base}/console/assets/console.css"><main>${usageChart(days).text}</main>`,
      );
      const cut = await page.$eval('svg.chart', (svg: any) => {
        const left = svg.getBoundingClientRect().left;
        return [...svg.querySelectorAll('text')]
          .filter((t: any) => t.getBoundingClientRect().left < left - 0.5)
          .map((t: any) => t.textContent);
      });
      expect(cut, String(most)).toEqual([]);
    }
  });
});

describe('a column of buttons on a phone', () => {
  it('is named Actions for a screen reader, and prints no label beside each button', async () => {
    await page.goto(`${base}/console/keys`);
    await page.fill('#label', 'phone export');
    await page.click('main button:has-text("Create key")');
    await page.goto(`${base}/console/keys`);
    const row = page.locator('table.stacked tbody tr', { hasText: 'phone export' });
    const heading = page.locator('table.stacked thead th').last();
    await expect(heading.textContent()).resolves.toBe('Actions');
    const cell = row.locator('td').last();
    await expect(cell.innerText()).resolves.toBe('Revoke…');
    await expect(cell.evaluate((td) => getComputedStyle(td, '::before').content)).resolves.toBe('none');
    // The other cells keep their headings beside them.
    await expect(row.locator('td').nth(2).getAttribute('data-label')).resolves.toBe('Scopes');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: resolve(SHOTS, '390-keys-actions.png'), fullPage: true });
  });

  it('leaves a revoked key’s status in the Status column, labelled, and nothing in the column of buttons', async () => {
    await page.goto(`${base}/console/keys`);
    await page.locator('tr', { hasText: 'phone export' }).locator('text=Revoke…').click();
    await page.click('text=Revoke this key');
    await expect(page.locator('.notice').innerText()).resolves.toContain('Revoked the key');
    const row = page.locator('table.stacked tbody tr', { hasText: 'phone export' });
    const status = row.locator('td', { hasText: 'revoked' });
    await expect(status.getAttribute('data-label')).resolves.toBe('Status');
    await expect(status.evaluate((td) => getComputedStyle(td, '::before').content)).resolves.toBe('"Status"');
    await expect(row.locator('td').last().innerText()).resolves.toBe('');
    await page.screenshot({ path: resolve(SHOTS, '390-keys-revoked.png'), fullPage: true });
  });
});

describe('the demo’s company agents', () => {
  it('are marked demo on a phone and on a desktop, on the list and on their own page', async () => {
    const now = new Date(t.clock.now);
    const demo = await ensureDemoAccount(t.store, now);
    await ensureDemoAgents(t.store, now, demo.id);
    const owner = await consoleUser(t, { accountId: demo.id, email: 'owner@demo-phone.example', role: 'owner' });
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const seen = await context.newPage();
      await signInInBrowser(seen, base, owner);
      for (const [path, name] of [
        ['/console/agents', 'agents'],
        [`/console/agents/${DEMO_DEPLOYMENTS[0].slug}`, 'agent'],
        ['/console/marketplace', 'marketplace'],
      ]) {
        await seen.goto(`${base}${path}`);
        await expect(seen.locator('.pill.demo').first().isVisible()).resolves.toBe(true);
        await expect(seen.locator('[role=note]', { hasText: 'invented' }).isVisible()).resolves.toBe(true);
        await seen.screenshot({ path: resolve(SHOTS, `${width}-demo-${name}.png`), fullPage: true });
      }
      await context.close();
    }
  });
});
