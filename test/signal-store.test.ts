/**
 * The SQLite store of the change journal, signals, cases and alerts: journal entries for exactly the records a
 * write inserted or changed, idempotent signal writes that link signals to cases, the case queue, every filter
 * and keyset paging of the lists (checked against answers computed here over the whole set, and by their query
 * plans: one index walked in order, never a sort of the whole table), and matches recorded once per rule and item.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnstorableTextError } from '../src/lib/storable-text.js';
import type { CaseRelationship } from '../src/lib/vocabulary.js';
import type { KeysetPage } from '../src/store/procurement-queries.js';
import { CASE_SIGNAL, MATCHABLE_SIGNAL } from '../src/store/shared/signal-rows.js';
import type { AlertMatchFilter, CaseFilter, InstantPosition, SignalFilter } from '../src/store/signal-queries.js';
import type {
  AlertMatchInput,
  AlertMatchRecord,
  AlertRuleInput,
  CaseFields,
  CaseRecord,
  ChangeEntry,
  SignalCaseRef,
  SignalInput,
  SignalRecord,
} from '../src/store/signal-records.js';
import { alertMatchQuery } from '../src/store/signals/alert-matches.js';
import { caseQuery } from '../src/store/signals/case-read.js';
import { type InstantQuery, instantPageSql } from '../src/store/signals/instant-keyset.js';
import { signalQuery } from '../src/store/signals/signal-list.js';
import { SQLITE_DIALECT } from '../src/store/sqlite/connection.js';
import type { Store } from '../src/store/store.js';
import { onPostgres } from './helpers/backend.js';
import { anUpdatedAt } from './helpers/expectations.js';
import { buildFixture } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { copyDemoStore } from './helpers/test-app.js';

const NOW = '2025-07-01T10:00:00Z';
const LATER = '2025-07-02T08:30:00Z';

/** A signal of a procedure's case, with every field set; `overrides` change what a test needs. */
function signal(n: number, overrides: Partial<SignalInput> = {}): SignalInput {
  return {
    key: `procurement:tender_open:fixture:${n}`,
    origin: 'detector',
    type: 'tender_open',
    family: 'procurement',
    municipality_id: 1 + (n % 8),
    title_pt: `Concurso ${n}`,
    title_en: `Tender ${n}`,
    summary_pt: `Resumo ${n}`,
    summary_en: `Summary ${n}`,
    why_it_matters_pt: 'Porque sim',
    why_it_matters_en: 'Because',
    next_step_pt: 'Ler o caderno de encargos',
    stage: 'open',
    status: 'active',
    value_tier: 'medium',
    confidence: 0.8,
    deadline_date: '2025-07-20',
    event_date: '2025-06-20',
    amount_eur: 120_000,
    location_text: 'Lisboa',
    actionability: 'prepare',
    evidence: [
      {
        source_type: 'procurement_announcement',
        source_url: `https://example.test/a/${n}`,
        source_title: `Anúncio ${n}`,
        source_date: '2025-06-20',
        excerpt_pt: 'Excerto',
        confidence: 0.9,
      },
    ],
    subject: { cpv: ['45233140'], nifs: ['501306099'], indicator: null, indicator_value: null },
    case: caseRef(n),
    ...overrides,
  };
}

/** The case of signal(n): one procurement procedure. */
function caseRef(n: number, relationship: CaseRelationship = 'origin'): SignalCaseRef {
  return { key: `procurement:fixture:procedure:P-${n}`, type: 'tender_open', family: 'procurement', relationship };
}

/** The fields of a record that a write stores as given (everything but identity, times and case). */
function fieldsOf(record: SignalRecord): Omit<SignalInput, 'case'> {
  const { id: _id, first_seen_at: _f, last_seen_at: _l, updated_at: _u, case_id: _c, ...fields } = record;
  return fields;
}

function pick<T extends object>(record: T, keys: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, record[k]])) as Partial<T>;
}

function withoutCase(input: SignalInput): Omit<SignalInput, 'case'> {
  const { case: _case, ...fields } = input;
  return fields;
}

async function changesSince(store: Store, seq: number): Promise<ChangeEntry[]> {
  return store.readChanges(seq, 1_000_000);
}

