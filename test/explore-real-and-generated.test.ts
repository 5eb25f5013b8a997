/**
 * The explorer where real data meet the demo's generated data, in a real browser (Chromium through playwright-core),
 * on both stores: a copy of the demo store with the real series of data/real/ loaded over the demo's (as a first
 * start loads them: purchasing power real, the other key figures generated), and a buyer whose contracts are real
 * (source `base`) and published in January and February 2024 only, as the portal's copy in the box.
 *
 * - A municipality's key figures come in two groups, never one grid: the real ones first under a heading that says
 *   they are published by their source, then the generated under one that says they are demo data — each card under
 *   the heading the API's own answer for its indicator (`synthetic`) puts it, and keeping its own mark.
 * - At 390 px, each date of a partial-year note ("published 2024-01-02 to 2024-02-29") and each year's months in
 *   the table ("2024 (Jan–Feb)") sit on one line: never broken at a hyphen or dash.
 *
 * Screenshots go to screenshots/explorer/ (docs/explorer.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importRealSeries } from '../src/ingest/real/import-real.js';
import type { ContractInput } from '../src/store/procurement-records.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { explorerContexts, openExplorePage } from './helpers/explore-page.js';
import { freePort } from './helpers/free-port.js';
import { contractInput, SUPPLIERS, withCheckDigit } from './helpers/procurement-fixture.js';
import { copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

declare const document: any;

const SHOTS = join(import.meta.dirname, '..', 'screenshots', 'explorer');
/** A public body whose contracts are all real, published 2024-01-02 … 2024-02-29 (a leap day, as in 2024). */
const REAL_BUYER = { nif: withCheckDigit('60099002'), name: 'Serviços Municipalizados de Exemplo' };
const REAL_DAYS = ['2024-01-02', '2024-01-19', '2024-02-06', '2024-02-29'];

let t: TestApp;
let base: string;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
const pageErrors: string[] = [];

function realContracts(): ContractInput[] {
  // Executed nowhere named (no place given): the municipality pages' contracts stay the demo's alone.
  return REAL_DAYS.map((day, i) =>
    contractInput(`REAL-${i}`, {
      imported_at: '2024-03-01T00:00:00Z',
      object: `Aquisição de serviços de manutenção ${i}`,
      procedure_type: 'Ajuste Direto Regime Geral',
      ocds_method: 'direct',
      cpvs: ['50000000'],
      buyers: [REAL_BUYER],
      suppliers: [SUPPLIERS[i % 3]],
      price_eur: 4_000 + i * 750,
      published_on: day,
    }),
  );
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const { store, dbPath } = copyDemoStore();
  await importRealSeries(store);
  await store.writeProcurement({
    entities: [{ ...REAL_BUYER, kind: 'public_body', country: 'PT', municipality_id: null }],
    contracts: realContracts(),
    announcements: [],
    amendments: [],
  });
  await store.refreshProcurementRollups();
  t = await startTestApp({ store, dbPath, baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  browser = await launchChromium();
  const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'mixed@premium.example', role: 'member' });
  ({ desktop, phone } = await explorerContexts(browser, base, user));
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

// The app's clock stands still unless moved: a minute per test keeps the pages within the plan's per-minute limit.
beforeEach(() => t.clock.advance(60_000));

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await openExplorePage(context, `${base}${path}`, path, pageErrors);
  await page.locator('#view[data-ready]').waitFor();
  return page;
}

async function api(v1: string): Promise<any> {
  const res = await t.get(v1);
  expect(res.status, v1).toBe(200);
  return res.json;
}

/** The key figures as drawn: each group in order, its kind, heading and cards (indicator and mark). */
function keyFigureGroups(page: Page): Promise<{ kind: string; heading: string; cards: string[][] }[]> {
  return page.$$eval('#figures .figure-group', (groups) =>
    groups.map((g: any) => ({
      kind: g.getAttribute('data-kind'),
      heading: g.querySelector('h3').textContent,
      cards: [...g.querySelectorAll('.figure-card')].map((c: any) => [
        c.getAttribute('data-indicator'),
        c.querySelector('.card-mark').textContent,
      ]),
    })),
  );
}

describe("a municipality's key figures, real and generated", () => {
  it('come in two groups, the real first, each card under the heading its indicator answers to', async () => {
    const page = await open(desktop, '/explore/municipalities/lisboa');
    const groups = await keyFigureGroups(page);
    // Every card of the page, under the group the API's own answer for its indicator puts it in.
    const drawn = groups.flatMap((g) => g.cards.map(([key]) => key));
    expect(drawn.length).toBeGreaterThanOrEqual(6);
    const synthetic = new Map<string, boolean>();
    for (const key of drawn) synthetic.set(key, (await api(`/v1/indicators/${key}`)).synthetic);
    const real = drawn.filter((k) => synthetic.get(k) === false);
    const generated = drawn.filter((k) => synthetic.get(k) === true);
    expect(real).toContain('purchasing_power_index');
    expect(generated.length).toBeGreaterThan(0);
    expect(groups.map((g) => g.kind)).toEqual(['real', 'generated']);
    expect(groups[0].heading).toBe('Real data, as published by their source');
    expect(groups[1].heading).toBe('Demo data, generated for this example: not published figures');
    expect(groups[0].cards).toEqual(real.map((k) => [k, 'real data']));
    expect(groups[1].cards).toEqual(generated.map((k) => [k, 'generated data']));
    // A reference unit in brackets, as the signals write it: `186,3 (Portugal = 100)`.
    const power = await page.locator('#figures [data-indicator=purchasing_power_index] .value').innerText();
    expect(power).toMatch(/^\d[\d\s]*(,\d)? \(Portugal = 100\)$/);
    // The picture as a whole is marked as holding both.
    expect(await page.locator('#figures > .data-mark').textContent()).toMatch(/real and generated/i);
    await page.locator('#figures').screenshot({ path: join(SHOTS, 'key-figures-1280.png') });
    await page.close();

    const small = await open(phone, '/explore/municipalities/lisboa');
    expect(await keyFigureGroups(small)).toEqual(groups);
    await small.locator('#figures').screenshot({ path: join(SHOTS, 'key-figures-390.png') });
    await small.close();
  });
});

