/**
 * `munidata demo remove` (docs/data.md, "Real and synthetic data"): on a copy of the demo store with the real
 * BASE sample imported and detected beside it, every generated record goes — procurement, series, signals, cases,
 * matches — and the real contracts, their signals, the figures derived from them, accounts, keys, rules and usage
 * stay as they were. Runs on both stores (MUNIDATA_TEST_BACKEND=postgres for PostgreSQL).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDetection } from '../src/detect/run-detection.js';
import { importBaseContracts } from '../src/ingest/base/import-base.js';
import type { DemoRemovalSummary } from '../src/store/shared/demo-removal.js';
import type { Store } from '../src/store/store.js';
import { everySignal } from './helpers/every-signal.js';
import { copyDemoStore } from './helpers/test-app.js';

const SAMPLE_TEXT = readFileSync(new URL('fixtures/base-contracts-sample.json', import.meta.url), 'utf8');
const SAMPLE: { idcontrato: string; precoContratual: number; adjudicante: string[] }[] = JSON.parse(SAMPLE_TEXT);
const NOW = new Date();

describe('demo remove', () => {
  let store: Store;
  let removed: DemoRemovalSummary;
  let realSignalsBefore: string[];
  let before: {
    accounts: unknown;
    keys: unknown;
    rules: unknown;
    usage: number;
    period: string;
    demoContracts: number;
  };

  beforeAll(async () => {
    store = copyDemoStore().store;
    const report = await importBaseContracts(store, SAMPLE_TEXT, {
      format: 'json',
      fileName: 'sample.json',
      now: NOW.toISOString(),
    });
    expect(report.accepted).toBe(50);
    await store.refreshProcurementRollups();
    await runDetection(store, { now: NOW });
    const accounts = await store.listAccounts();
    const period = NOW.toISOString().slice(0, 7);
    await store.addUsage([{ accountId: accounts[0].id, period, count: 7 }]);
    realSignalsBefore = (await everySignal(store))
      .map((s) => s.key)
      .filter((k) => k.startsWith('procurement:') && k.includes(':base:'))
      .sort();
    before = {
      accounts,
      keys: await store.listApiKeys(accounts[0].id),
      rules: await store.listAlertRules({ accountId: accounts[0].id }, { limit: 1000 }),
      usage: await store.getUsage(accounts[0].id, period),
      period,
      demoContracts: (await store.aggregateContracts({ groupBy: [], source: 'demo' })).totals.count,
    };
    expect(realSignalsBefore.length).toBeGreaterThan(5);
    expect(before.demoContracts).toBeGreaterThan(1000);
    removed = await store.removeDemoData();
  }, 300_000);

  it('reports what it deleted', () => {
    expect(removed.contracts).toBe(before.demoContracts);
    expect(removed.announcements).toBeGreaterThan(0);
    expect(removed.amendments).toBeGreaterThan(0);
    expect(removed.observations).toBeGreaterThan(0);
    expect(removed.indicators.length).toBeGreaterThan(10);
    expect(removed.signals).toBeGreaterThan(0);
    expect(removed.cases).toBeGreaterThan(0);
    expect(removed.entities).toBeGreaterThan(0);
  });

  it('leaves only the real contracts, and no demo notice or amendment', async () => {
    const contracts = await store.listContracts({}, { limit: 1000 });
    expect(contracts.map((c) => c.source_id).sort()).toEqual(SAMPLE.map((r) => r.idcontrato).sort());
    expect(await store.listAnnouncements({ order: 'published', source: 'demo' }, { limit: 10 })).toEqual([]);
    expect(await store.listAmendments({ source: 'demo' }, { limit: 10 })).toEqual([]);
  });

  it('keeps the aggregate exact: the rollups now count the 50 real contracts and their euros', async () => {
    const total = SAMPLE.reduce((sum, r) => sum + Math.round(r.precoContratual * 100), 0) / 100;
    for (const groupBy of [['year'], ['municipality'], ['cpv_division']] as const) {
      const answer = await store.aggregateContracts({ groupBy });
      expect(answer.totals.count).toBe(50);
      expect(answer.totals.total_eur).toBeCloseTo(total, 2);
    }
  });

  it('keeps the real signals and deletes every demo signal, case and match', async () => {
    const signals = await everySignal(store);
    expect(signals.every((s) => !s.key.includes(':demo:') && !s.title_pt?.startsWith('[demo]'))).toBe(true);
    const real = signals
      .map((s) => s.key)
      .filter((k) => k.startsWith('procurement:'))
      .sort();
    expect(real).toEqual(realSignalsBefore);
    const cases = await store.listCases({ includeEpisodic: true }, { limit: 1000 });
    expect(cases.every((c) => !c.key.startsWith('procurement:demo:'))).toBe(true);
    const account = (before.accounts as { id: number }[])[0];
    const matches = await store.listAlertMatches(
      { accountId: account.id, since: '1970-01-01T00:00:00Z' },
      { limit: 1000 },
    );
    const left = new Set(signals.map((s) => `signal:${s.id}`));
    expect(matches.every((m) => !m.item_key.startsWith('signal:') || left.has(m.item_key))).toBe(true);
  });

  it('removes the demo series: the indicators stay in the catalogue, with no source and no points', async () => {
    expect(await store.countObservations()).toBe(0);
    const indicators = await store.listIndicators();
    for (const key of removed.indicators) expect(indicators.find((i) => i.key === key)?.source).toBeNull();
  });

  it('recomputes the entities’ totals from the real contracts only', async () => {
    const sintra = SAMPLE.filter((r) => r.adjudicante[0].startsWith('500051062'));
    const entity = await store.getEntity('500051062');
    expect(entity?.contracts_as_buyer).toBe(sintra.length);
    expect(entity?.total_as_buyer_eur).toBeCloseTo(
      sintra.reduce((s, r) => s + r.precoContratual, 0),
      2,
    );
  });

  it('leaves accounts, keys, alert rules and usage untouched', async () => {
    const accounts = await store.listAccounts();
    expect(accounts).toEqual(before.accounts);
    expect(await store.listApiKeys(accounts[0].id)).toEqual(before.keys);
    expect(await store.listAlertRules({ accountId: accounts[0].id }, { limit: 1000 })).toEqual(before.rules);
    expect(await store.getUsage(accounts[0].id, before.period)).toBe(before.usage);
  });

  it('is idempotent: a second removal deletes nothing', async () => {
    const again = await store.removeDemoData();
    expect(again).toMatchObject({
      contracts: 0,
      announcements: 0,
      amendments: 0,
      observations: 0,
      signals: 0,
      cases: 0,
      alert_matches: 0,
    });
  });
});