describe('the change journal', () => {
  let store: Store;
  beforeAll(async () => {
    ({ store } = await freshStore());
  });
  afterAll(() => store.close());

  it('is empty on a fresh store', async () => {
    expect(await store.lastChangeSeq()).toBe(0);
    expect(await store.readChanges(0, 10)).toEqual([]);
  });

  it('gets one entry per procurement record inserted, with its date, and none for unchanged ones', async () => {
    const fixture = buildFixture({ contracts: 120, today: '2025-07-01' });
    await store.writeProcurement(fixture);
    const entries = await changesSince(store, 0);
    const byKind = (kind: string) => entries.filter((e) => e.kind === kind);
    expect(byKind('contract')).toHaveLength(120);
    expect(byKind('announcement')).toHaveLength(60);
    expect(byKind('amendment')).toHaveLength(fixture.amendments.length);
    expect(entries).toHaveLength(120 + 60 + fixture.amendments.length);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(await store.lastChangeSeq()).toBe(entries.length);

    const contracts = await store.getContracts(byKind('contract').map((e) => e.id));
    expect(contracts.map((c) => c.source_id)).toEqual(fixture.contracts.map((c) => c.source_id));
    expect(byKind('contract').map((e) => e.date)).toEqual(fixture.contracts.map((c) => c.published_on));
    expect(byKind('contract').some((e) => e.date === null)).toBe(true); // the fixture has contracts without a date
    expect((await store.getContracts([contracts[3].id, 999_999, contracts[1].id])).map((c) => c.id)).toEqual([
      contracts[3].id,
      contracts[1].id,
    ]);
    const amendments = await store.getAmendments(byKind('amendment').map((e) => e.id));
    expect(await store.getAmendments([999_999, amendments[2].id])).toEqual([amendments[2]]);
    expect(amendments[2]).toEqual(
      (await store.contractAmendments([amendments[2].contract_id])).find((a) => a.id === amendments[2].id),
    );
    expect(amendments.map((a) => a.source_id)).toEqual(fixture.amendments.map((a) => a.source_id));
    expect(byKind('amendment').map((e) => e.date)).toEqual(fixture.amendments.map((a) => a.date));
    const announcements = await store.getAnnouncements(byKind('announcement').map((e) => e.id));
    expect(announcements.map((a) => a.published_on)).toEqual(fixture.announcements.map((a) => a.published_on));
    expect(entries.every((e) => e.key === null)).toBe(true);

    const last = await store.lastChangeSeq();
    await store.writeProcurement(fixture);
    expect(await changesSince(store, last)).toEqual([]);

    const changed = { ...fixture.contracts[5], price_eur: 1234.5 };
    const amendment = { ...fixture.amendments[1], reason: 'Outra razão' };
    await store.writeProcurement({ contracts: [changed, fixture.contracts[6]], amendments: [amendment] });
    const [contractEntry, amendmentEntry, ...rest] = await changesSince(store, last);
    expect(rest).toEqual([]);
    expect(contractEntry).toMatchObject({
      seq: last + 1,
      kind: 'contract',
      id: contracts[5].id,
      key: null,
      date: changed.published_on,
    });
    expect(amendmentEntry).toMatchObject({
      seq: last + 2,
      kind: 'amendment',
      id: amendments[1].id,
      date: amendment.date,
    });
  });

  it('names in a changed contract’s entry the buyers it no longer has, and only those', async () => {
    const [a, b] = buildFixture({ contracts: 40, today: '2025-07-01' }).contracts.filter((c) => c.buyers.length === 1);
    const [buyerA, buyerB] = [a.buyers[0], b.buyers[0]];
    expect(buyerA.nif).not.toBe(buyerB.nif);
    const contract = { ...a, source_id: 'buyer-moves' };
    const entryOf = async (input: typeof contract) => {
      const last = await store.lastChangeSeq();
      await store.writeProcurement({ contracts: [input] });
      const entries = await changesSince(store, last);
      expect(entries).toHaveLength(1);
      return entries[0];
    };
    expect((await entryOf(contract)).key).toBeNull(); // new: it had no buyer before
    expect((await entryOf({ ...contract, buyers: [buyerA, buyerB] })).key).toBeNull(); // made joint: A kept
    expect((await entryOf({ ...contract, buyers: [buyerB] })).key).toBe(buyerA.nif);
    expect((await entryOf({ ...contract, buyers: [buyerB], price_eur: 1 })).key).toBeNull(); // B kept
  });

  it('reads entries after a position, in order, a page at a time', async () => {
    const all = await changesSince(store, 0);
    const pages: ChangeEntry[] = [];
    for (let after = 0; ; ) {
      const page = await store.readChanges(after, 17);
      if (page.length === 0) break;
      pages.push(...page);
      after = page[page.length - 1].seq;
    }
    expect(pages).toEqual(all);
    expect(await store.readChanges(all[10].seq, 3)).toEqual(all.slice(11, 14));
  });

  it('keeps watermarks by name', async () => {
    expect(await store.getWatermark('detect:procurement')).toBeNull();
    await store.setWatermark('detect:procurement', '42');
    await store.setWatermark('detect:sweep', '2025-07-01');
    await store.setWatermark('detect:procurement', '43');
    expect(await store.getWatermark('detect:procurement')).toBe('43');
    expect(await store.getWatermark('detect:sweep')).toBe('2025-07-01');
  });
});

describe('the change journal of observations', () => {
  let store: Store;
  beforeAll(() => {
    ({ store } = copyDemoStore());
  });
  afterAll(() => store.close());

  it('gets one entry per municipality whose observations of an indicator changed, with the latest date', async () => {
    const point = (municipality_id: number, reference_date: string, value: number) => ({
      municipality_id,
      reference_date,
      value,
      treatment: 'raw' as const,
    });
    const rows = [point(1, '2030-12-31', 9.1), point(1, '2031-12-31', 9.2), point(2, '2030-12-31', 7.7)];
    const last = await store.lastChangeSeq();
    await store.writeObservations('birth_rate', rows);
    expect(await changesSince(store, last)).toEqual([
      { seq: last + 1, kind: 'observation', id: 1, key: 'birth_rate', date: '2031-12-31' },
      { seq: last + 2, kind: 'observation', id: 2, key: 'birth_rate', date: '2030-12-31' },
    ]);

    await store.writeObservations('birth_rate', rows);
    expect(await store.lastChangeSeq()).toBe(last + 2);

    await store.writeObservations('birth_rate', [point(1, '2030-12-31', 9.1), point(2, '2030-12-31', 7.8)]);
    expect(await changesSince(store, last + 2)).toEqual([
      { seq: last + 3, kind: 'observation', id: 2, key: 'birth_rate', date: '2030-12-31' },
    ]);
  });

  it('gets an entry for a municipality whose observations a replacing write removed', async () => {
    const [indicator] = await store.listIndicators();
    await store.saveIndicators([{ ...indicator, key: 'journal_test' }]);
    const point = (municipality_id: number, reference_date: string) => ({
      municipality_id,
      reference_date,
      value: 1,
      treatment: 'raw' as const,
    });
    await store.writeObservations('journal_test', [
      point(1, '2020-12-31'),
      point(2, '2020-12-31'),
      point(2, '2021-12-31'),
    ]);
    const last = await store.lastChangeSeq();
    await store.writeObservations('journal_test', [point(1, '2020-12-31'), point(2, '2020-12-31')], { replace: true });
    expect(await changesSince(store, last)).toEqual([
      { seq: last + 1, kind: 'observation', id: 2, key: 'journal_test', date: '2021-12-31' },
    ]);
  });
});

