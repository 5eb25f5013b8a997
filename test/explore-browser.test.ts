/**
 * The explorer in a real browser (Debian's Chromium through playwright-core, like test/docs-page.test.ts): what a
 * signed-in user sees and does at desktop and phone sizes, checked against the API's own answers. Screenshots of
 * every view at 1280 and 390 px go to screenshots/explorer/ (gitignored; docs/explorer.md describes them).
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** The browser globals the evaluated callbacks use (they run in the page; this program has no DOM types). */
declare const document: any;
declare const window: any;

const SHOTS = join(import.meta.dirname, '..', 'screenshots', 'explorer');

let t: TestApp;
let base: string;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  browser = await launchChromium();
  // A member of the premium account, signed in through the console's sign-in page in each browser.
  const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'analyst@premium.example', role: 'member' });
  desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const context of [desktop, phone]) await signIn(context, user.email, user.password);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Signs in as a person would: the explorer sends a visitor to the sign-in page, which sends them back. */
async function signIn(context: BrowserContext, email: string, password: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${base}/explore`);
  expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${base}/explore`);
  await page.close();
}

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`${path}: ${message.text()}`);
  });
  const response = await page.goto(`${base}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

/** The API's own answer to a /v1 request, with the premium key. */
async function api(v1: string): Promise<any> {
  const res = await t.get(v1);
  expect(res.status, v1).toBe(200);
  return res.json;
}

async function snapshotRows(key: string, date?: string): Promise<any[]> {
  const answer = await api(`/v1/indicators/${key}/snapshot?limit=308${date ? `&date=${date}` : ''}`);
  expect(answer.items).toHaveLength(308);
  return answer.items;
}

/** Fills of the map's shapes by municipality code, and the legend's class colours in order. */
async function mapFills(page: Page): Promise<{ fills: Record<string, string>; stale: string[]; legend: string[] }> {
  return page.evaluate(() => {
    const fills: Record<string, string> = {};
    for (const path of document.querySelectorAll('svg.map path.m')) fills[path.getAttribute('data-code')] = path.getAttribute('fill');
    const stale = [...document.querySelectorAll('svg.map path.stale')].map((p: any) => p.previousSibling.getAttribute('data-code'));
    const legend = [...document.querySelectorAll('ul.legend [data-color]')].map((s: any) => s.getAttribute('data-color'));
    return { fills, stale, legend };
  });
}

describe('the indicator map', () => {
  for (const [key, date] of [['unemployment_rate'], ['population'], ['median_rent_m2'], ['birth_rate', '2015-12-31']]) {
    it(`draws the 308 municipalities in the colours of the snapshot's values (${key}${date ? ` as of ${date}` : ''})`, async () => {
      const page = await open(desktop, `/explore?indicator=${key}${date ? `&date=${date}` : ''}`);
      await page.locator(`.stage[data-indicator="${key}"] svg.map`).waitFor();
      const rows = await snapshotRows(key, date);
      if (date) await expect(page.locator('#period').inputValue()).resolves.toBe(date);
      const { fills, stale, legend } = await mapFills(page);
      expect(Object.keys(fills).sort()).toEqual(rows.map((r) => r.municipality).sort());
      expect(legend.length).toBe(6);

      // Missing values are hatched, never a class colour; every other shape has a legend colour, and a higher
      // value never gets a lower class than a smaller one.
      const classOf = (code: string) => legend.indexOf(fills[code]);
      const withValue = rows.filter((r) => r.value !== null && r.value !== undefined);
      for (const r of rows) {
        if (r.value === null || r.value === undefined) expect(fills[r.municipality]).toBe('url(#hatch-missing)');
        else expect(classOf(r.municipality), r.municipality).toBeGreaterThanOrEqual(0);
      }
      const sample = withValue.filter((_, i) => i % 7 === 0);
      const direction = legendDirection(withValue, classOf);
      for (const a of sample) {
        for (const b of sample) {
          if (a.value < b.value)
            expect(
              direction * (classOf(b.municipality) - classOf(a.municipality)),
              `${a.municipality} < ${b.municipality}`,
            ).toBeGreaterThanOrEqual(0);
        }
      }
      expect(stale.sort()).toEqual(
        rows
          .filter((r) => r.is_stale && r.value !== null)
          .map((r) => r.municipality)
          .sort(),
      );

      // The counts in the legend add up to the municipalities with a value.
      const counts = await page.$$eval('ul.legend .count', (spans) => spans.map((s) => Number(s.textContent.replace(/\D/g, ''))));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(withValue.length);
      expect(await page.evaluate(() => window.exploreTimings.mapRenderMs)).toBeLessThan(300);
      await page.close();
    });
  }

  it('shows name, value, rank and percentile on hover, and opens the municipality on click', { timeout: 20_000 }, async () => {
    const page = await open(desktop, '/explore?indicator=unemployment_rate');
    const lisboa = page.locator('svg.map path.m[data-code="1106"]');
    await lisboa.waitFor();
    const rows = await snapshotRows('unemployment_rate');
    const row = rows.find((r) => r.municipality === '1106');
    const higher = rows.filter((r) => r.value !== null && r.value > row.value).length;
    await lisboa.hover({ timeout: 5000 });
    const tip = page.locator('.tip');
    await expect(tip.isVisible()).resolves.toBe(true);
    const text = await tip.innerText();
    expect(text).toContain('Lisboa');
    expect(text).toContain(`${String(row.value).replace('.', ',')} %`);
    expect(text).toContain(`rank ${higher + 1} of`);
    expect(text).toContain(`percentile ${String(Math.round(row.percentile * 10) / 10).replace('.', ',')}`);
    await page.screenshot({ path: join(SHOTS, 'map-hover-1280.png') });
    await lisboa.click({ timeout: 5000 });
    await page.waitForURL(`${base}/explore/municipalities/1106`);
    await page.close();
  });

  it('is usable from the keyboard: the map takes focus, arrows move, Enter opens', async () => {
    const page = await open(desktop, '/explore?indicator=population');
    const map = page.locator('svg.map');
    await map.waitFor();
    await map.focus();
    await expect(page.locator('.tip').innerText()).resolves.toContain('Lisboa');
    await page.keyboard.press('ArrowUp');
    const moved = await page.locator('.tip strong').innerText();
    expect(moved).not.toBe('Lisboa');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/explore\/municipalities\/\d{4}$/);
    expect(await page.locator('h1').innerText()).toBe(moved);
    await page.close();
  });

  it("keeps its state in the URL and its data link returns the map's numbers", async () => {
    const page = await open(desktop, '/explore');
    await page.locator('.stage[data-indicator] svg.map').waitFor();
    await page.locator('#indicator-search').fill('renda');
    await page.locator('.stage[data-indicator="median_rent_m2"]').waitFor();
    expect(new URL(page.url()).searchParams.get('indicator')).toBe('median_rent_m2');
    await page.locator('input[name=scale][value=equal]').check();
    await page.waitForURL(/scale=equal/);
    await page.locator('.stage[data-indicator="median_rent_m2"][data-scale="equal"]').waitFor();
    await expect(page.locator('.legend-note').innerText()).resolves.toContain('equal intervals');

    await page.locator('details.data summary').click();
    const urls = await page.$$eval('details.data code.api-url', (codes) => codes.map((c) => c.textContent.replace(/^GET /, '')));
    expect(urls[0]).toBe(`${base}/v1/indicators/median_rent_m2/snapshot?limit=308`);
    const jsonHref = await page.locator('details.data a.json').first().getAttribute('href');
    const csvHref = await page.locator('details.data a.csv').first().getAttribute('href');
    const viaLink = await page.request.get(`${base}${jsonHref}`);
    const viaApi = await t.get(urls[0].slice(base.length));
    expect(await viaLink.text()).toBe(viaApi.body);
    const csv = await page.request.get(`${base}${csvHref}`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect((await csv.text()).split('\r\n')[0]).toContain('municipality');
    await page.close();
  });

  it('at 390 px: no sideways scroll, the map and legend stacked', async () => {
    const page = await open(phone, '/explore?indicator=unemployment_rate');
    await page.locator('svg.map').waitFor();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await page.screenshot({ path: join(SHOTS, 'map-390.png'), fullPage: true });
    await page.close();
    const wide = await open(desktop, '/explore?indicator=unemployment_rate');
    await wide.locator('svg.map').waitFor();
    await wide.screenshot({ path: join(SHOTS, 'map-1280.png'), fullPage: true });
    await wide.close();
  });
});

