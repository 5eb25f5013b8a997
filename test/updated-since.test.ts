/**
 * `updated_since` on the lists of contracts, signals, cases and alert matches (docs/api.md, "Syncing"), as a
 * syncing client uses it over REST: a first run from the epoch reads every record once, oldest change first, even
 * while records change under its pages (a changed record comes again at the end, as its new version); a later run
 * from the last `updated_at` it read gets exactly what was added or changed since, and nothing rewritten unchanged.
 * Every write path a record changes by is used: a contract re-imported changed, a signal detected again changed, a
 * case's stage change, a match dismissed and restored. Bad instants are refused on all three channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseFields, SignalInput } from '../src/store/signal-records.js';
import { expectValidation } from './helpers/expectations.js';
import { CHANNELS, callOperation } from './helpers/operation-call.js';
import { buildFixture, type Fixture } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { seedAlerts, seedSignals } from './helpers/signal-fixture.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const EPOCH = '1970-01-01T00:00:00Z';
const PAGE = 4;

let t: TestApp;
let contracts: Fixture['contracts'];
let signalInputs: Map<string, SignalInput>;

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  t = await startTestApp({ store, dbPath });
  const fixture = buildFixture({ contracts: 30, today: '2026-06-30' });
  await store.writeProcurement({ entities: fixture.entities, contracts: fixture.contracts });
  contracts = fixture.contracts;
  const signals = await seedSignals(store);
  signalInputs = new Map(signals.signals.map((s) => [s.input.key, s.input]));
  await seedAlerts(store, t.accounts.premium, t.clock.now, 'sync');
});
afterAll(() => t.close());

interface Listed {
  id: number;
  updated_at: string;
  [field: string]: unknown;
}

/** A list and the writes a record of it changes by, or is written again unchanged by. */
interface SyncedList {
  name: string;
  path: string;
  change(record: Listed): Promise<void>;
  rewriteUnchanged(record: Listed): Promise<void>;
}

const contractInput = (record: Listed) => {
  const input = contracts.find((c) => c.source_id === record.source_id);
  if (!input) throw new Error(`no fixture contract ${record.source_id}`);
  return input;
};
const signalInput = async (record: Listed) => {
  const [stored] = await t.store.getSignals([record.id]);
  return signalInputs.get(stored.key) as SignalInput;
};
const caseNow = async (record: Listed) => {
  const stored = await t.store.getCase(record.id);
  if (!stored) throw new Error(`no case ${record.id}`);
  const { id, key, type, family, updated_at, events, linked_signals, ...fields } = stored;
  return fields satisfies CaseFields;
};
const matchStatus = async (record: Listed) => (await t.store.getAlertMatch(record.id))?.status;
const NOW = '2026-07-14T09:30:00Z';

const LISTS: SyncedList[] = [
  {
    name: 'contracts (a re-import that changes the price; one that changes nothing)',
    path: '/v1/procurement/contracts',
    async change(record) {
      const input = contractInput(record);
      const changed = { ...input, price_eur: (input.price_eur ?? 0) + 1 };
      contracts = contracts.map((c) => (c === input ? changed : c));
      await t.store.writeProcurement({ contracts: [changed] });
    },
    async rewriteUnchanged(record) {
      await t.store.writeProcurement({ contracts: [contractInput(record)] });
    },
  },
  {
    name: 'signals (detected again with another confidence; detected again the same)',
    path: '/v1/signals',
    async change(record) {
      const input = await signalInput(record);
      const changed = { ...input, confidence: input.confidence === 0.42 ? 0.43 : 0.42 };
      signalInputs.set(input.key, changed);
      await t.store.writeSignals({ signals: [changed], now: NOW });
    },
    async rewriteUnchanged(record) {
      await t.store.writeSignals({ signals: [await signalInput(record)], now: NOW });
    },
  },
  {
    name: 'cases (a stage change; computed again to the same fields)',
    path: '/v1/signal-cases?include_episodic=true',
    async change(record) {
      const fields = await caseNow(record);
      const stage = fields.current_stage === 'awarded' ? 'closed' : 'awarded';
      await t.store.saveCases([
        {
          id: record.id,
          fields: { ...fields, current_stage: stage, previous_stage: fields.current_stage },
          events: [
            {
              event_type: 'stage_changed',
              old_value: fields.current_stage,
              new_value: stage,
              reason: null,
              created_at: NOW,
            },
          ],
        },
      ]);
    },
    async rewriteUnchanged(record) {
      await t.store.saveCases([{ id: record.id, fields: await caseNow(record), events: [] }]);
    },
  },
  {
    name: 'alert matches (dismissed or restored; dismissed again, restored again)',
    path: '/v1/alert-matches',
    async change(record) {
      const matched = (await matchStatus(record)) === 'matched';
      expect(await (matched ? t.store.dismissAlertMatch(record.id) : t.store.restoreAlertMatch(record.id))).toBe(true);
    },
    async rewriteUnchanged(record) {
      const matched = (await matchStatus(record)) === 'matched';
      expect(await (matched ? t.store.restoreAlertMatch(record.id) : t.store.dismissAlertMatch(record.id))).toBe(false);
    },
  },
];