describe('writing signals', () => {
  let store: Store;
  beforeAll(async () => {
    ({ store } = await freshStore());
  });
  afterAll(() => store.close());

  it('inserts new signals with their case, a journal entry each, and a new data version', async () => {
    const version = await store.dataVersion();
    const signals = [signal(1), signal(2), signal(3, { case: caseRef(1, 'update') })];
    expect(await store.writeSignals({ signals, now: NOW })).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(await store.dataVersion()).toBeGreaterThan(version);

    const records = await store.getSignalsByKeys(signals.map((s) => s.key));
    expect(records.map(fieldsOf)).toEqual(signals.map(withoutCase));
    expect(records.every((r) => r.first_seen_at === NOW && r.last_seen_at === NOW)).toBe(true);
    const caseOne = await store.findCaseId(caseRef(1).key);
    expect(caseOne).toBeDefined();
    expect(records.map((r) => r.case_id)).toEqual([caseOne, await store.findCaseId(caseRef(2).key), caseOne]);
    expect(await store.getSignals([records[2].id, 999_999, records[0].id])).toEqual([records[2], records[0]]);
    // The alert matcher's lighter read: the same signals, each with the matcher's fields as the whole record has them.
    const matcherReads = (r: (typeof records)[number]) =>
      Object.fromEntries(MATCHABLE_SIGNAL.columns.map((c) => [c, r[c]]));
    expect(await store.getMatchableSignals([records[2].id, 999_999, records[0].id])).toEqual(
      [records[2], records[0]].map(matcherReads),
    );
    expect(await store.getSignal(records[1].id)).toEqual(records[1]);

    expect(await changesSince(store, 0)).toEqual(
      records.map((r, i) => ({ seq: i + 1, kind: 'signal', id: r.id, key: null, date: '2025-07-01' })),
    );
  });

  it('finds the same input unchanged: no write, no journal entry, no pending mark, the same data version', async () => {
    await store.saveCases(
      (await store.pendingCases(100)).map((c) => ({ id: c.id, fields: caseFields(c.signals.length), events: [] })),
    );
    const seq = await store.lastChangeSeq();
    const version = await store.dataVersion();
    // Evidence and subject written with their keys in another order are the same signal.
    const reordered = signal(2, {
      evidence: [
        {
          confidence: 0.9,
          excerpt_pt: 'Excerto',
          source_date: '2025-06-20',
          source_title: 'Anúncio 2',
          source_url: 'https://example.test/a/2',
          source_type: 'procurement_announcement',
        },
      ],
      subject: { indicator_value: null, indicator: null, nifs: ['501306099'], cpv: ['45233140'] },
    });
    const again = [signal(1), reordered, signal(3, { case: caseRef(1, 'update') })];
    expect(await store.writeSignals({ signals: again, now: LATER })).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(await store.lastChangeSeq()).toBe(seq);
    expect(await store.dataVersion()).toBe(version);
    expect(await store.pendingCases(100)).toEqual([]);
    expect((await store.getSignalsByKeys([signal(1).key]))[0].last_seen_at).toBe(NOW);
  });

  it('updates a changed signal: last seen now, first seen kept, one journal entry, its case pending', async () => {
    const seq = await store.lastChangeSeq();
    const changed = signal(2, { confidence: 0.95, evidence: [] });
    expect(await store.writeSignals({ signals: [signal(1), changed], now: LATER })).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 1,
    });
    const [record] = await store.getSignalsByKeys([changed.key]);
    expect(fieldsOf(record)).toEqual(withoutCase(changed));
    expect(record.first_seen_at).toBe(NOW);
    expect(record.last_seen_at).toBe(LATER);
    expect(await changesSince(store, seq)).toEqual([
      { seq: seq + 1, kind: 'signal', id: record.id, key: null, date: '2025-07-02' },
    ]);
    expect((await store.pendingCases(100)).map((c) => c.id)).toEqual([record.case_id]);
  });

  it('moves a signal whose case key changed, and marks both cases pending', async () => {
    await store.saveCases(
      (await store.pendingCases(100)).map((c) => ({ id: c.id, fields: caseFields(c.signals.length), events: [] })),
    );
    const caseOne = (await store.findCaseId(caseRef(1).key)) as number;
    const moved = signal(3, { case: caseRef(2, 'related') });
    expect(await store.writeSignals({ signals: [moved], now: LATER })).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    const caseTwo = (await store.findCaseId(caseRef(2).key)) as number;
    const pending = await store.pendingCases(100);
    expect(pending.map((c) => c.id)).toEqual([caseOne, caseTwo]);
    expect(pending[0].signals.map((s) => s.signal.key)).toEqual([signal(1).key]);
    expect(pending[1].signals.map((s) => [s.signal.key, s.relationship])).toEqual([
      [signal(2).key, 'origin'],
      [signal(3).key, 'related'],
    ]);
    expect((await store.getSignalsByKeys([moved.key]))[0].case_id).toBe(caseTwo);

    // Out of any case: unlinked, and the case it left is pending.
    await store.saveCases(pending.map((c) => ({ id: c.id, fields: caseFields(c.signals.length), events: [] })));
    await store.writeSignals({ signals: [signal(3, { case: null })], now: LATER });
    expect((await store.getSignalsByKeys([moved.key]))[0].case_id).toBeNull();
    const [left] = await store.pendingCases(100);
    expect(left.id).toBe(caseTwo);
    expect(left.signals.map((s) => s.signal.key)).toEqual([signal(2).key]);
  });

  it('writes a key met twice in one batch once, the second time as a change of the first', async () => {
    const seq = await store.lastChangeSeq();
    const summary = await store.writeSignals({
      signals: [signal(10), signal(10, { title_pt: 'Outro' }), signal(10, { title_pt: 'Outro' })],
      now: LATER,
    });
    expect(summary).toEqual({ inserted: 1, updated: 1, unchanged: 1 });
    expect((await store.getSignalsByKeys([signal(10).key]))[0].title_pt).toBe('Outro');
    expect(await changesSince(store, seq)).toHaveLength(2);
  });

  it('saves the watermark with the signals, and on any error writes neither', async () => {
    await store.writeSignals({
      signals: [signal(20)],
      now: LATER,
      watermark: { name: 'detect:procurement', value: '7' },
    });
    expect(await store.getWatermark('detect:procurement')).toBe('7');
    const seq = await store.lastChangeSeq();
    const version = await store.dataVersion();
    const bad = signal(22, { municipality_id: 9999 });
    await expect(
      store.writeSignals({
        signals: [signal(21), bad],
        now: LATER,
        watermark: { name: 'detect:procurement', value: '8' },
      }),
    ).rejects.toThrow(/foreign key/i);
    expect(await store.getWatermark('detect:procurement')).toBe('7');
    expect(await store.getSignalsByKeys([signal(21).key])).toEqual([]);
    expect(await store.findCaseId(caseRef(21).key)).toBeUndefined();
    expect(await store.lastChangeSeq()).toBe(seq);
    expect(await store.dataVersion()).toBe(version);
  });

  it('refuses a new signal holding a NUL, in a field or its evidence, and writes nothing of the batch', async () => {
    const seq = await store.lastChangeSeq();
    const evidence = signal(24).evidence.map((e) => ({ ...e, excerpt_pt: 'a\u0000b' }));
    const nulInEvidence = signal(24, { evidence });
    for (const bad of [signal(23, { title_pt: 'Concurso\u0000' }), nulInEvidence]) {
      await expect(store.writeSignals({ signals: [signal(25), bad], now: LATER })).rejects.toBeInstanceOf(
        UnstorableTextError,
      );
    }
    expect(await store.getSignalsByKeys([signal(23).key, signal(24).key, signal(25).key])).toEqual([]);
    expect(await store.findCaseId(caseRef(25).key)).toBeUndefined();
    expect(await store.lastChangeSeq()).toBe(seq);
  });
});