describe('a partial-year note', () => {
  it("keeps each date, and each year's months in the table, on one line at 390 px", async () => {
    // Notes of generated contracts (municipality pages, the demo buyer with the most euros in Porto) and of real
    // ones (the real buyer): their texts differ, so their dates fall at different places of the lines.
    const [demoBuyer] = (await api('/v1/procurement/aggregate?executed_in=1312&group_by=contracting_entity')).groups
      .filter((g: any) => g.key.contracting_entity)
      .sort((a: any, b: any) => b.total_eur - a.total_eur);
    const views: [string, string][] = [
      ['/explore/municipalities/1312', '#procurement-years'],
      ['/explore/municipalities/1106', '#procurement-years'],
      [`/explore/entities/${demoBuyer.key.contracting_entity}`, '#entity-years'],
      [`/explore/entities/${REAL_BUYER.nif}`, '#entity-years'],
    ];
    const broken: { path: string; text: string; lines: number }[] = [];
    let dates = 0;
    let months = 0;
    for (const [path, picture] of views) {
      const page = await open(phone, path);
      await page.$$eval(`${picture} details.table`, (all) => {
        for (const d of all as any[]) d.open = true;
      });
      // Each date (2024-02-29) and span of months ("(Jan–Feb)") of the notes and the table: the lines it takes.
      const spans = await page.evaluate((selector: string) => {
        const out: { text: string; lines: number }[] = [];
        for (const element of document.querySelectorAll(`${selector} .notes li, ${selector} tbody th`)) {
          const walker = document.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const found of node.textContent.matchAll(/\d{4}-\d{2}-\d{2}|\([A-Z][a-z]{2}(–[A-Z][a-z]{2})?\)/g)) {
              const range = document.createRange();
              range.setStart(node, found.index);
              range.setEnd(node, found.index + found[0].length);
              const tops = new Set([...range.getClientRects()].map((r: any) => Math.round(r.top)));
              out.push({ text: found[0], lines: tops.size });
            }
          }
        }
        return out;
      }, picture);
      dates += spans.filter((s) => s.text.startsWith('2')).length;
      months += spans.filter((s) => s.text.startsWith('(')).length;
      broken.push(...spans.filter((s) => s.lines !== 1).map((s) => ({ path, ...s })));
      if (path.includes(REAL_BUYER.nif)) {
        expect(await page.locator(`${picture} .notes li`).allInnerTexts()).toEqual([
          '2024 is only part of a year: the real contracts held were published 2024-01-02 to 2024-02-29 ' +
            '(their coverage in GET /v1/sources).',
        ]);
        await page.locator(picture).screenshot({ path: join(SHOTS, 'entity-real-years-390.png') });
      }
      if (path === '/explore/municipalities/1312')
        await page.locator(picture).screenshot({ path: join(SHOTS, 'municipality-years-390.png') });
      await page.close();
    }
    expect(broken).toEqual([]);
    // Every page has a partial year (the data's last at least): two dates in its note, its months in the table.
    expect(dates).toBeGreaterThanOrEqual(2 * views.length);
    expect(months).toBeGreaterThanOrEqual(views.length);
    const wide = await open(desktop, `/explore/entities/${REAL_BUYER.nif}`);
    await wide.locator('#entity-years details.table summary').click();
    await wide.locator('#entity-years').screenshot({ path: join(SHOTS, 'entity-real-years-1280.png') });
    await wide.close();
  });
});

describe('a year axis', () => {
  it("keeps each year's label clear of its neighbours at 390 px, a part year's months on a second line", async () => {
    let partial = 0;
    for (const path of ['/explore/municipalities/1312', '/explore/municipalities/1106']) {
      const page = await open(phone, path);
      // The first axis drawn is the bars' (the years); the second, the euros'. Each label's lines (one, or the
      // year over its months), compared line by line with its neighbours'.
      const labels = await page.$eval('#procurement-years svg g.axis', (axis) =>
        [...axis.querySelectorAll('.tick text')].map((t) => {
          const parts = t.querySelectorAll('tspan');
          const lines = (parts.length > 0 ? [...parts] : [t]).map((line) => {
            const box = line.getBoundingClientRect();
            return { text: line.textContent ?? '', left: box.left, right: box.right };
          });
          return { text: t.textContent ?? '', lines };
        }),
      );
      expect(labels.length, path).toBeGreaterThan(1);
      for (const line of [0, 1]) {
        const boxes = labels.flatMap((l) => l.lines[line] ?? []).sort((a, b) => a.left - b.left);
        for (let i = 1; i < boxes.length; i++)
          expect(boxes[i].left, `${path}: ${boxes[i - 1].text} | ${boxes[i].text}`).toBeGreaterThanOrEqual(
            boxes[i - 1].right,
          );
      }
      for (const label of labels.filter((l) => /[A-Z][a-z]{2}/.test(l.text))) {
        partial++;
        expect(label.lines.map((l) => l.text)).toEqual([
          label.text.slice(0, 4),
          expect.stringMatching(/^[A-Z][a-z]{2}/),
        ]);
      }
      await page.close();
    }
    expect(partial).toBeGreaterThan(0);
  });
});

describe('the whole file', () => {
  it('raised no script error on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