describe('a municipality page', () => {
  it("shows the series of the indicator in its URL, with the district's and the national medians of the API", async () => {
    const page = await open(desktop, '/explore/municipalities/porto?indicator=unemployment_rate');
    await page.locator('#series[data-indicator="unemployment_rate"] svg path.series.own').waitFor();
    await page.locator('#main[data-ready], #view[data-ready]').first().waitFor();
    const series = await api('/v1/indicators/unemployment_rate/series?municipality=1312&limit=200');
    const medians = await api('/v1/indicators/unemployment_rate/medians?district=Porto');
    const cells = await page.$$eval('#series-chart tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    expect(cells.map((c) => c[0])).toEqual(series.items.map((p: any) => p.reference_date));
    const pt = (v: number) => `${new Intl.NumberFormat('pt-PT', { maximumFractionDigits: 2 }).format(v)} %`;
    for (const [i, point] of series.items.entries()) {
      expect(cells[i][1]).toBe(pt(point.value));
      const m = medians.find((x: any) => x.reference_date === point.reference_date);
      expect(cells[i][2]).toBe(pt(m.district_median));
      expect(cells[i][3]).toBe(pt(m.national_median));
    }
    // Three lines: the municipality's and the two medians, each with its own dash so that colour is not needed.
    expect(await page.locator('#series-chart path.series').count()).toBe(3);
    const dashes = await page.$$eval('#series-chart path.series', (paths) => paths.map((p) => p.getAttribute('stroke-dasharray')));
    expect(dashes[0]).toBeNull();
    expect(dashes.slice(1).every((d) => d !== null)).toBe(true);

    await page.locator('#series-indicator').selectOption('ageing_index');
    await page.locator('#series[data-indicator="ageing_index"]').waitFor();
    expect(new URL(page.url()).searchParams.get('indicator')).toBe('ageing_index');
    await page.screenshot({ path: join(SHOTS, 'municipality-1280.png'), fullPage: true });
    await page.close();
  });

  it('shows procurement, signals and neighbours from the API, and the data links answer the same', async () => {
    const page = await open(desktop, '/explore/municipalities/1312');
    await page.locator('#view[data-ready]').waitFor();
    const contracts = await api('/v1/procurement/contracts?municipality=1312&limit=10');
    const objects = await page.$$eval('#latest-contracts tbody tr', (rows) => rows.map((r) => r.children[1].textContent));
    expect(objects).toEqual(contracts.items.map((c: any) => c.object));
    const suppliers = await api('/v1/procurement/aggregate?executed_in=1312&group_by=supplier');
    const top = suppliers.groups.slice().sort((a: any, b: any) => b.total_eur - a.total_eur)[0];
    expect(await page.locator('#procurement-suppliers tbody tr').first().locator('td').first().textContent()).toBe(top.key.supplier);
    const neighbours = await page.$$eval('#neighbours tbody a', (links) => links.map((a) => a.textContent));
    expect(neighbours.sort()).toEqual(['Gondomar', 'Maia', 'Matosinhos', 'Vila Nova de Gaia']);
    const signals = await api('/v1/signals?municipality=1312&limit=200');
    expect(await timelineTotal(page)).toBe(signals.items.length);
    await expect(page.locator('.synthetic').count()).resolves.toBeGreaterThan(3);

    expect(await expectDataLinksMatchApi(page)).toBeGreaterThan(10);
    await page.close();
    const small = await open(phone, '/explore/municipalities/1312');
    await small.locator('#view[data-ready]').waitFor();
    const widths = await small.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await small.screenshot({ path: join(SHOTS, 'municipality-390.png'), fullPage: true });
    await small.close();
  });
});

/** The signals the timeline counts: the sum of its monthly bars (each titled `YYYY-MM: n`). */
async function timelineTotal(page: Page): Promise<number> {
  const titles = await page.$$eval('#signals-timeline svg rect title', (ts) => ts.map((t) => t.textContent));
  return titles.reduce((sum, title) => sum + Number(title.split(': ')[1]), 0);
}

/** Every "data" link of a page opens the same answer as its /v1 request with the API key. */
async function expectDataLinksMatchApi(page: Page): Promise<number> {
  const links = await page.locator('details.data a.json').all();
  for (const link of links) {
    const href = (await link.getAttribute('href')) as string;
    const viaLink = await page.request.get(`${base}${href}`);
    expect(viaLink.status(), href).toBe(200);
    expect(await viaLink.text(), href).toBe((await t.get(href.slice('/explore/api'.length))).body);
  }
  return links.length;
}

describe('the procurement view', () => {
  it("draws the aggregate's figures for a district, with a direct-award map, and its data links answer the same", async () => {
    const page = await open(desktop, '/explore/procurement?district=Porto');
    await page.locator('.stage[data-ready="Porto"]').waitFor();
    const porto = (await api('/v1/municipalities?district=Porto&limit=200')).items.map((m: any) => m.code);
    const query = porto.map((c: string) => `executed_in=${c}`).join('&');
    const totals = (await api(`/v1/procurement/aggregate?${query}&group_by=year`)).totals;
    const summary = await page.locator('.stage .summary').innerText();
    expect(summary).toContain(`${new Intl.NumberFormat('pt-PT').format(totals.count)} contracts`);
    expect(await page.locator('#direct-award-map svg.map path.m').count()).toBe(308);
    // Only Porto's municipalities have contracts in this selection: every other one is "no contracts".
    const filled = await page.$$eval('#direct-award-map path.m', (paths) =>
      paths.filter((p) => p.getAttribute('fill') !== 'url(#hatch-missing)').map((p) => p.getAttribute('data-code')),
    );
    expect(filled.every((c) => porto.includes(c))).toBe(true);
    expect(await expectDataLinksMatchApi(page)).toBe(4);
    await page.screenshot({ path: join(SHOTS, 'procurement-1280.png'), fullPage: true });
    await page.close();
    const small = await open(phone, '/explore/procurement');
    await small.locator('.stage[data-ready="all"]').waitFor();
    const widths = await small.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await small.screenshot({ path: join(SHOTS, 'procurement-390.png'), fullPage: true });
    await small.close();
  });
});

describe('the signals view', () => {
  it('maps and lists the signals /v1/signals answers for its filters', async () => {
    const page = await open(desktop, '/explore/signals?family=procurement');
    await page.locator('.stage[data-ready]').waitFor();
    const first = await api('/v1/signals?family=procurement&limit=200');
    const titles = await page.$$eval('#signals-timeline tbody tr', (rows) => rows.map((r) => r.children[3].textContent));
    expect(titles.slice(0, 200)).toEqual(first.items.map((s: any) => s.title_en ?? s.title_pt));
    expect(await page.locator('#signals-map svg.map path.m').count()).toBe(308);
    const shown = Number((await page.locator('.stage .summary').innerText()).replace(/\D.*$/, ''));
    expect(await timelineTotal(page)).toBe(shown);
    expect(await expectDataLinksMatchApi(page)).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'signals-1280.png'), fullPage: true });
    await page.close();
    const small = await open(phone, '/explore/signals?family=procurement');
    await small.locator('.stage[data-ready]').waitFor();
    const widths = await small.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await small.screenshot({ path: join(SHOTS, 'signals-390.png'), fullPage: true });
    await small.close();
  });
});

describe('the whole explorer', () => {
  it('raised no script error on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** +1 when the legend runs from low to high values (sequential, or diverging where higher is better), −1 otherwise. */
function legendDirection(rows: any[], classOf: (code: string) => number): number {
  const sorted = rows.slice().sort((a, b) => a.value - b.value);
  return classOf(sorted[0].municipality) <= classOf(sorted[sorted.length - 1].municipality) ? 1 : -1;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
