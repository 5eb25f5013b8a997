/**
 * Real and synthetic data told apart (docs/data.md, "Real and synthetic data"), as a user checks it over REST on the
 * demo store with the real BASE sample imported beside it: `synthetic` on every kind of record, `[demo]` titles,
 * the `source` filter (422 naming the allowed ones), the `sources` operation, the OCDS extension, and the words on
 * /docs. The A2A and MCP channels answer the same JSON (test/parity.test.ts runs every operation's examples there).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDemoKey } from '../src/demo/demo-account.js';
import { runDetection } from '../src/detect/run-detection.js';
import { importBaseContracts } from '../src/ingest/base/import-base.js';
import { copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

const SAMPLE_TEXT = readFileSync(new URL('fixtures/base-contracts-sample.json', import.meta.url), 'utf8');
const SAMPLE: { idcontrato: string; precoContratual: number; adjudicante: string[]; adjudicatarios: string[] }[] =
  JSON.parse(SAMPLE_TEXT);

let t: TestApp;
/** The demo account's key: its alert rules matched the demo data. */
let demoKey: string;

beforeAll(async () => {
  const { store, dbPath } = copyDemoStore();
  await importBaseContracts(store, SAMPLE_TEXT, {
    format: 'json',
    fileName: 'sample.json',
    now: new Date().toISOString(),
  });
  await store.refreshProcurementRollups();
  await runDetection(store, { now: new Date() });
  t = await startTestApp({ store, dbPath });
  demoKey = (await issueDemoKey(store, new Date())).secret;
}, 300_000);
afterAll(() => t?.close());

const items = async (path: string) => {
  const res = await t.get(path);
  expect(res.status, res.body).toBe(200);
  return res.json.items as any[];
};

describe('procurement: real and demo apart', () => {
  it('source=base lists the 50 real contracts, all synthetic: false; source=demo only synthetic ones', async () => {
    const real = await items('/v1/procurement/contracts?source=base&limit=200');
    expect(real.map((c) => c.source_id).sort()).toEqual(SAMPLE.map((r) => r.idcontrato).sort());
    expect(real.every((c) => c.source === 'base' && c.synthetic === false)).toBe(true);
    const demo = await items('/v1/procurement/contracts?source=demo&limit=50');
    expect(demo.length).toBe(50);
    expect(demo.every((c) => c.source === 'demo' && c.synthetic === true)).toBe(true);
    const one = await t.get(`/v1/procurement/contracts/${demo[0].id}`);
    expect(one.json.synthetic).toBe(true);
    expect(one.json.amendments.every((a: any) => a.synthetic === true)).toBe(true);
  });

  it('an unknown source is 422 naming the allowed ones', async () => {
    const res = await t.get('/v1/procurement/contracts?source=portal');
    expect(res.status).toBe(422);
    expect(res.body).toContain('base, demo');
  });

  it('notices and amendments filter by source and say synthetic', async () => {
    const notices = await items('/v1/procurement/announcements?source=demo&limit=20');
    expect(notices.length).toBeGreaterThan(0);
    expect(notices.every((a) => a.synthetic === true)).toBe(true);
    expect(await items('/v1/procurement/announcements?source=base')).toEqual([]);
    const amendments = await items('/v1/procurement/amendments?source=demo&limit=20');
    expect(amendments.every((a) => a.synthetic === true && a.source === 'demo')).toBe(true);
  });

  const aggregateOfRealContracts =
    'the aggregate of source=base sums the real contracts only, synthetic: false; without it, synthetic: true';
  it(aggregateOfRealContracts, async () => {
    const total = SAMPLE.reduce((s, r) => s + Math.round(r.precoContratual * 100), 0) / 100;
    const real = (await t.get('/v1/procurement/aggregate?source=base&group_by=year')).json;
    expect(real.totals.count).toBe(50);
    expect(real.totals.total_eur).toBeCloseTo(total, 2);
    expect(real.synthetic).toBe(false);
    const all = (await t.get('/v1/procurement/aggregate?group_by=year')).json;
    expect(all.totals.count).toBeGreaterThan(50);
    expect(all.synthetic).toBe(true);
    // Vila Nova da Barquinha (1420): the one real contract of the sample, apart from the demo ones.
    const barquinha = (
      await t.get('/v1/procurement/aggregate?source=base&executed_in=1420&from=2024-01-01&to=2024-12-31')
    ).json;
    expect(barquinha.totals).toEqual({ count: 1, total_eur: 121_896 });
  });

  it('entities say whether their figures include demo contracts', async () => {
    const supplier = (await t.get('/v1/procurement/entities/510858287')).json; // only in the real sample
    expect(supplier.synthetic).toBe(false);
    const lisboa = (await t.get('/v1/procurement/entities/500051070')).json; // a buyer in the demo too
    expect(lisboa.synthetic).toBe(true);
    // source=base: the entities the real sample names, and no other.
    const named = new Set(SAMPLE.flatMap((r) => [...r.adjudicante, ...r.adjudicatarios]).map((p) => p.slice(0, 9)));
    const real = await items('/v1/procurement/entities?source=base&limit=200');
    expect(real.map((e) => e.nif).sort()).toEqual([...named].sort());
  });

  it('OCDS releases carry synthetic through the extension every package names, served by the service', async () => {
    const demo = (await t.get('/v1/procurement/ocds/releases?source=demo&limit=5')).json;
    expect(demo.releases.every((r: any) => r.synthetic === true)).toBe(true);
    const real = (await t.get('/v1/procurement/ocds/releases?source=base&limit=5')).json;
    expect(real.releases.every((r: any) => r.synthetic === false)).toBe(true);
    const extension = demo.extensions.find((u: string) => u.includes('/ocds/extensions/synthetic/'));
    const meta = await t.get(new URL(extension).pathname);
    expect(meta.status).toBe(200);
    expect(meta.json).toMatchObject({ compatibility: ['1.1'], schemas: ['release-schema.json'] });
    const patch = await t.get(new URL('release-schema.json', extension).pathname);
    expect(patch.json.properties.synthetic.type).toBe('boolean');
  });
});