const withSince = (path: string, since: string) =>
  `${path}${path.includes('?') ? '&' : '?'}updated_since=${encodeURIComponent(since)}&limit=${PAGE}`;

/** One page of a run: its items and the path of the next page (undefined at the end). */
async function page(path: string): Promise<{ items: Listed[]; next: string | undefined }> {
  const res = await t.get(path);
  expect(res.status, res.body).toBe(200);
  if (!res.json.has_more) return { items: res.json.items, next: undefined };
  const u = new URL(path, 'http://x');
  u.searchParams.set('cursor', res.json.next_cursor);
  return { items: res.json.items, next: `${u.pathname}${u.search}` };
}

async function run(path: string): Promise<Listed[]> {
  const items: Listed[] = [];
  for (let next: string | undefined = path; next !== undefined; ) {
    const read = await page(next);
    items.push(...read.items);
    next = read.next;
  }
  return items;
}

/** Each item after the one before it in (updated_at, id). */
function expectChangeOrder(items: readonly Listed[]): void {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]];
    expect(
      a.updated_at < b.updated_at || (a.updated_at === b.updated_at && a.id < b.id),
      `${i}: ${a.id}, ${b.id}`,
    ).toBe(true);
  }
}

describe.each(LISTS)('syncing $name', (list) => {
  it('reads each record once in change order while records change, then exactly what changed since', async () => {
    t.clock.advance(61_000); // clear of the per-minute limit
    const all = await collectPages(t, `${list.path}${list.path.includes('?') ? '&' : '?'}limit=50`);
    expect(all.length, 'the list has records to sync').toBeGreaterThan(3 * PAGE);

    // A run from the epoch; after its first page one record it read and one it has not read yet change, and one
    // of each is written again unchanged.
    const first = await page(withSince(list.path, EPOCH));
    expect(first.next).toBeDefined();
    const seenIds = new Set(first.items.map((i) => i.id));
    const unseen = all.filter((r) => !seenIds.has(r.id));
    const [changedSeen, unchangedSeen] = first.items;
    const [changedUnseen, unchangedUnseen] = unseen;
    await list.change(changedSeen);
    await list.change(changedUnseen);
    await list.rewriteUnchanged(unchangedSeen);
    await list.rewriteUnchanged(unchangedUnseen);
    t.clock.advance(1_000); // a moment later, as a client is: the service checks the data version every second
    const items = [...first.items, ...(await run(first.next as string))];

    expectChangeOrder(items);
    const times = new Map<number, number>();
    for (const item of items) times.set(item.id, (times.get(item.id) ?? 0) + 1);
    expect([...times.keys()].sort((a, b) => a - b)).toEqual(all.map((r) => r.id).sort((a, b) => a - b));
    expect([...times].filter(([, n]) => n !== 1)).toEqual([[changedSeen.id, 2]]);
    // The two changes are the run's last items, the record read before its change again as its new version.
    expect(items.slice(-2).map((i) => i.id)).toEqual([changedSeen.id, changedUnseen.id]);
    expect(String(items.at(-2)?.updated_at) > changedSeen.updated_at).toBe(true);

    // The next run, from the last updated_at the finished run read: only what changed since.
    const watermark = items.at(-1)?.updated_at as string;
    expect(await run(withSince(list.path, watermark))).toEqual([]);
    const later = all.filter((r) => r.id !== changedSeen.id && r.id !== changedUnseen.id);
    await list.change(later[5]);
    await list.rewriteUnchanged(later[6]);
    await list.change(later[7]);
    t.clock.advance(1_000);
    const since = await run(withSince(list.path, watermark));
    expect(since.map((i) => i.id)).toEqual([later[5].id, later[7].id]);
    expectChangeOrder(since);
    expect(since.every((i) => i.updated_at > watermark)).toBe(true);
  });
});

describe('a bad updated_since', () => {
  const BAD = ['yesterday', '2026-02-30T10:00:00Z', '2026-07-14', '2026-07-14T25:00:00Z'];
  const OPERATIONS = ['procurement_contracts', 'signals_list', 'signal_cases_list', 'alert_matches'];

  it('is a 422 naming updated_since on REST', async () => {
    t.clock.advance(61_000);
    for (const list of LISTS) {
      for (const value of BAD) expectValidation(await t.get(withSince(list.path, value)), 'updated_since');
    }
  });

  it.each(CHANNELS.filter((c) => c !== 'rest'))('is a validation error naming updated_since on %s', async (channel) => {
    t.clock.advance(61_000);
    for (const name of OPERATIONS) {
      for (const value of BAD) {
        const answer = await callOperation(t, channel, name, { updated_since: value });
        expect(answer.ok, `${name} ${value}`).toBe(false);
        if (answer.ok) continue;
        expect(answer.kind).toBe('validation-error');
        expect(answer.problem.errors.map((e: { field: string }) => e.field)).toContain('updated_since');
      }
    }
  });
});