/** Computed fields of a case, as a detector would give them. */
function caseFields(sourceCount: number, overrides: Partial<CaseFields> = {}): CaseFields {
  return {
    municipality_id: 1,
    title_pt: 'Caso',
    summary_pt: null,
    current_stage: 'open',
    previous_stage: null,
    status: 'open',
    value_tier: 'medium',
    confidence: 0.8,
    source_count: sourceCount,
    deadline_date: null,
    amount_eur: null,
    location_text: null,
    event_date: null,
    first_seen_at: NOW,
    last_seen_at: NOW,
    ...overrides,
  };
}

/** Every page of a list, walked with `limit` from the start; fails if a page repeats a row (a broken keyset). */
async function walk<T extends { id: number }>(
  read: (page: KeysetPage<InstantPosition>) => Promise<T[]>,
  at: (row: T) => string,
  limit = 23,
): Promise<T[]> {
  const rows: T[] = [];
  let after: InstantPosition | undefined;
  for (;;) {
    const page = await read({ after, limit });
    rows.push(...page);
    if (page.length < limit) break;
    const last = page[page.length - 1];
    after = { at: at(last), id: last.id };
  }
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  return rows;
}

/** Newest first: the instant descending, then id descending. */
function newestFirst<T extends { id: number }>(at: (row: T) => string) {
  return (a: T, b: T) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : b.id - a.id);
}

/**
 * A page is its sources' index ranges read in list order and merged as they go: never a sort, never a scan of the
 * table.
 */
function expectIndexWalks(dbPath: string, queries: { name: string; query: InstantQuery }[]) {
  const db = new Database(dbPath, { readonly: true });
  try {
    for (const { name, query } of queries) {
      const { sources } = query;
      const { text, values } = instantPageSql(SQLITE_DIALECT, {
        ...query,
        page: { after: { at: '2025-06-15T00:00:00Z', id: 300 }, limit: 51 },
      });
      // `$1`, `$2`, … are parameters named "1", "2", … to SQLite (src/store/sqlite/connection.ts).
      const params = Object.fromEntries(
        values.map((value, i) => [i + 1, Array.isArray(value) ? JSON.stringify(value) : value]),
      );
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(params) as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
      expect(plan, `${name}: ${plan}`).not.toMatch(/TEMP B-TREE/);
      expect(plan.match(/USING (COVERING )?INDEX/g), `${name}: ${plan}`).toHaveLength(sources.length);
      if (sources.length > 1) expect(plan, `${name}: ${plan}`).toMatch(/MERGE \(UNION ALL\)/);
      // (a residual list of values, `IN (SELECT value FROM json_each(…))`, is scanned: it is the filter's values)
      expect(plan, `${name}: ${plan}`).not.toMatch(/SCAN [scm](?! USING)/);
    }
  } finally {
    db.close();
  }
}