describe('indicators, signals and cases', () => {
  it('demo series, snapshot rows, stats and municipality values are synthetic: true', async () => {
    const series = await items('/v1/indicators/population/series?municipality=lisboa');
    expect(series.length).toBeGreaterThan(0);
    expect(series.every((p) => p.synthetic === true)).toBe(true);
    expect((await items('/v1/indicators/population/snapshot?limit=10')).every((r) => r.synthetic === true)).toBe(true);
    expect((await t.get('/v1/indicators/population/stats')).json.synthetic).toBe(true);
    expect((await t.get('/v1/indicators/population/medians')).json.every((p: any) => p.synthetic === true)).toBe(true);
    expect((await t.get('/v1/municipalities/lisboa/indicators')).json.every((v: any) => v.synthetic === true)).toBe(
      true,
    );
    expect((await items('/v1/indicators')).every((i) => i.synthetic === true)).toBe(true);
  });

  it('signals from demo data are synthetic with [demo] titles; those of the real sample are not', async () => {
    const signals = await items('/v1/signals?family=procurement&limit=200');
    const demo = signals.filter((s) => s.synthetic);
    expect(demo.length).toBeGreaterThan(0);
    expect(demo.every((s) => s.title_pt.startsWith('[demo] ') && s.title_en.startsWith('[demo] '))).toBe(true);
    const real = (await items('/v1/signals?type=direct_award_high_value&limit=200')).filter((s) => !s.synthetic);
    expect(real.length).toBeGreaterThan(0);
    expect(real.every((s) => !s.title_pt.startsWith('[demo]'))).toBe(true);
    const detail = (await t.get(`/v1/signals/${demo[0].id}`)).json;
    expect(detail.synthetic).toBe(true);
    const cases = await items('/v1/signal-cases?limit=50');
    expect(cases.filter((c) => c.synthetic).every((c) => c.title_pt === null || c.title_pt.startsWith('[demo] '))).toBe(
      true,
    );
  });

  it('alert matches say synthetic', async () => {
    const res = await t.get('/v1/alert-matches?limit=50', { key: demoKey });
    expect(res.status, res.body).toBe(200);
    const matches = res.json.items as any[];
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.every((m) => typeof m.synthetic === 'boolean')).toBe(true);
    expect(matches.some((m) => m.synthetic)).toBe(true);
  });
});

describe('the sources operation and the words', () => {
  it('lists base (50 real contracts, public domain) and the demo (synthetic), free of quota', async () => {
    const before = (await t.get('/v1/me')).json;
    expect(before.sources_url).toMatch(/\/v1\/sources$/);
    const sources = await items('/v1/sources');
    const base = sources.find((s) => s.key === 'base');
    expect(base).toMatchObject({ kind: 'procurement', synthetic: false, records: { contracts: 50 } });
    expect(base.licence).toContain('other-pd');
    expect(base.last_imported_at).not.toBeNull();
    expect(sources.find((s) => s.key === 'demo')).toMatchObject({ kind: 'procurement', synthetic: true });
    const series = sources.find((s) => s.kind === 'indicators');
    expect(series).toMatchObject({ synthetic: true });
    expect(series.indicators).toContain('population');
    const after = (await t.get('/v1/me')).json;
    expect(after.usage.requests_this_month).toBe(before.usage.requests_this_month);
  });

  it('/docs says in words which data is real and which generated, and points to /v1/sources', async () => {
    const page = await t.get('/docs');
    expect(page.body).toContain('Real data where a public copy exists, generated data elsewhere.');
    expect(page.body).toMatch(/<td>real data<\/td><td><code>crime_rate<\/code><\/td>/);
    expect(page.body).toContain('<td>generated data</td>');
    expect(page.body).toContain('/v1/sources');
  });
});
