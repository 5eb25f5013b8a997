/**
 * The SQLite store of the change journal, signals, cases and alerts: journal entries for exactly the records a
 * write inserted or changed, idempotent signal writes that link signals to cases, the case queue, every filter
 * and keyset paging of the lists (checked against answers computed here over the whole set, and by their query
 * plans: one index walked in order, never a sort of the whole table), and matches recorded once per rule and item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysetPage } from '../src/store/procurement-queries.js';
import type { InstantPosition } from '../src/store/signal-queries.js';
import type { AlertMatchInput, ChangeEntry, SignalInput, SignalRecord } from '../src/store/signal-records.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
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
    case: { key: `procurement:fixture:procedure:P-${n}`, type: 'tender_open', family: 'procurement', relationship: 'origin' },
    ...overrides,
  };
}

/** The fields of a record that a write stores as given (everything but identity, times and case). */
function fieldsOf(record: SignalRecord): Omit<SignalInput, 'case'> {
  const { id: _id, first_seen_at: _f, last_seen_at: _l, case_id: _c, ...fields } = record;
  return fields;
}

function withoutCase(input: SignalInput): Omit<SignalInput, 'case'> {
  const { case: _case, ...fields } = input;
  return fields;
}

async function changesSince(store: SqliteStore, seq: number): Promise<ChangeEntry[]> {
  return store.readChanges(seq, 1_000_000);
}

describe('the change journal', () => {
  let store: SqliteStore;
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
    const amendments = await store.getAmendments(byKind('amendment').map((e) => e.id));
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
    expect(contractEntry).toMatchObject({ seq: last + 1, kind: 'contract', id: contracts[5].id, key: null, date: changed.published_on });
    expect(amendmentEntry).toMatchObject({ seq: last + 2, kind: 'amendment', id: amendments[1].id, date: amendment.date });
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
  let store: SqliteStore;
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
});

describe('writing signals', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    ({ store } = await freshStore());
  });
  afterAll(() => store.close());

  it('inserts new signals with their case, a journal entry each, and a new data version', async () => {
    const version = await store.dataVersion();
    const signals = [signal(1), signal(2), signal(3, { case: { ...signal(1).case!, relationship: 'update' } })];
    expect(await store.writeSignals({ signals, now: NOW })).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(await store.dataVersion()).toBeGreaterThan(version);

    const records = await store.getSignalsByKeys(signals.map((s) => s.key));
    expect(records.map(fieldsOf)).toEqual(signals.map(withoutCase));
    expect(records.every((r) => r.first_seen_at === NOW && r.last_seen_at === NOW)).toBe(true);
    const caseOne = await store.findCaseId(signal(1).case!.key);
    expect(caseOne).toBeDefined();
    expect(records.map((r) => r.case_id)).toEqual([caseOne, await store.findCaseId(signal(2).case!.key), caseOne]);
    expect(await store.getSignals([records[2].id, 999_999, records[0].id])).toEqual([records[2], records[0]]);
    expect(await store.getSignal(records[1].id)).toEqual(records[1]);

    expect(await changesSince(store, 0)).toEqual(
      records.map((r, i) => ({ seq: i + 1, kind: 'signal', id: r.id, key: null, date: '2025-07-01' })),
    );
  });

  it('finds the same input unchanged: no write, no journal entry, no pending mark, the same data version', async () => {
    await store.saveCases((await store.pendingCases(100)).map((c) => ({ id: c.id, fields: caseFields(c.signals.length), events: [] })));
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
    const again = [signal(1), reordered, signal(3, { case: { ...signal(1).case!, relationship: 'update' } })];
    expect(await store.writeSignals({ signals: again, now: LATER })).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(await store.lastChangeSeq()).toBe(seq);
    expect(await store.dataVersion()).toBe(version);
    expect(await store.pendingCases(100)).toEqual([]);
    expect((await store.getSignalsByKeys([signal(1).key]))[0].last_seen_at).toBe(NOW);
  });

  it('updates a changed signal: last seen now, first seen kept, one journal entry, its case pending', async () => {
    const seq = await store.lastChangeSeq();
    const changed = signal(2, { confidence: 0.95, evidence: [] });
    expect(await store.writeSignals({ signals: [signal(1), changed], now: LATER })).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
    const [record] = await store.getSignalsByKeys([changed.key]);
    expect(fieldsOf(record)).toEqual(withoutCase(changed));
    expect(record.first_seen_at).toBe(NOW);
    expect(record.last_seen_at).toBe(LATER);
    expect(await changesSince(store, seq)).toEqual([{ seq: seq + 1, kind: 'signal', id: record.id, key: null, date: '2025-07-02' }]);
    expect((await store.pendingCases(100)).map((c) => c.id)).toEqual([record.case_id]);
  });

  it('moves a signal whose case key changed, and marks both cases pending', async () => {
    await store.saveCases((await store.pendingCases(100)).map((c) => ({ id: c.id, fields: caseFields(c.signals.length), events: [] })));
    const caseOne = (await store.findCaseId(signal(1).case!.key)) as number;
    const moved = signal(3, { case: { ...signal(2).case!, relationship: 'related' } });
    expect(await store.writeSignals({ signals: [moved], now: LATER })).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const caseTwo = (await store.findCaseId(signal(2).case!.key)) as number;
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
    await store.writeSignals({ signals: [signal(20)], now: LATER, watermark: { name: 'detect:procurement', value: '7' } });
    expect(await store.getWatermark('detect:procurement')).toBe('7');
    const seq = await store.lastChangeSeq();
    const version = await store.dataVersion();
    const bad = signal(22, { municipality_id: 9999 });
    await expect(
      store.writeSignals({ signals: [signal(21), bad], now: LATER, watermark: { name: 'detect:procurement', value: '8' } }),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect(await store.getWatermark('detect:procurement')).toBe('7');
    expect(await store.getSignalsByKeys([signal(21).key])).toEqual([]);
    expect(await store.findCaseId(signal(21).case!.key)).toBeUndefined();
    expect(await store.lastChangeSeq()).toBe(seq);
    expect(await store.dataVersion()).toBe(version);
  });
});

/** Computed fields of a case, as a detector would give them. */
function caseFields(sourceCount: number, overrides: Partial<import('../src/store/signal-records.js').CaseFields> = {}) {
  return {
    municipality_id: 1,
    title_pt: 'Caso',
    summary_pt: null,
    current_stage: 'open' as const,
    previous_stage: null,
    status: 'open' as const,
    value_tier: 'medium' as const,
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

export type { AlertMatchInput, InstantPosition, KeysetPage };