describe('the case queue', () => {
  let store: Store;
  beforeAll(async () => {
    ({ store } = await freshStore());
  });
  afterAll(() => store.close());

  it('hands out new cases uncomputed, with their signals, and does not list or serve them', async () => {
    const origin = signal(1);
    const update = signal(2, { case: caseRef(1, 'update'), confidence: 0.6 });
    await store.writeSignals({ signals: [origin, update, signal(3)], now: NOW });
    const pending = await store.pendingCases(10);
    expect(pending.map((c) => [c.key, c.type, c.family, c.fields, c.events])).toEqual([
      [caseRef(1).key, 'tender_open', 'procurement', null, []],
      [caseRef(3).key, 'tender_open', 'procurement', null, []],
    ]);
    expect(pending[0].signals.map((s) => [s.signal.key, s.relationship])).toEqual([
      [origin.key, 'origin'],
      [update.key, 'update'],
    ]);
    // A pending case carries what it is computed from of each signal (CASE_SIGNAL), as written.
    const stored = (await store.getSignalsByKeys([update.key]))[0];
    expect(fieldsOf(stored)).toEqual(withoutCase(update));
    expect(pending[0].signals[1].signal).toEqual(pick(stored, CASE_SIGNAL.columns));
    expect(await store.pendingCases(1)).toHaveLength(1);
    expect(await store.listCases({ includeEpisodic: true }, { limit: 10 })).toEqual([]);
    expect(await store.getCase(pending[0].id)).toBeUndefined();
  });

  const savesComputedCases =
    'saves computed cases: listed, served with events oldest first and linked signals by id, no longer pending';
  it(savesComputedCases, async () => {
    const [procedure, single] = await store.pendingCases(10);
    const version = await store.dataVersion();
    const created = {
      event_type: 'created' as const,
      old_value: null,
      new_value: 'open',
      reason: 'Anúncio publicado',
      created_at: NOW,
    };
    await store.saveCases([
      {
        id: procedure.id,
        fields: caseFields(2, { amount_eur: 120_000, previous_stage: 'announced' }),
        events: [created],
      },
      { id: single.id, fields: caseFields(1, { last_seen_at: null }), events: [] },
    ]);
    expect(await store.dataVersion()).toBeGreaterThan(version);
    expect(await store.pendingCases(10)).toEqual([]);

    const detail = await store.getCase(procedure.id);
    const [first, second] = procedure.signals.map((s) => s.signal);
    expect(detail).toEqual({
      id: procedure.id,
      key: procedure.key,
      type: 'tender_open',
      family: 'procurement',
      ...caseFields(2, { amount_eur: 120_000, previous_stage: 'announced' }),
      updated_at: anUpdatedAt(),
      events: [created],
      linked_signals: [
        { signal_id: first.id, relationship: 'origin', title_pt: first.title_pt, confidence: 0.8 },
        { signal_id: second.id, relationship: 'update', title_pt: second.title_pt, confidence: 0.6 },
      ],
    });
    expect((await store.getCase(single.id))?.last_seen_at).toBeNull();
    expect((await store.listCases({ includeEpisodic: true }, { limit: 10 })).map((c) => c.id)).toEqual([
      procedure.id,
      single.id,
    ]);
    expect((await store.listCases({ includeEpisodic: false }, { limit: 10 })).map((c) => c.id)).toEqual([procedure.id]);

    // A later computation appends to the history, never rewrites it.
    await store.writeSignals({
      signals: [signal(2, { case: caseRef(1, 'update'), confidence: 0.7 })],
      now: LATER,
    });
    const [again] = await store.pendingCases(10);
    expect(again.fields).toEqual(caseFields(2, { amount_eur: 120_000, previous_stage: 'announced' }));
    expect(again.events).toEqual([created]);
    const moved = {
      event_type: 'amount_changed' as const,
      old_value: '120000',
      new_value: '130000',
      reason: null,
      created_at: LATER,
    };
    await store.saveCases([
      { id: again.id, fields: caseFields(2, { amount_eur: 130_000, last_seen_at: LATER }), events: [moved] },
    ]);
    const after = await store.getCase(again.id);
    expect(after?.events).toEqual([created, moved]);
    expect(after?.amount_eur).toBe(130_000);
  });

  it('keeps a case pending when a signal changed it after it was handed out', async () => {
    await store.writeSignals({
      signals: [signal(2, { case: caseRef(1, 'update'), confidence: 0.5 })],
      now: LATER,
    });
    const [handed] = await store.pendingCases(10);
    // Written meanwhile (by another detector, say): the computation handed out above does not include it.
    await store.writeSignals({ signals: [signal(4, { case: caseRef(1, 'related') })], now: LATER });
    await store.saveCases([{ id: handed.id, fields: caseFields(2), events: [] }]);
    const [still] = await store.pendingCases(10);
    expect(still.id).toBe(handed.id);
    expect(still.signals).toHaveLength(3);
    await store.saveCases([{ id: still.id, fields: caseFields(3), events: [] }]);
    expect(await store.pendingCases(10)).toEqual([]);
  });

  it('finds case ids by key', async () => {
    expect(await store.findCaseId(caseRef(3).key)).toBe((await store.getSignalsByKeys([signal(3).key]))[0].case_id);
    expect(await store.findCaseId('no:such:case')).toBeUndefined();
  });
});

