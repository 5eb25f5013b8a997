/**
 * The explorer in a real browser (Debian's Chromium through playwright-core, like test/docs-page.test.ts): what a
 * signed-in user sees and does at desktop and phone sizes, checked against the API's own answers. Screenshots of
 * every view at 1280 and 390 px go to screenshots/explorer/ (gitignored; docs/explorer.md describes them).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importSignals } from '../src/detect/import-signals.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { type ExplorerContexts, explorerContexts, openExplorePage, signedInGet } from './helpers/explore-page.js';
import { freePort } from './helpers/free-port.js';
import { countBy, signalsByEvent } from './helpers/signals-by-event.js';
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
  const user = await consoleUser(t, {
    accountId: t.accounts.premium,
    email: 'analyst@premium.example',
    role: 'member',
  });
  ({ desktop, phone } = await explorerContexts(browser, base, user));
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

// The app's clock stands still unless moved: without this, every page of the file would be counted in one minute
// of the premium plan's rate limit, and the file's later pages refused (429) as it grows.
beforeEach(() => t.clock.advance(60_000));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await openExplorePage(context, `${base}${path}`, path, pageErrors);
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
    for (const path of document.querySelectorAll('svg.map path.m'))
      fills[path.getAttribute('data-code')] = path.getAttribute('fill');
    const stale = [...document.querySelectorAll('svg.map path.stale')].map((p: any) =>
      p.previousSibling.getAttribute('data-code'),
    );
    const legend = [...document.querySelectorAll('ul.legend [data-color]')].map((s: any) =>
      s.getAttribute('data-color'),
    );
    return { fills, stale, legend };
  });
}

describe('the indicator map', () => {
  for (const [key, date] of [['unemployment_rate'], ['population'], ['median_rent_m2'], ['birth_rate', '2015-12-31']]) {
    const municipalityColours =
      "draws the 308 municipalities in the colours of the snapshot's values " +
      `(${key}${date ? ` as of ${date}` : ''})`;
    it(municipalityColours, async () => {
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
      const counts = await page.$$eval('ul.legend .count', (spans) =>
        spans.map((s) => Number(s.textContent.replace(/\D/g, ''))),
      );
      expect(counts.reduce((a, b) => a + b, 0)).toBe(withValue.length);
      await page.close();
    });
  }

  it('shows name, value, rank and percentile on hover, and opens the municipality on click', {
    timeout: 20_000,
  }, async () => {
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
    const urls = await page.$$eval('details.data code.api-url', (codes) =>
      codes.map((c) => c.textContent.replace(/^GET /, '')),
    );
    expect(urls[0]).toBe(`${base}/v1/indicators/median_rent_m2/snapshot?limit=308`);
    const jsonHref = await page.locator('details.data a.json').first().getAttribute('href');
    const csvHref = await page.locator('details.data a.csv').first().getAttribute('href');
    const viaLink = await signedInGet(page.context(), `${base}${jsonHref}`);
    const viaApi = await t.get(urls[0].slice(base.length));
    expect(await viaLink.text()).toBe(viaApi.body);
    const csv = await signedInGet(page.context(), `${base}${csvHref}`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect((await csv.text()).split('\r\n')[0]).toContain('municipality');
    await page.close();
  });

  it("judges a past date's values stale against that date, not against today's latest", async () => {
    const date = '2014-12-31';
    const rows = await snapshotRows('population', date);
    const asOf = rows.map((r) => r.reference_date).reduce((a, b) => (b !== null && b > a ? b : a), '');
    const latest = (await api('/v1/indicators/population/stats')).as_of;
    expect(asOf <= date && asOf < latest).toBe(true);
    const stale = rows.filter((r) => r.is_stale && r.value !== null);
    expect(stale.length).toBeGreaterThan(0);
    const page = await open(desktop, `/explore?indicator=population&date=${date}`);
    await page.locator('.stage[data-indicator="population"] svg.map').waitFor();
    const notes = await page.locator('#indicator-map .notes').innerText();
    expect(notes).toContain(`${stale.length} municipalities' latest value is older than ${asOf}`);
    expect(await page.locator('ul.legend').innerText()).toContain(`older than ${asOf}`);
    expect(`${notes} ${await page.locator('ul.legend').innerText()}`).not.toContain(latest);
    await page.locator(`svg.map path.m[data-code="${stale[0].municipality}"]`).hover({ timeout: 5000 });
    expect(await page.locator('.tip').innerText()).toContain(`stale: older than ${asOf} (${stale[0].reference_date})`);
    await page.close();
  });

  it('at 390 px: no sideways scroll, the map and legend stacked', async () => {
    const page = await open(phone, '/explore?indicator=unemployment_rate');
    await page.locator('svg.map').waitFor();
    const widths = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await page.screenshot({ path: join(SHOTS, 'map-390.png'), fullPage: true });
    await page.close();
    const wide = await open(desktop, '/explore?indicator=unemployment_rate');
    await wide.locator('svg.map').waitFor();
    await wide.screenshot({ path: join(SHOTS, 'map-1280.png'), fullPage: true });
    await wide.close();
  });
});

/**
 * Each year's label and note as a contracts chart should show them: a year the contracts held (of `synthetic` data)
 * cover only in part, by their coverage in /v1/sources, names its months and has a note giving the dates.
 */
async function yearsAsCovered(years: string[], synthetic: boolean) {
  const held = (await api('/v1/sources')).items.filter(
    (i: any) => i.kind === 'procurement' && i.records.contracts > 0 && i.synthetic === synthetic,
  );
  const from = held.map((i: any) => i.coverage.from).sort()[0];
  const to = held
    .map((i: any) => i.coverage.to)
    .sort()
    .at(-1);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const month = (d: string) => months[Number(d.slice(5, 7)) - 1];
  return years.map((year) => {
    const first = from > `${year}-01-01` ? from : `${year}-01-01`;
    const last = to < `${year}-12-31` ? to : `${year}-12-31`;
    if (first === `${year}-01-01` && last === `${year}-12-31`) return { label: year, note: null };
    const span = month(first) === month(last) ? month(first) : `${month(first)}–${month(last)}`;
    const kind = synthetic ? 'generated' : 'real';
    const note =
      `${year} is only part of a year: the ${kind} contracts held were published ${first} to ${last} ` +
      '(their coverage in GET /v1/sources).';
    return { label: `${year} (${span})`, note };
  });
}