describe('listing signals and cases', () => {
  let store: Store;
  let dbPath: string;
  let signals: SignalRecord[];
  const cases = new Map<number, CaseRecord>();
  const TYPES = [
    ['tender_open', 'procurement'],
    ['contract_awarded', 'procurement'],
    ['indicator_jump', 'indicators'],
  ] as const;
  const TIERS = [null, 'small', 'medium', 'large', 'very_large'] as const;
  const INSTANTS = [
    '2025-06-01T08:00:00Z',
    '2025-06-03T12:00:00Z',
    '2025-06-10T09:30:00Z',
    '2025-06-20T18:45:00Z',
    '2025-07-01T10:00:00Z',
  ];
  const COUNT = 700;

  /** Types, municipalities (some none), confidences, tiers and cases (of one to three signals, or none) spread out. */
  function listed(n: number, overrides: Partial<SignalInput> = {}): SignalInput {
    const [type, family] = TYPES[n % 3];
    const group = n < 300 ? Math.floor(n / 3) : n;
    return signal(n, {
      key: `${family}:${type}:fixture:${n}`,
      type,
      family,
      municipality_id: n % 13 === 0 ? null : 1 + ((n * 7) % 12),
      confidence: ((n * 37) % 101) / 100,
      value_tier: TIERS[n % 5],
      case:
        n % 9 === 4
          ? null
          : { key: `${family}:case:${group}`, type, family, relationship: n === group * 3 ? 'origin' : 'update' },
      ...overrides,
    });
  }

  beforeAll(async () => {
    ({ store, dbPath } = await freshStore());
    // Five detection runs at five instants (many signals share one), then a run that changes some of them.
    for (const [i, now] of INSTANTS.entries()) {
      const batch = Array.from({ length: COUNT }, (_, n) => n).filter((n) => n % 5 === i);
      await store.writeSignals({ signals: batch.map((n) => listed(n)), now });
    }
    const changed = Array.from({ length: COUNT }, (_, n) => n).filter((n) => n % 17 === 0);
    await store.writeSignals({
      signals: changed.map((n) => listed(n, { confidence: 0.99 })),
      now: '2025-07-05T00:00:00Z',
    });
    signals = await store.getSignals(Array.from({ length: COUNT }, (_, i) => i + 1));
    expect(signals).toHaveLength(COUNT);

    // The cases, computed as a detector would (from their signals), then new ones that stay uncomputed.
    for (const pending of await store.pendingCases(COUNT)) {
      const linked = pending.signals.map((s) => s.signal);
      const fields = caseFields(linked.length, {
        municipality_id: linked[0].municipality_id,
        last_seen_at:
          linked
            .map((s) => s.last_seen_at)
            .sort()
            .pop() ?? null,
      });
      await store.saveCases([{ id: pending.id, fields, events: [] }]);
      cases.set(pending.id, {
        id: pending.id,
        key: pending.key,
        type: pending.type,
        family: pending.family,
        ...fields,
        updated_at: (await store.getCase(pending.id))?.updated_at ?? '',
      });
    }
    await store.writeSignals({ signals: [COUNT, COUNT + 1].map((n) => listed(n)), now: '2025-07-06T00:00:00Z' });
  });
  afterAll(() => store.close());

  const signalFilters: [string, SignalFilter][] = [
    ['no filter', {}],
    ['one municipality', { municipalityIds: [3] }],
    ['several municipalities, one twice', { municipalityIds: [3, 5, 11, 3] }],
    ['one type', { types: ['contract_awarded'] }],
    ['two types', { types: ['tender_open', 'indicator_jump'] }],
    ['family', { family: 'indicators' }],
    ['family and type', { family: 'procurement', types: ['tender_open', 'indicator_jump'] }],
    ['minimum confidence', { minConfidence: 0.7 }],
    ['value tier', { valueTier: 'large' }],
    ['since', { since: INSTANTS[3] }],
    ['since the changed ones', { since: '2025-07-05T00:00:00Z' }],
    [
      'everything at once',
      {
        municipalityIds: [2, 4, 9],
        types: ['tender_open', 'contract_awarded'],
        family: 'procurement',
        minConfidence: 0.3,
        valueTier: 'medium',
        since: INSTANTS[1],
      },
    ],
  ];

  function signalMatches(s: SignalRecord, f: SignalFilter): boolean {
    return (
      (!f.municipalityIds || f.municipalityIds.includes(s.municipality_id as number)) &&
      (!f.types || f.types.includes(s.type)) &&
      (f.family === undefined || s.family === f.family) &&
      (f.minConfidence === undefined || s.confidence >= f.minConfidence) &&
      (f.valueTier === undefined || s.value_tier === f.valueTier) &&
      (f.since === undefined || s.last_seen_at >= f.since)
    );
  }

  for (const [name, filter] of signalFilters) {
    it(`lists exactly the matching signals, newest first, over every page: ${name}`, async () => {
      const all = await store.getSignals(Array.from({ length: COUNT + 2 }, (_, i) => i + 1));
      const expected = all.filter((s) => signalMatches(s, filter)).sort(newestFirst((s) => s.last_seen_at));
      expect(expected.length, 'the case selects something').toBeGreaterThan(0);
      const got = await walk(
        (page) => store.listSignals(filter, page),
        (s) => s.last_seen_at,
      );
      expect(got.map((s) => s.id)).toEqual(expected.map((s) => s.id));
      expect(got).toEqual(expected);
    });
  }

  it('orders a changed signal by when it changed, and keeps when it was first seen', () => {
    const n = (s: SignalRecord) => Number(s.key.split(':').pop());
    const changed = signals.filter((s) => n(s) % 17 === 0);
    expect(changed).toHaveLength(Math.ceil(COUNT / 17));
    for (const s of changed) {
      expect([s.last_seen_at, s.confidence, s.first_seen_at]).toEqual([
        '2025-07-05T00:00:00Z',
        0.99,
        INSTANTS[n(s) % 5],
      ]);
    }
    const others = signals.filter((s) => n(s) % 17 !== 0);
    expect(others.every((s) => s.first_seen_at === INSTANTS[n(s) % 5] && s.last_seen_at === s.first_seen_at)).toBe(
      true,
    );
  });

  const caseFilters: [string, CaseFilter][] = [
    ['with episodic cases', { includeEpisodic: true }],
    ['without episodic cases', { includeEpisodic: false }],
    ['family, episodic', { family: 'indicators', includeEpisodic: true }],
    ['family', { family: 'procurement', includeEpisodic: false }],
    ['municipalities, episodic', { municipalityIds: [1, 6, 12], includeEpisodic: true }],
    ['municipalities', { municipalityIds: [1, 6, 12], includeEpisodic: false }],
    ['municipalities and family', { municipalityIds: [2, 8], family: 'procurement', includeEpisodic: true }],
  ];

  for (const [name, filter] of caseFilters) {
    it(`lists exactly the matching computed cases, newest first, over every page: ${name}`, async () => {
      const expected = [...cases.values()]
        .filter(
          (c) =>
            (filter.includeEpisodic || c.source_count > 1) &&
            (filter.family === undefined || c.family === filter.family) &&
            (!filter.municipalityIds || filter.municipalityIds.includes(c.municipality_id as number)),
        )
        .sort(newestFirst((c) => c.last_seen_at ?? ''));
      expect(expected.length, 'the case selects something').toBeGreaterThan(0);
      const got = await walk(
        (page) => store.listCases(filter, page),
        (c) => c.last_seen_at ?? '',
        17,
      );
      expect(got).toEqual(expected);
    });
  }

  it('leaves out cases never computed', async () => {
    const uncomputed = await store.pendingCases(10);
    expect(uncomputed.length).toBe(2);
    const listed = await walk(
      (page) => store.listCases({ includeEpisodic: true }, page),
      (c) => c.last_seen_at ?? '',
      200,
    );
    expect(listed).toHaveLength(cases.size);
    expect(listed.some((c) => uncomputed.some((u) => u.id === c.id))).toBe(false);
  });

  // The SQLite store's query plans (its indexes named in each source); PostgreSQL plans its own.
  it.skipIf(onPostgres)('plans every list as ordered index ranges', () => {
    expectIndexWalks(dbPath, [
      ...signalFilters.map(([name, filter]) => ({ name, query: signalQuery(SQLITE_DIALECT, filter, { limit: 51 }) })),
      ...caseFilters.map(([name, filter]) => ({ name, query: caseQuery(SQLITE_DIALECT, filter, { limit: 51 }) })),
    ]);
  });
});

describe('alert templates, rules and matches', () => {
  let store: Store;
  let dbPath: string;
  let alice: number;
  let bob: number;

  const rule = (account_id: number, name: string, overrides: Partial<AlertRuleInput> = {}): AlertRuleInput => ({
    account_id,
    name,
    matcher_type: 'keyword',
    params: { keywords: ['escola', 'obras públicas'] },
    source_types: ['signal', 'procurement_contract'],
    municipality_ids: [1, 5],
    target_scope: 'municipalities',
    district: null,
    template_id: null,
    now: NOW,
    ...overrides,
  });

  const match = (rule_id: number, n: number, overrides: Partial<AlertMatchInput> = {}): AlertMatchInput => ({
    rule_id,
    item_key: `signal:${n}`,
    source_type: 'signal',
    municipality_id: n % 11 === 0 ? null : 1 + (n % 6),
    score: 0.5 + (n % 5) / 10,
    title: `Item ${n}`,
    snippet: `… escola ${n} …`,
    link: `https://example.test/s/${n}`,
    matched_at: ['2025-06-01T08:00:00Z', '2025-06-15T12:00:00Z', '2025-07-01T10:00:00Z', '2025-07-01T10:00:05Z'][n % 4],
    case_id: null,
    judge:
      n % 3 === 0
        ? null
        : {
            is_direct_action: n % 2 === 0,
            action_type: 'tender',
            why_pt: 'Porque',
            why_en: 'Because',
            confidence: 0.7,
          },
    ...overrides,
  });

  beforeAll(async () => {
    ({ store, dbPath } = await freshStore());
    alice = (await store.createAccount({ name: 'Alice Lda', plan_code: 'premium', beta: false, now: NOW })).id;
    bob = (await store.createAccount({ name: 'Bob SA', plan_code: 'premium', beta: false, now: NOW })).id;
  });
  afterAll(() => store.close());

  it('upserts templates by key, keeping their ids, and rewrites only changed ones', async () => {
    const templates = [
      {
        key: 'test-open-tenders-construction',
        name: 'Concursos de obras',
        description: 'Concursos abertos de empreitadas',
        matcher_type: 'cpv' as const,
        params: { cpv_prefixes: ['45'] },
        source_types: ['procurement_announcement' as const],
        target_scope: 'national' as const,
      },
      {
        key: 'test-direct-awards',
        name: 'Ajustes diretos',
        description: 'Ajustes diretos de valor elevado',
        matcher_type: 'signal_type' as const,
        params: { signal_types: ['direct_award_high_value'] },
        source_types: ['signal' as const],
        target_scope: 'municipalities' as const,
      },
    ];
    // Whatever migrate seeded stays as it was; these come after it.
    const seeded = await store.listAlertTemplates();
    await store.saveAlertTemplates(templates);
    const saved = await store.listAlertTemplates();
    expect(saved.slice(0, seeded.length)).toEqual(seeded);
    const firstId = Math.max(0, ...seeded.map((t) => t.id)) + 1;
    expect(saved.slice(seeded.length)).toEqual(templates.map((t, i) => ({ id: firstId + i, ...t })));

    const version = await store.dataVersion();
    await store.saveAlertTemplates(templates);
    expect(await store.dataVersion()).toBe(version);

    await store.saveAlertTemplates([{ ...templates[1], name: 'Ajustes diretos acima do limite' }]);
    expect(await store.dataVersion()).toBeGreaterThan(version);
    expect((await store.listAlertTemplates()).slice(seeded.length)).toEqual([
      { id: firstId, ...templates[0] },
      { id: firstId + 1, ...templates[1], name: 'Ajustes diretos acima do limite' },
    ]);
  });

  const rulesLifecycle =
    'creates rules as given, lists each account its own by id a page at a time, and enables and disables them';
  it(rulesLifecycle, async () => {
    const version = await store.dataVersion();
    const [template] = await store.listAlertTemplates();
    const inputs = [
      rule(alice, 'Escolas'),
      rule(bob, 'Obras de Bob', {
        matcher_type: 'cpv',
        params: { cpv_prefixes: ['45'] },
        source_types: [],
        municipality_ids: [],
      }),
      rule(alice, 'Subscrição', { template_id: template.id, target_scope: 'national', municipality_ids: [] }),
      rule(alice, 'Distrito', { target_scope: 'district', district: 'Lisboa', municipality_ids: [1, 2, 3] }),
      rule(bob, 'Outra de Bob'),
    ];
    const created = [];
    for (const input of inputs) created.push(await store.createAlertRule(input));
    expect(await store.dataVersion()).toBeGreaterThan(version);
    const { now: _now, ...first } = inputs[0];
    expect(created[0]).toEqual({ ...first, id: created[0].id, enabled: true, created_at: NOW, matched_seq: 0 });
    expect(await store.getAlertRule(created[2].id)).toEqual(created[2]);
    expect(await store.getAlertRule(999)).toBeUndefined();

    const ofAlice = created.filter((r) => r.account_id === alice);
    const pages = [];
    for (let after: number | undefined; ; ) {
      const page = await store.listAlertRules({ accountId: alice }, { after, limit: 2 });
      pages.push(page.map((r) => r.id));
      if (page.length < 2) break;
      after = page[page.length - 1].id;
    }
    expect(pages.flat()).toEqual(ofAlice.map((r) => r.id));
    expect(await store.listAlertRules({ accountId: bob }, { limit: 10 })).toEqual(
      created.filter((r) => r.account_id === bob),
    );
    expect(await store.listAlertRules({}, { limit: 10 })).toEqual(created);

    expect(await store.setAlertRuleEnabled(created[0].id, false)).toBe(true);
    expect(await store.setAlertRuleEnabled(created[0].id, false)).toBe(true);
    expect(await store.setAlertRuleEnabled(999, false)).toBe(false);
    expect((await store.getAlertRule(created[0].id))?.enabled).toBe(false);
    expect((await store.listAlertRules({ enabledOnly: true }, { limit: 10 })).map((r) => r.id)).toEqual(
      created.slice(1).map((r) => r.id),
    );
    expect(
      (await store.listAlertRules({ accountId: alice, enabledOnly: true }, { limit: 10 })).map((r) => r.id),
    ).toEqual([created[2].id, created[3].id]);
    await store.setAlertRuleEnabled(created[0].id, true);
    expect((await store.getAlertRule(created[0].id))?.enabled).toBe(true);
  });

  it('records each (rule, item) pair once, whoever writes it again, with the rule’s account and position', async () => {
    const [escolas, bobs] = [1, 2];
    const version = await store.dataVersion();
    const first = await store.recordAlertMatches({
      matches: [
        match(escolas, 1),
        match(escolas, 2),
        match(bobs, 1),
        match(escolas, 1, { title: 'again in the batch' }),
      ],
      matchedSeq: [
        { ruleId: escolas, seq: 10 },
        { ruleId: bobs, seq: 12 },
      ],
    });
    expect(first).toEqual({ inserted: 3, skipped: 1 });
    expect(await store.dataVersion()).toBeGreaterThan(version);
    expect((await store.getAlertRule(escolas))?.matched_seq).toBe(10);
    expect((await store.getAlertRule(bobs))?.matched_seq).toBe(12);

    const recorded = await store.getAlertMatch(1);
    const { item_key, ...fields } = match(escolas, 1);
    expect(recorded).toEqual({
      ...fields,
      item_key,
      id: 1,
      account_id: alice,
      rule_name: 'Escolas',
      status: 'matched',
      updated_at: anUpdatedAt(),
    });
    expect((await store.getAlertMatch(3))?.account_id).toBe(bob);
    expect(await store.getAlertMatch(999)).toBeUndefined();

    const again = await store.recordAlertMatches({
      matches: [match(escolas, 1, { score: 0.1 }), match(escolas, 3)],
      matchedSeq: [{ ruleId: escolas, seq: 15 }],
    });
    expect(again).toEqual({ inserted: 1, skipped: 1 });
    expect((await store.getAlertMatch(1))?.score).toBe(match(escolas, 1).score);
    expect((await store.getAlertRule(escolas))?.matched_seq).toBe(15);

    // Only positions moved: nothing served changed.
    const afterAgain = await store.dataVersion();
    expect(
      await store.recordAlertMatches({ matches: [match(escolas, 2)], matchedSeq: [{ ruleId: escolas, seq: 16 }] }),
    ).toEqual({
      inserted: 0,
      skipped: 1,
    });
    expect(await store.dataVersion()).toBe(afterAgain);

    await expect(
      store.recordAlertMatches({ matches: [match(escolas, 50), match(999, 1)], matchedSeq: [] }),
    ).rejects.toThrow(/999/);
    expect(
      (await store.listAlertMatches({ accountId: alice, since: '2000-01-01T00:00:00Z' }, { limit: 100 })).map(
        (m) => m.item_key,
      ),
    ).not.toContain('signal:50');
  });

  it('dismisses a match once', async () => {
    const version = await store.dataVersion();
    expect(await store.dismissAlertMatch(2)).toBe(true);
    expect(await store.dataVersion()).toBeGreaterThan(version);
    expect((await store.getAlertMatch(2))?.status).toBe('dismissed');
    expect(await store.dismissAlertMatch(2)).toBe(false);
    expect(await store.dismissAlertMatch(999)).toBe(false);
  });

  describe('listing matches', () => {
    let all: AlertMatchRecord[];
    const SINCE = '2000-01-01T00:00:00Z';

    beforeAll(async () => {
      const rules = await store.listAlertRules({}, { limit: 10 });
      // Rules 1, 3, 4 are Alice's; 2 and 5 Bob's. Four instants, many matches on each.
      const matches = Array.from({ length: 500 }, (_, n) => match(rules[n % 5].id, 100 + n));
      await store.recordAlertMatches({ matches, matchedSeq: [] });
      for (let id = 10; id < 500; id += 7) await store.dismissAlertMatch(id);
      all = [];
      for (let id = 1; ; id++) {
        const m = await store.getAlertMatch(id);
        if (!m) break;
        all.push(m);
      }
      expect(all).toHaveLength(504);
    });

    const filters: [string, (ids: { alice: number; bob: number }) => AlertMatchFilter][] = [
      ['an account', ({ alice }) => ({ accountId: alice, since: SINCE })],
      ['the other account', ({ bob }) => ({ accountId: bob, since: SINCE })],
      ['since', ({ alice }) => ({ accountId: alice, since: '2025-07-01T10:00:00Z' })],
      ['a rule', ({ alice }) => ({ accountId: alice, ruleId: 3, since: SINCE })],
      ['another account’s rule', ({ alice }) => ({ accountId: alice, ruleId: 2, since: SINCE })],
      ['municipalities', ({ alice }) => ({ accountId: alice, municipalityIds: [2, 5, 2], since: SINCE })],
      ['dismissed', ({ alice }) => ({ accountId: alice, status: 'dismissed', since: SINCE })],
      ['matched', ({ bob }) => ({ accountId: bob, status: 'matched', since: '2025-06-15T12:00:00Z' })],
      [
        'municipalities and status',
        ({ alice }) => ({ accountId: alice, municipalityIds: [1, 3], status: 'matched', since: SINCE }),
      ],
      [
        'everything at once',
        ({ alice }) => ({
          accountId: alice,
          ruleId: 4,
          municipalityIds: [2, 4, 6],
          status: 'matched',
          since: '2025-06-15T12:00:00Z',
        }),
      ],
    ];

    const matches = (m: AlertMatchRecord, f: AlertMatchFilter) =>
      m.account_id === f.accountId &&
      (f.ruleId === undefined || m.rule_id === f.ruleId) &&
      (!f.municipalityIds || f.municipalityIds.includes(m.municipality_id as number)) &&
      (f.status === undefined || m.status === f.status) &&
      m.matched_at >= f.since;

    for (const [name, filterOf] of filters) {
      it(`lists exactly the account's matching matches, newest first, over every page: ${name}`, async () => {
        const filter = filterOf({ alice, bob });
        const expected = all.filter((m) => matches(m, filter)).sort(newestFirst((m) => m.matched_at));
        if (name !== 'another account’s rule') expect(expected.length, 'the case selects something').toBeGreaterThan(0);
        const got = await walk(
          (page) => store.listAlertMatches(filter, page),
          (m) => m.matched_at,
          19,
        );
        expect(got).toEqual(expected);
      });
    }

    it.skipIf(onPostgres)('plans every list as ordered index ranges', () => {
      expectIndexWalks(
        dbPath,
        filters.map(([name, filterOf]) => ({
          name,
          query: alertMatchQuery(SQLITE_DIALECT, filterOf({ alice, bob }), { limit: 51 }),
        })),
      );
    });
  });
});