describe('a municipality page', () => {
  /** The series chart's dots by period (their titles, `2014: …`) and its axis ticks by label, as x positions. */
  async function seriesPositions(page: Page): Promise<{ dots: Record<string, number>; ticks: Record<string, number> }> {
    return page.evaluate(() => {
      const dots: Record<string, number> = {};
      for (const c of document.querySelectorAll('#series-chart circle')) {
        dots[c.querySelector('title').textContent.split(':')[0]] = Number(c.getAttribute('cx'));
      }
      const ticks: Record<string, number> = {};
      for (const t of document.querySelectorAll('#series-chart .axis .tick')) {
        const x = /translate\(([\d.]+),0\)/.exec(t.getAttribute('transform'))?.[1];
        if (x !== undefined) ticks[t.textContent] = Number(x);
      }
      return { dots, ticks };
    });
  }

  it('draws each value of a series on its own period, a missing period as a gap at its own tick', async () => {
    // Porto's population has no value for 2014 and 2024 in the demo data: the gaps must sit there.
    const series = (await api('/v1/indicators/population/series?municipality=1312&limit=200')).items;
    const missing = series.filter((p: any) => p.value === null).map((p: any) => p.reference_date.slice(0, 4));
    expect(missing.length).toBeGreaterThan(0);
    const page = await open(desktop, '/explore/municipalities/1312?indicator=population');
    await page.locator('#series[data-indicator="population"] svg path.series.own').waitFor();
    const { dots, ticks } = await seriesPositions(page);
    const years = series.filter((p: any) => p.value !== null).map((p: any) => p.reference_date.slice(0, 4));
    expect(
      Object.keys(dots)
        .filter((k) => years.includes(k))
        .sort(),
    ).toEqual(years.sort());
    for (const year of years) if (year in ticks) expect(Math.abs(dots[year] - ticks[year]), year).toBeLessThan(1);
    for (const year of missing) {
      expect(dots[year]).toBeUndefined();
      const before = dots[String(Number(year) - 1)];
      const after = dots[String(Number(year) + 1)];
      expect(ticks[year], year).toBeGreaterThan(before);
      if (after !== undefined) expect(ticks[year], year).toBeLessThan(after);
    }
    // A monthly series: January's value sits on its year's tick, every value on its own month.
    await page.locator('#series-indicator').selectOption('registered_unemployed');
    await page.locator('#series[data-indicator="registered_unemployed"] svg path.series.own').waitFor();
    const monthly = await seriesPositions(page);
    const januaries = Object.keys(monthly.ticks).filter(
      (label) => /^\d{4}$/.test(label) && `${label}-01` in monthly.dots,
    );
    expect(januaries.length).toBeGreaterThan(3);
    for (const year of januaries)
      expect(Math.abs(monthly.dots[`${year}-01`] - monthly.ticks[year]), year).toBeLessThan(1);
    await page.close();
  });

  const seriesInUrl =
    "shows the series of the indicator in its URL, with the district's and the national medians of the API";
  it(seriesInUrl, async () => {
    const page = await open(desktop, '/explore/municipalities/porto?indicator=unemployment_rate');
    await page.locator('#series[data-indicator="unemployment_rate"] svg path.series.own').waitFor();
    await page.locator('#main[data-ready], #view[data-ready]').first().waitFor();
    const series = await api('/v1/indicators/unemployment_rate/series?municipality=1312&limit=200');
    const medians = await api('/v1/indicators/unemployment_rate/medians?district=Porto');
    const cells = await page.$$eval('#series-chart tbody tr', (rows) =>
      rows.map((r) => [...r.children].map((c) => c.textContent)),
    );
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
    const dashes = await page.$$eval('#series-chart path.series', (paths) =>
      paths.map((p) => p.getAttribute('stroke-dasharray')),
    );
    expect(dashes[0]).toBeNull();
    expect(dashes.slice(1).every((d) => d !== null)).toBe(true);

    await page.locator('#series-indicator').selectOption('ageing_index');
    await page.locator('#series[data-indicator="ageing_index"]').waitFor();
    expect(new URL(page.url()).searchParams.get('indicator')).toBe('ageing_index');
    await page.screenshot({ path: join(SHOTS, 'municipality-1280.png'), fullPage: true });
    await page.close();
  });

  it('says which year of the contracts chart the data covers only in part, from /v1/sources', async () => {
    const page = await open(desktop, '/explore/municipalities/1312');
    await page.locator('#view[data-ready]').waitFor();
    const byYear = await api('/v1/procurement/aggregate?executed_in=1312&group_by=year&group_by=procedure_type');
    const synthetic = byYear.groups.some((g: any) => g.synthetic === true) || byYear.synthetic === true;
    const years = [...new Set(byYear.groups.map((g: any) => String(g.key.year)))].sort() as string[];
    const expected = await yearsAsCovered(years, synthetic);
    // Some year is partial (the data's last year at least), so that the check can fail.
    expect(expected.some((e) => e.note)).toBe(true);
    const labels = await page.$$eval('#procurement-years tbody tr', (rows) =>
      rows.map((r) => r.children[0].textContent),
    );
    expect(labels).toEqual(expected.map((e) => e.label));
    const notes = await page.locator('#procurement-years .notes li').allInnerTexts();
    expect(notes).toEqual(expected.flatMap((e) => (e.note ? [e.note] : [])));
    await page.close();
  });

  it('shows its key figures under one heading when all are of one kind (here every series generated)', async () => {
    const page = await open(desktop, '/explore/municipalities/1312');
    await page.locator('#view[data-ready]').waitFor();
    const keys = await page.$$eval('#figures .figure-card', (cards) =>
      cards.map((c) => c.getAttribute('data-indicator')),
    );
    expect(keys.length).toBeGreaterThanOrEqual(6);
    for (const key of keys) expect((await api(`/v1/indicators/${key}`)).synthetic, key).toBe(true);
    const groups = await page.$$eval('#figures .figure-group', (all) =>
      all.map((g) => [g.getAttribute('data-kind'), g.querySelector('h3').textContent, g.querySelectorAll('a').length]),
    );
    expect(groups).toEqual([
      ['generated', 'Demo data, generated for this example: not published figures', keys.length],
    ]);
    await page.close();
  });

  it('shows procurement, signals and neighbours from the API, and the data links answer the same', async () => {
    const page = await open(desktop, '/explore/municipalities/1312');
    await page.locator('#view[data-ready]').waitFor();
    const contracts = await api('/v1/procurement/contracts?municipality=1312&limit=10');
    const objects = await page.$$eval('#latest-contracts tbody tr', (rows) =>
      rows.map((r) => r.children[1].textContent),
    );
    expect(objects).toEqual(contracts.items.map((c: any) => c.object));
    const suppliers = await api('/v1/procurement/aggregate?executed_in=1312&group_by=supplier');
    const top = suppliers.groups.slice().sort((a: any, b: any) => b.total_eur - a.total_eur)[0];
    expect(await page.locator('#procurement-suppliers tbody tr').first().locator('td').first().textContent()).toBe(
      top.key.supplier,
    );
    // Suppliers and contracts open their own pages, which show the API's record.
    expect(
      await page.locator('#procurement-suppliers tbody tr').first().locator('a').first().getAttribute('href'),
    ).toBe(`/explore/entities/${top.key.supplier}`);
    const contractLink = page.locator('#latest-contracts tbody tr').first().locator('a').first();
    expect(await contractLink.getAttribute('href')).toBe(`/explore/contracts/${contracts.items[0].id}`);
    const supplierLink = page
      .locator('#latest-contracts tbody tr')
      .first()
      .locator(`a[href="/explore/entities/${contracts.items[0].suppliers[0].nif}"]`);
    expect(await supplierLink.textContent()).toBe(contracts.items[0].suppliers[0].name);
    const neighbours = await page.$$eval('#neighbours tbody a', (links) => links.map((a) => a.textContent));
    expect(neighbours.sort()).toEqual(['Gondomar', 'Maia', 'Matosinhos', 'Vila Nova de Gaia']);
    const signals = await api('/v1/signals?municipality=1312&limit=200');
    expect(await timelineTotal(page)).toBe(signals.items.length);
    // One lane per family, named by the family's label (`Public procurement · 12`), not by its key.
    const familyLabels = (await api('/v1/signal-families')).map((f: any) => f.label_en);
    const laneNames = await page.$$eval('#signals-timeline text.lane-label', (ts) =>
      ts.map((t: any) => t.textContent.replace(/ · \d+$/, '')),
    );
    expect(laneNames.length).toBeGreaterThan(1);
    for (const name of laneNames) expect(familyLabels).toContain(name);
    await expect(page.locator('.synthetic').count()).resolves.toBeGreaterThan(3);

    expect(await expectDataLinksMatchApi(page)).toBeGreaterThan(10);
    await page.close();
    const small = await open(phone, '/explore/municipalities/1312');
    await small.locator('#view[data-ready]').waitFor();
    const widths = await small.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
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

/**
 * Every "data" link of a page opens the same answer as its /v1 request with the API key; the explorer's own request
 * (the latest signals) the signals its /v1/signals request names, by event date.
 */
async function expectDataLinksMatchApi(page: Page): Promise<number> {
  const links = await page.locator('details.data a.json').all();
  for (const link of links) {
    const href = (await link.getAttribute('href')) as string;
    const viaLink = await signedInGet(page.context(), `${base}${href}`);
    expect(viaLink.status(), href).toBe(200);
    const url = new URL(href, base);
    if (url.pathname === '/explore/api/signals/latest') {
      const limit = Number(url.searchParams.get('limit'));
      url.searchParams.delete('limit');
      const all = await signalsByEvent(t, url.searchParams.toString());
      expect((await viaLink.json()).items, href).toEqual(all.slice(0, limit));
    } else expect(await viaLink.text(), href).toBe((await t.get(href.slice('/explore/api'.length))).body);
  }
  return links.length;
}

describe('the procurement view', () => {
  const districtAggregate =
    "draws the aggregate's figures for a district, with a direct-award map, and its data links answer the same";
  it(districtAggregate, async () => {
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
    const widths = await small.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    // Every figure of a value axis is inside its picture: none cut at the left edge (`1,5 mil M€`, `,5 mil M€`).
    const cut = await small.$$eval('.chart svg', (svgs) =>
      svgs.flatMap((svg) => {
        const left = svg.getBoundingClientRect().left;
        return [...svg.querySelectorAll('.axis text')]
          .filter((t) => t.getBoundingClientRect().left < left - 0.5)
          .map((t) => t.textContent);
      }),
    );
    expect(cut).toEqual([]);
    // The same for sums of billions, which the real contracts reach over all of Portugal and the demo's do not.
    // (A string: the test runner would rewrite an import() in a function.)
    const billions: { widest: number; outside: string[] } = await small.evaluate(`(async () => {
      const { stackedBars } = await import('/explore/draw/charts.js');
      const { formatEuros } = await import('/explore/draw/dom.js');
      const rows = [{ x: '2024', parts: { a: 1.59e9 } }];
      const chart = stackedBars({ rows, names: ['a'], label: 'test', format: formatEuros, width: 340 });
      document.querySelector('.stage').append(chart);
      const svg = chart.querySelector('svg');
      const left = svg.getBoundingClientRect().left;
      const texts = [...svg.querySelectorAll('.axis text')];
      const widest = Math.max(...texts.map((t) => t.textContent.length));
      const outside = texts.filter((t) => t.getBoundingClientRect().left < left - 0.5).map((t) => t.textContent);
      chart.remove();
      return { widest, outside };
    })()`);
    expect(billions.widest).toBeGreaterThanOrEqual('1,5 mil M€'.length);
    expect(billions.outside).toEqual([]);
    // Every label of ranked bars ends inside its picture on a phone, a long one of wide letters cut with its
    // ellipsis showing (CPV division 33's name was cut by the edge, ellipsis and all).
    const bars: { labels: string[]; outside: string[] } = await small.evaluate(`(async () => {
      const { horizontalBars } = await import('/explore/draw/charts.js');
      const { formatEuros } = await import('/explore/draw/dom.js');
      const rows = [
        { label: '33 Equipamento médico, medicamentos e produtos para cuidados pessoais', value: 3.4e8 },
        { label: 'MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww MMMM WWWW mmmm wwww', value: 2e8 },
        { label: '45 Construção', value: 1e8 },
      ];
      const chart = horizontalBars({ rows, label: 'test', format: formatEuros, width: 340 });
      document.querySelector('.stage').append(chart);
      const svg = chart.querySelector('svg') ?? chart;
      const right = svg.getBoundingClientRect().right;
      const texts = [...svg.querySelectorAll('text.bar-label')];
      const outside = texts.filter((t) => t.getBoundingClientRect().right > right + 0.5).map((t) => t.textContent);
      chart.remove();
      return { labels: texts.map((t) => t.textContent), outside };
    })()`);
    expect(bars.outside).toEqual([]);
    expect(bars.labels[0]).toMatch(/^33 Equipamento médico, .+…$/);
    expect(bars.labels[1]).toMatch(/…$/);
    expect(bars.labels[2]).toBe('45 Construção');
    await small.screenshot({ path: join(SHOTS, 'procurement-390.png'), fullPage: true });
    await small.close();
  });
});

describe('the procurement view, everywhere', () => {
  it('links each municipality of the direct-award table to its page, and a row without one to nothing', async () => {
    const groups = (await api('/v1/procurement/aggregate?group_by=municipality')).groups;
    const page = await open(desktop, '/explore/procurement');
    await page.locator('.stage[data-ready="all"]').waitFor();
    const hrefs = await page.$$eval('#direct-award-map tbody a', (links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBe(groups.filter((g: any) => g.key.municipality !== null).length);
    for (const href of hrefs) expect(href).toMatch(/^\/explore\/municipalities\/\d{4}$/);
    if (groups.some((g: any) => g.key.municipality === null)) {
      const row = page.locator('#direct-award-map tbody tr', { hasText: 'No municipality given' });
      expect(await row.count()).toBe(1);
      expect(await row.locator('a').count()).toBe(0);
    }
    await page.close();
  });
});

describe('the signals view', () => {
  /** The view's table: [event date, municipality, type, signal title, confidence, signal href] per row. */
  async function latestRows(page: Page): Promise<string[][]> {
    return page.$$eval('#signals-latest tbody tr', (rows) =>
      rows.map((r) => [
        ...[...r.children].map((c) => c.textContent),
        r.children[3].querySelector('a')?.getAttribute('href'),
      ]),
    );
  }

  it('shows what happened lately, and where: the latest events of every family, by event date', {
    timeout: 60_000,
  }, async () => {
    const all = await signalsByEvent(t);
    const families = countBy(all, 'family');
    expect(Object.keys(families).length).toBeGreaterThan(1);
    const page = await open(desktop, '/explore/signals');
    await page.locator('.stage[data-ready]').waitFor();
    const shown = all.slice(0, 1000);
    // The table lists the latest 200 events, latest first, each linked to its signal's page.
    const rows = await latestRows(page);
    expect(rows.map((r) => r[3])).toEqual(shown.slice(0, 200).map((s) => s.title_en ?? s.title_pt));
    expect(rows.map((r) => r[0])).toEqual(shown.slice(0, 200).map((s) => s.event_date ?? s.first_seen_at.slice(0, 10)));
    expect(rows.map((r) => r[5])).toEqual(shown.slice(0, 200).map((s) => `/explore/signals/${s.id}`));
    // It says how it is ordered, and every family in its share of what matches.
    const summary = await page.locator('.stage .summary').allInnerTexts();
    expect(summary.join(' ')).toContain('ordered by event date');
    const shownPerFamily = countBy(shown, 'family');
    for (const [family, n] of Object.entries(families)) {
      const label = (await api('/v1/signal-families')).find((f: any) => f.key === family).label_en;
      const share = Math.round((n / all.length) * 100);
      expect(summary[1]).toContain(
        `${label} ${new Intl.NumberFormat('pt-PT').format(n)} (${share} %; ${shownPerFamily[family] ?? 0} shown)`,
      );
    }
    // The map's classes are ranges of whole counts, one after the other: no count reads as in two classes
    // (`2 – 3 signals` beside `3 – 6 signals`), and each municipality's count is in its class's range.
    const classes = await page.$$eval('#signals-map ul.legend li', (items) =>
      items
        .filter((li) => li.querySelector('[data-color]'))
        .map((li) => (li.textContent ?? '').replace(/\s*\(\d+\)$/, '')),
    );
    const ranges = classes.map((text) => {
      const [low, high = low] = (text.match(/[\d\u00a0]+/g) ?? []).map((n: string) => Number(n.replace(/\u00a0/g, '')));
      return [low, high];
    });
    expect(ranges.length).toBeGreaterThan(1);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0], classes.join(' | ')).toBe(ranges[i - 1][1] + 1);
    const perPlace = countBy(shown, 'municipality_id');
    const { fills, legend: colours } = await mapFills(page);
    const codes = new Map<number, string>();
    for (let cursor = ''; ; ) {
      const page100 = await api(`/v1/municipalities?limit=100${cursor && `&cursor=${cursor}`}`);
      for (const m of page100.items) codes.set(m.id, m.code);
      if (!page100.next_cursor) break;
      cursor = page100.next_cursor;
    }
    for (const [id, n] of Object.entries(perPlace)) {
      if (!codes.has(Number(id))) continue; // no municipality: on no map
      const [low, high] = ranges[colours.indexOf(fills[codes.get(Number(id)) ?? ''])] ?? [];
      expect(low <= n && n <= high, `${codes.get(Number(id))}: ${n} in ${low}–${high}`).toBe(true);
    }
    // The timeline counts the same events, one lane per family, month by month (not one spike).
    expect(await timelineTotal(page)).toBe(shown.length);
    const months = await page.$$eval(
      '#signals-timeline svg rect title',
      (ts) => new Set(ts.map((t) => t.textContent.split(':')[0])).size,
    );
    const expectedMonths = new Set(shown.map((s) => (s.event_date ?? s.first_seen_at).slice(0, 7))).size;
    expect(months).toBe(expectedMonths);
    expect(months).toBeGreaterThan(1);
    const lanes = await page.$$eval('#signals-timeline text.lane-label', (ts) => ts.length);
    expect(lanes).toBe(Object.keys(shownPerFamily).length);
    // The map counts them where they happened: every municipality with one of them is filled, no other.
    expect(await page.locator('#signals-map svg.map path.m').count()).toBe(308);
    const filled = await page.$$eval(
      '#signals-map svg.map path.m',
      (paths) => paths.filter((p) => p.getAttribute('fill') !== '#f4f5f6').length,
    );
    expect(filled).toBe(new Set(shown.filter((s) => s.municipality_id !== null).map((s) => s.municipality_id)).size);
    await page.screenshot({ path: join(SHOTS, 'signals-1280.png'), fullPage: true });
    await page.close();
  });

  it('keeps to its filters, and its data link answers the same', async () => {
    const all = await signalsByEvent(t, 'family=procurement');
    const page = await open(desktop, '/explore/signals?family=procurement');
    await page.locator('.stage[data-ready]').waitFor();
    const rows = await latestRows(page);
    expect(rows.map((r) => r[5])).toEqual(all.slice(0, 200).map((s) => `/explore/signals/${s.id}`));
    const shown = Math.min(1000, all.length);
    expect(await timelineTotal(page)).toBe(shown);
    expect(await expectDataLinksMatchApi(page)).toBeGreaterThan(0);
    // A signal opens on its own page: the API's record, its place linked.
    await page.locator('#signals-latest tbody tr').first().locator('a[href^="/explore/signals/"]').click();
    await page.waitForURL(`${base}/explore/signals/${all[0].id}`);
    await page.locator('#view[data-ready]').waitFor();
    expect(await page.locator('h1').innerText()).toBe(all[0].title_en ?? all[0].title_pt);
    const detail = await api(`/v1/signals/${all[0].id}`);
    expect(await page.locator('#signal').innerText()).toContain(detail.summary_en ?? detail.summary_pt);
    expect(await page.locator('#signal-evidence tbody tr').count()).toBe(detail.evidence.length);
    await page.close();
    const small = await open(phone, '/explore/signals?family=procurement');
    await small.locator('.stage[data-ready]').waitFor();
    const widths = await small.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]);
    await small.screenshot({ path: join(SHOTS, 'signals-390.png'), fullPage: true });
    await small.close();
  });

  it('switches the family to a type’s own when a type of another family is chosen', async () => {
    const page = await open(desktop, '/explore/signals?family=indicators');
    await page.locator('.stage[data-ready]').waitFor();
    await page.selectOption('#type', 'tender_open');
    await page.waitForURL(/type=tender_open/);
    expect(await page.inputValue('#family')).toBe('procurement');
    expect(page.url()).toContain('family=procurement');
    await page.locator('.stage[data-ready]:not([aria-busy])').waitFor();
    expect(await page.locator('.stage .error').count()).toBe(0);
    await page.close();
  });

  it("shows an address's type under its own family, when the address names it under another", async () => {
    const all = await signalsByEvent(t, 'type=tender_open');
    expect(all.length).toBeGreaterThan(0);
    const shared = await open(desktop, '/explore/signals?family=indicators&type=tender_open');
    await shared.locator('.stage[data-ready]').waitFor();
    expect(await shared.locator('#family').inputValue()).toBe('procurement');
    expect(new URL(shared.url()).searchParams.get('family')).toBe('procurement');
    expect((await latestRows(shared)).map((r) => r[5])).toEqual(
      all.slice(0, 200).map((s) => `/explore/signals/${s.id}`),
    );
    await shared.close();
  });
});

describe('the integrity view without real contracts', () => {
  it('offers only the data it holds, and says there are no real contracts rather than no flags yet', async () => {
    const sources = (await api('/v1/sources')).items;
    expect(sources.some((i: any) => i.synthetic === false && (i.records.contracts ?? 0) > 0)).toBe(false);
    const page = await open(desktop, '/explore/integrity');
    await page.locator('.stage[data-ready]').waitFor();
    expect(await page.$$eval('#data option', (os) => os.map((o: any) => o.value))).toEqual(['generated']);
    await page.close();
    const real = await open(desktop, '/explore/integrity?data=real');
    await real.locator('.stage[data-ready^="real|"]').waitFor();
    const said = await real.locator('.stage').innerText();
    expect(said).toContain('This service holds no real contracts');
    expect(said).not.toContain('No integrity flag on these data yet');
    expect(await real.locator('#integrity-map').count()).toBe(0);
    await real.screenshot({ path: join(SHOTS, 'integrity-no-contracts-1280.png'), fullPage: true });
    await real.close();
  });
});

describe('the signals map of one municipality', () => {
  it('reads its one value as one value, in the singular for one, and draws it in a visible colour', async () => {
    const all = await signalsByEvent(t, 'municipality=1312');
    expect(all.length).toBeGreaterThan(1);
    const page = await open(desktop, '/explore/signals?municipality=1312');
    await page.locator('.stage[data-ready]').waitFor();
    const legend = await page.$$eval('#signals-map ul.legend li', (items) => items.map((li: any) => li.textContent));
    const n = new Intl.NumberFormat('pt-PT').format(Math.min(all.length, 1000));
    expect(legend[0]).toBe(`${n} signals (1)`);
    expect(await page.locator('#signals-map .legend-title').innerText()).toBe('Signals');
    const { fills, legend: colours } = await mapFills(page);
    expect(colours).toHaveLength(1);
    expect(fills['1312']).toBe(colours[0]);
    // Visible against the page and the municipalities without any: not the scale's palest.
    expect(luminance(fills['1312'])).toBeLessThan(0.6);
    await page.screenshot({ path: join(SHOTS, 'signals-one-municipality-1280.png'), fullPage: true });
    await page.close();
  });
});

/** The relative luminance of a `#rrggbb` colour (WCAG): 1 is white, 0 black. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('the detail views', () => {
  const contractAndSupplier =
    'show a contract and a supplier as the API has them, each linked to the other, with no sideways scroll';
  it(contractAndSupplier, async () => {
    const contract = (await api('/v1/procurement/contracts?municipality=1312&limit=1')).items[0];
    const full = await api(`/v1/procurement/contracts/${contract.id}`);
    const flags = await api(`/v1/procurement/contracts/${contract.id}/red-flags`);
    for (const context of [desktop, phone]) {
      const page = await open(context, `/explore/contracts/${contract.id}`);
      await page.locator('#view[data-ready]').waitFor();
      expect(await page.locator('h1').innerText()).toBe(full.object);
      const supplier = page.locator(`#contract a[href="/explore/entities/${full.suppliers[0].nif}"]`);
      expect(await supplier.textContent()).toBe(full.suppliers[0].name);
      expect(await page.locator('#contract a[href="/explore/municipalities/1312"]').textContent()).toBe('Porto');
      // Its price to the cent, as the record states it.
      const cents = new Intl.NumberFormat('pt-PT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      expect(await page.locator('#contract').innerText()).toContain(`${cents.format(full.price_eur)} € (without VAT)`);
      // A generated contract links to no invented address of the demo's (munidata.example): it says it has none.
      expect(full.link).toMatch(/^https:\/\/munidata\.example\//);
      expect(await page.locator('#contract a[href*="munidata.example"]').count()).toBe(0);
      expect(await page.locator('#contract dl.facts dt:text-is("Published record") + dd').innerText()).toBe(
        'none: the demo generated this contract',
      );
      // Its integrity flags: each type of the API's answer, in its state, with the reason.
      const rows = await page.$$eval('#integrity tbody tr', (trs) =>
        trs.map((tr) => [...tr.children].map((td) => td.textContent)),
      );
      const words: Record<string, string> = { not_flagged: 'not flagged', not_assessable: 'not assessable' };
      expect(rows).toEqual(
        flags.assessments.map((a: any) => [
          `${a.label_en} (${a.code})`,
          words[a.state] ?? a.state,
          a.reason,
          a.legal_basis ?? '—',
        ]),
      );
      const widths = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]);
      if (context === phone) {
        // On a phone the integrity table is a list of types, each line labelled (no table wider than its box).
        const stacked = await page.$eval('#integrity table', (table: any) => ({
          display: window.getComputedStyle(table.querySelector('tbody tr')).display,
          labels: [...table.querySelector('tbody tr').querySelectorAll('td')].map((td: any) =>
            window.getComputedStyle(td, '::before').content.includes(td.dataset.label) ? td.dataset.label : null,
          ),
          overflow: table.parentElement.scrollWidth - table.parentElement.clientWidth,
        }));
        expect(stacked).toEqual({ display: 'block', labels: ['State', 'Why', 'Legal basis'], overflow: 0 });
        await page.screenshot({ path: join(SHOTS, 'contract-390.png'), fullPage: true });
        await page.close();
        continue;
      }
      await page.screenshot({ path: join(SHOTS, 'contract-1280.png'), fullPage: true });
      await supplier.click();
      await page.waitForURL(`${base}/explore/entities/${full.suppliers[0].nif}`);
      await page.locator('#view[data-ready]').waitFor();
      const entity = await api(`/v1/procurement/entities/${full.suppliers[0].nif}`);
      expect(await page.locator('h1').innerText()).toBe(entity.name);
      const listed = await page.$$eval('#entity-contracts tbody a[href^="/explore/contracts/"]', (links) =>
        links.map((a) => a.getAttribute('href')),
      );
      expect(listed).toEqual(entity.recent_contracts.map((c: any) => `/explore/contracts/${c.id}`));
      expect(await expectDataLinksMatchApi(page)).toBeGreaterThan(0);
      await page.screenshot({ path: join(SHOTS, 'entity-1280.png'), fullPage: true });
      await page.close();
    }
  });

  it("say on a buyer's euros per year which year the contracts held cover only in part", async () => {
    const [top] = (await api('/v1/procurement/aggregate?executed_in=1312&group_by=contracting_entity')).groups
      .filter((g: any) => g.key.contracting_entity)
      .sort((a: any, b: any) => b.total_eur - a.total_eur);
    const buyer = top.key.contracting_entity;
    const entity = await api(`/v1/procurement/entities/${buyer}`);
    const years = entity.by_year.map((y: any) => String(y.year));
    const expected = await yearsAsCovered(years, entity.synthetic === true);
    expect(expected.some((e) => e.note)).toBe(true);
    const page = await open(desktop, `/explore/entities/${buyer}`);
    await page.locator('#entity-years table').waitFor({ state: 'attached' });
    const labels = await page.$$eval('#entity-years tbody tr', (rows) => rows.map((r) => r.children[0].textContent));
    expect(labels).toEqual(expected.map((e) => e.label));
    const notes = await page.locator('#entity-years .notes li').allInnerTexts();
    expect(notes).toEqual(expected.flatMap((e) => (e.note ? [e.note] : [])));
    await page.close();
  });

  it("link a signal's contract, buyer and supplier to their pages", async () => {
    const listed = (await api('/v1/signals?type=direct_award_high_value&limit=1')).items;
    const signal = await api(`/v1/signals/${listed[0].id}`);
    const contract = await api(`/v1/procurement/contracts/${signal.contract_id}`);
    const page = await open(desktop, `/explore/signals/${signal.id}`);
    await page.locator('#view[data-ready]').waitFor();
    const facts = page.locator('#signal dl.facts');
    const linkOf = async (label: string) => {
      const dd = facts.locator(`dt:text-is("${label}") + dd`);
      return dd.locator('a').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]));
    };
    expect(await linkOf('Contract')).toEqual([[contract.object, `/explore/contracts/${contract.id}`]]);
    const parties = (ps: any[]) => ps.map((p) => [p.name, `/explore/entities/${p.nif}`]);
    expect(await linkOf('Buyer')).toEqual(parties(contract.buyers));
    expect(await linkOf('Supplier')).toEqual(parties(contract.suppliers));
    await facts.locator('dt:text-is("Supplier") + dd a').first().click();
    await page.waitForURL(`${base}/explore/entities/${contract.suppliers[0].nif}`);
    await page.close();
  });

  it("say which amount form is the API's English text and which the page's own facts", async () => {
    const listed = (await api('/v1/signals?type=direct_award_high_value&limit=1')).items;
    const signal = await api(`/v1/signals/${listed[0].id}`);
    const page = await open(desktop, `/explore/signals/${signal.id}`);
    await page.locator('#view[data-ready]').waitFor();
    // The API's text stays as served; the page's own amount is the explorer's form, and a note says which is which.
    expect(await page.locator('#signal p.summary').innerText()).toBe(signal.summary_en);
    const cents = new Intl.NumberFormat('pt-PT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const own = `${cents.format(signal.amount_eur)} €`;
    expect(await page.locator('#signal dl.facts dt:text-is("Amount") + dd').innerText()).toBe(`${own} (without VAT)`);
    const note = await page.locator('#signal .notes').innerText();
    expect(note).toContain("the API's English texts as it serves them");
    expect(note).toContain(`the facts write amounts as the rest of the explorer does: ${own}.`);
    // Its evidence names the demo's sources without a link to their invented addresses (munidata.example).
    expect(signal.synthetic).toBe(true);
    expect(signal.evidence[0].source_url).toMatch(/^https:\/\/munidata\.example\//);
    await expect(page.locator('#signal-evidence tbody tr').first().innerText()).resolves.toContain(
      signal.evidence[0].source_title,
    );
    expect(await page.locator('#view a[href*="munidata.example"]').count()).toBe(0);
    await page.close();
  });

  it("link an integrity signal's request for the contract's red flags to the contract's flags", async () => {
    const signals = (await api('/v1/signals?family=integrity&type=heterogeneous_supplier&limit=1')).items;
    const signal = await api(`/v1/signals/${signals[0].id}`);
    const [named, id] = /GET \/v1\/procurement\/contracts\/(\d+)\/red-flags/.exec(signal.summary_en) ?? [];
    expect(named).toBeDefined();
    const page = await open(desktop, `/explore/signals/${signal.id}`);
    await page.locator('#view[data-ready]').waitFor();
    const link = page.locator(`#signal a[href="/explore/contracts/${id}#integrity"]`);
    expect(await link.textContent()).toBe(named);
    // The rest of the summary is the API's text as it is: the link takes nothing out of it.
    expect(await page.locator('#signal p.summary').innerText()).toBe(signal.summary_en);
    // The next step exists in Portuguese only: an English page says so rather than switch language unannounced.
    expect(await page.locator('#signal').innerText()).toContain(`Next step (in Portuguese)\n${signal.next_step_pt}`);
    await link.click();
    await page.waitForURL(`${base}/explore/contracts/${id}#integrity`);
    await page.locator('#integrity tbody tr').first().waitFor();
    // There R048's reason names the supplier's contracts: a link to the supplier's page.
    const flags = await api(`/v1/procurement/contracts/${id}/red-flags`);
    const r048 = flags.assessments.find((a: any) => a.type === 'heterogeneous_supplier');
    const nif = /contracts\?supplier=(\d{9})/.exec(r048.reason)?.[1];
    expect(nif).toBeDefined();
    const supplier = page.locator(`#integrity a[href="/explore/entities/${nif}"]`);
    expect(await supplier.textContent()).toBe(`GET /v1/procurement/contracts?supplier=${nif}`);
    await page.close();
  });

  it('say what the API says of an unknown one', async () => {
    const page = await open(desktop, '/explore/contracts/999999999');
    await page.locator('#view[data-ready]').waitFor();
    expect(await page.locator('#view .error').innerText()).toContain('Not found');
    await page.close();
    // The browser logs the API's 404 as it logs any failed load: that one is expected here, and only that one.
    const logged = pageErrors.filter((e) => e.startsWith('/explore/contracts/999999999:'));
    expect(logged.every((e) => e.includes('404'))).toBe(true);
    pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !logged.includes(e)));
  });
});

/**
 * A desktop and a phone signed in as a member of an account of its own, on a plan with every data domain and a
 * per-minute limit that opening every view of the explorer in turn does not reach (the premium account's is shared by
 * the rest of this file).
 */
let roomy: Promise<ExplorerContexts> | undefined;
function roomyContexts(): Promise<ExplorerContexts> {
  roomy ??= (async () => {
    const { accountId } = await t.keyOnPlan('explore_every_view', {
      domains: ['indicators', 'procurement', 'signals'],
    });
    const user = await consoleUser(t, { accountId, email: 'every-view@example.org', role: 'member' });
    return explorerContexts(browser, base, user);
  })();
  return roomy;
}

describe('every view', () => {
  it('offers a CSV link only where the request answers CSV: every one it draws opens as CSV', {
    timeout: 90_000,
  }, async () => {
    const contract = (await api('/v1/procurement/contracts?municipality=1106&limit=1')).items[0];
    const signal = (await api('/v1/signals?limit=1')).items[0];
    const buyer = contract.buyers[0].nif;
    const views: [string, string][] = [
      ['/explore?indicator=unemployment_rate', '.stage[data-indicator] svg.map'],
      ['/explore/municipalities/1106', '#view[data-ready]'],
      ['/explore/procurement', '.stage[data-ready]'],
      ['/explore/integrity', '.stage[data-ready]'],
      ['/explore/signals', '.stage[data-ready]'],
      [`/explore/contracts/${contract.id}`, '#view[data-ready]'],
      [`/explore/entities/${buyer}`, '#buyer-flags[data-ready]'],
      [`/explore/signals/${signal.id}`, '#view[data-ready]'],
    ];
    const seen: { csv: string[]; jsonOnly: string[] } = { csv: [], jsonOnly: [] };
    const contexts = await roomyContexts();
    for (const [path, ready] of views) {
      const page = await open(contexts.desktop, path);
      await page.locator(ready).first().waitFor();
      // A buyer's flagged contract, opened, names its red flags' request too.
      const flagged = page.locator('details.flagged-contract');
      if ((await flagged.count()) > 0) {
        await flagged
          .first()
          .locator('summary')
          .click({ position: { x: 4, y: 8 } });
        await flagged.first().locator('.evidence-list[data-ready]').waitFor();
      }
      const links = await page.$$eval('details.data li:not(.explorer-only)', (items) =>
        items.map((li: any) => ({
          json: li.querySelector('a.json').getAttribute('href'),
          csv: li.querySelector('a.csv')?.getAttribute('href') ?? null,
        })),
      );
      for (const { json, csv } of links) {
        if (csv === null) {
          seen.jsonOnly.push(json);
          continue;
        }
        seen.csv.push(csv);
        const answer = await signedInGet(page.context(), `${base}${csv}`);
        expect(answer.status(), `${path}: ${csv}`).toBe(200);
        expect(answer.headers()['content-type'], csv).toContain('text/csv');
        // The CSV link is the JSON link's request, only the format differs.
        expect(csv.replace('/explore/csv/', '/explore/api/')).toBe(json);
      }
      await page.close();
    }
    // Lists and the aggregate have their CSV; a record, statistics and red flags have none — and each of those
    // answers 404 as CSV, which is why no link is drawn.
    const pathOf = (href: string) => new URL(href, base).pathname;
    expect(seen.csv.some((href) => pathOf(href) === '/explore/csv/v1/procurement/aggregate')).toBe(true);
    expect(seen.csv.some((href) => pathOf(href) === '/explore/csv/v1/procurement/contracts')).toBe(true);
    const jsonOnly = seen.jsonOnly.map(pathOf);
    for (const expected of [
      '/explore/api/v1/indicators/unemployment_rate/stats',
      `/explore/api/v1/procurement/contracts/${contract.id}`,
      `/explore/api/v1/procurement/contracts/${contract.id}/red-flags`,
      `/explore/api/v1/procurement/entities/${buyer}`,
      `/explore/api/v1/procurement/entities/${buyer}/red-flags`,
    ]) {
      expect(jsonOnly, expected).toContain(expected);
    }
    for (const href of seen.jsonOnly) {
      const asCsv = await t.app.http.inject({ url: href.replace('/explore/api/', '/explore/csv/') });
      expect(asCsv.statusCode, href).toBe(404);
    }
  });

  it('keeps every date of a table, a subtitle or a view summary on one line, at desktop and phone widths', {
    timeout: 120_000,
  }, async () => {
    const contract = (await api('/v1/procurement/contracts?municipality=1312&limit=1')).items[0];
    const signal = (await api('/v1/signals?type=contract_awarded&limit=1')).items[0];
    const views: [string, string][] = [
      ['/explore/signals', '.stage[data-ready]'],
      ['/explore/procurement', '.stage[data-ready]'],
      [`/explore/contracts/${contract.id}`, '#view[data-ready]'],
      [`/explore/signals/${signal.id}`, '#view[data-ready]'],
      ['/explore/municipalities/1312', '#view[data-ready]'],
      [`/explore/entities/${contract.suppliers[0].nif}`, '#view[data-ready]'],
      [`/explore/entities/${contract.buyers[0].nif}`, '#buyer-flags[data-ready]'],
    ];
    let dates = 0;
    const { desktop, phone } = await roomyContexts();
    for (const context of [desktop, phone]) {
      for (const [path, ready] of views) {
        const page = await open(context, path);
        await page.locator(ready).first().waitFor();
        // Open every table, so that its cells are laid out; then count the lines each date's text takes.
        await page.$$eval('details.table', (all) => {
          for (const d of all as any[]) d.open = true;
        });
        const broken = await page.evaluate(() => {
          const out: { text: string; lines: number }[] = [];
          const cells = [
            ...document.querySelectorAll(
              'table td, table th, details.flagged-contract .date, .subtitle .date, .stage > p.summary .date',
            ),
          ];
          for (const cell of cells as any[]) {
            const text = cell.textContent.trim();
            if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) continue;
            const range = document.createRange();
            range.selectNodeContents(cell);
            const tops = new Set([...range.getClientRects()].map((r: any) => Math.round(r.top)));
            out.push({ text, lines: tops.size });
          }
          return out;
        });
        dates += broken.length;
        // A picture's subtitle ("published 2026-11-27") and a view's summary above its pictures ("from 2026-06-05 to
        // 2026-11-30") hold each of their dates in an element of their own, kept whole.
        const subtitles = await page.$$eval('.subtitle, .stage > p.summary', (all) =>
          all.map((p: any) => [
            (p.textContent.match(/\d{4}-\d{2}-\d{2}/g) ?? []).length,
            p.querySelectorAll('.date').length,
          ]),
        );
        for (const [said, kept] of subtitles) expect(kept, path).toBe(said);
        expect(
          broken.filter((d) => d.lines > 1),
          `${path} at ${context === phone ? 390 : 1280}`,
        ).toEqual([]);
        await page.close();
      }
    }
    expect(dates).toBeGreaterThan(100);
  });

  it('gives every control a label a screen reader reads', async () => {
    const contract = (await api('/v1/procurement/contracts?limit=1')).items[0];
    const views = [
      ['/explore', '.stage[data-indicator] svg.map'],
      ['/explore/municipalities/1312', '#view[data-ready]'],
      ['/explore/procurement', '.stage[data-ready]'],
      ['/explore/signals', '.stage[data-ready]'],
      [`/explore/contracts/${contract.id}`, '#view[data-ready]'],
    ];
    for (const [path, ready] of views) {
      const page = await open(desktop, path);
      await page.locator(ready).first().waitFor();
      const unlabelled = await page.$$eval('select, input:not([type=hidden]), textarea', (controls) =>
        controls
          .filter(
            (c: any) => c.labels.length === 0 && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'),
          )
          .map((c: any) => c.outerHTML.slice(0, 80)),
      );
      expect(unlabelled, path).toEqual([]);
      // A link in a picture read as one image (role=img) is one a keyboard reaches and a screen reader cannot name.
      const hidden = await page.$$eval('[role=img] a[href], [role=img] [tabindex]:not([tabindex="-1"])', (all) =>
        all.map((e: any) => e.outerHTML.slice(0, 80)),
      );
      expect(hidden, path).toEqual([]);
      await page.close();
    }
  });
});

describe("a signal's words", () => {
  /**
   * A signal the API has in Portuguese only, as an outside detector may send it (docs/signals.md, import): without
   * evidence, which an import may leave out. Imported once for the tests below.
   */
  let imported: Promise<any> | undefined;
  function portugueseOnly(): Promise<any> {
    imported ??= importPortugueseOnly();
    return imported;
  }
  async function importPortugueseOnly(): Promise<any> {
    const line = {
      source: 'jornal-local',
      external_id: 'pt-only-1',
      type: 'direct_award_high_value',
      municipality: '1312',
      title_pt: 'Ajuste direto de 900 000 € para a limpeza urbana',
      summary_pt: 'A câmara adjudicou por ajuste direto a limpeza urbana por 900 000 €.',
      why_it_matters_pt: 'Um ajuste direto deste valor merece uma leitura atenta.',
      confidence: 0.8,
      event_date: new Date(t.clock.now).toISOString().slice(0, 10),
    };
    const report = await importSignals(t.store, JSON.stringify(line), {
      fileName: 'pt.jsonl',
      now: new Date(t.clock.now),
    });
    expect(report.accepted).toBe(1);
    const listed = await signalsByEvent(t, 'type=direct_award_high_value&municipality=1312');
    const found = listed.find((s) => s.title_pt === line.title_pt);
    expect(found.title_en).toBeNull();
    return api(`/v1/signals/${found.id}`);
  }

  it('shows the English text where the API has one, else the Portuguese marked as such, and names types by label', {
    timeout: 60_000,
  }, async () => {
    const pt = await portugueseOnly();
    // Either data: the Portuguese-only signal is among the one, the detectors' English signals among the other.
    const lists: any[][] = [];
    for (const data of ['real', 'generated']) {
      const query = `data=${data}&type=direct_award_high_value&municipality=1312`;
      const shown = (await signalsByEvent(t, query)).slice(0, 200);
      const page = await open(desktop, `/explore/signals?${query}`);
      await page.locator('.stage[data-ready]').waitFor();
      // Each row's title: the English one as it is, a Portuguese one in an element that says it is Portuguese.
      const titles = await page.$$eval('#signals-latest tbody tr', (rows) =>
        rows.map((r: any) => {
          const marked = r.children[3].querySelector('[lang]');
          return [r.children[3].textContent, marked?.getAttribute('lang') ?? null, r.children[2].textContent];
        }),
      );
      expect(titles, data).toEqual(
        shown.map((s) => [s.title_en ?? s.title_pt, s.title_en ? null : 'pt', 'High-value direct award']),
      );
      lists.push(titles);
      await page.close();
    }
    expect(lists.flat().filter(([, lang]) => lang === 'pt')).toHaveLength(1);
    expect(lists.flat().filter(([, lang]) => lang === null).length).toBeGreaterThan(0);
    // Its page: title, summary and why it matters in Portuguese, each marked; the family and type by their labels.
    const own = await open(desktop, `/explore/signals/${pt.id}`);
    await own.locator('#view[data-ready]').waitFor();
    expect(await own.locator('h1').innerText()).toBe(pt.title_pt);
    expect(await own.locator('h1').getAttribute('lang')).toBe('pt');
    expect(await own.locator('#signal p.summary[lang="pt"]').innerText()).toBe(pt.summary_pt);
    const why = own.locator('#signal dl.facts dt:text-is("Why it matters") + dd [lang="pt"]');
    expect(await why.innerText()).toBe(pt.why_it_matters_pt);
    const card = await own.locator('#signal').innerText();
    expect(card).toContain('Public procurement · High-value direct award · event date');
    expect(card).not.toMatch(/direct[_ ]award[_ ]high[_ ]value|(^|\n)procurement · /);
    await own.screenshot({ path: join(SHOTS, 'signal-portuguese-1280.png'), fullPage: true });
    await own.close();
    const small = await open(phone, `/explore/signals/${pt.id}`);
    await small.locator('#view[data-ready]').waitFor();
    await small.screenshot({ path: join(SHOTS, 'signal-portuguese-390.png'), fullPage: true });
    await small.close();
    // A signal with English texts shows them unmarked (the page's own language), under the same labels.
    const listed = (await api('/v1/signals?type=direct_award_high_value&municipality=1312&limit=20')).items;
    const en = await api(`/v1/signals/${listed.find((s: any) => s.title_en).id}`);
    const english = await open(desktop, `/explore/signals/${en.id}`);
    await english.locator('#view[data-ready]').waitFor();
    expect(await english.locator('h1').innerText()).toBe(en.title_en);
    expect(await english.locator('h1').getAttribute('lang')).toBeNull();
    expect(await english.locator('#signal p.summary').getAttribute('lang')).toBeNull();
    expect(await english.locator('#signal').innerText()).toContain('Public procurement · High-value direct award');
    await english.close();
  });

  it('says a signal without evidence has none, where a signal with evidence lists it', async () => {
    const none = await portugueseOnly();
    expect(none.evidence).toEqual([]);
    const page = await open(desktop, `/explore/signals/${none.id}`);
    await page.locator('#view[data-ready]').waitFor();
    const evidence = page.locator('#signal-evidence');
    expect(await evidence.locator('h2').innerText()).toBe('Evidence');
    expect(await evidence.locator('table').count()).toBe(0);
    expect(await evidence.innerText()).toContain('No evidence recorded for this signal');
    await evidence.screenshot({ path: join(SHOTS, 'signal-no-evidence-1280.png') });
    await page.close();

    const listed = (await api('/v1/signals?type=direct_award_high_value&municipality=1312&limit=20')).items;
    const some = await api(`/v1/signals/${listed.find((s: any) => s.title_en).id}`);
    expect(some.evidence.length).toBeGreaterThan(0);
    const other = await open(desktop, `/explore/signals/${some.id}`);
    await other.locator('#view[data-ready]').waitFor();
    expect(await other.locator('#signal-evidence tbody tr').count()).toBe(some.evidence.length);
    expect(await other.locator('#signal-evidence').innerText()).not.toContain('No evidence recorded');
    await other.close();
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
