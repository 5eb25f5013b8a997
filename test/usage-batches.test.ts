/**
 * Usage is counted once (docs/deploy.md, "Durability"): the usage journal and the console's daily usage send their
 * counts in numbered batches, and a batch whose write landed although its answer was lost (a connection dropped after
 * the commit) is not added again when it is sent again; one that did not land is not lost. A real store on each
 * backend; only the lost answer is made up, around the store's own write. Run on SQLite and on PostgreSQL
 * (MUNIDATA_TEST_BACKEND). The console's record of when each key was last used is kept through a failed write too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DailyUsage } from '../src/access/daily-usage.js';
import { UsageJournal } from '../src/access/usage-journal.js';
import type { Store } from '../src/store/store.js';
import { freshStore } from './helpers/procurement-store.js';

const PERIOD = '2026-11';
const DAY = '2026-11-30';
let store: Store;
let accountId: number;
beforeAll(async () => {
  ({ store } = await freshStore());
  accountId = (
    await store.createAccount({ name: 'Contas Lda', plan_code: 'free', beta: false, now: `${DAY}T00:00:00Z` })
  ).id;
});
afterAll(() => store.close());

/** The store, but the next `failures` writes through `method` throw: before writing, or after the write committed. */
function flaky<K extends 'addUsage' | 'addDailyUsage' | 'recordKeyUse'>(
  method: K,
  when: 'before' | 'after',
  failures = 1,
): Store {
  const owner = (method === 'addUsage' ? store : store.console) as unknown as Record<K, (...a: unknown[]) => unknown>;
  const write = owner[method].bind(owner);
  let left = failures;
  const failing = async (...args: unknown[]) => {
    if (left > 0 && when === 'before') {
      left--;
      throw new Error('connection lost before the write');
    }
    await write(...args);
    if (left > 0) {
      left--;
      throw new Error('connection lost after the commit');
    }
  };
  if (method === 'addUsage') return Object.assign(Object.create(store), { addUsage: failing });
  return Object.assign(Object.create(store), {
    console: Object.assign(Object.create(store.console), { [method]: failing }),
  });
}

async function monthUsed(): Promise<number> {
  return store.getUsage(accountId, PERIOD);
}

async function dayCount(channel: string): Promise<number> {
  const rows = await store.console.dailyUsage(accountId, DAY, DAY);
  return rows.filter((r) => r.channel === channel).reduce((sum, r) => sum + r.count, 0);
}

describe('the usage journal', () => {
  it('adds a batch whose commit landed but whose answer was lost once, and what came after it too', async () => {
    const before = await monthUsed();
    const journal = new UsageJournal(flaky('addUsage', 'after'));
    journal.add(accountId, PERIOD, 5);
    await expect(journal.flush()).rejects.toThrow(/after the commit/);
    expect(await monthUsed()).toBe(before + 5);
    // Until the store confirms it, the batch still counts as this instance's pending charges (quota is conservative).
    expect(journal.pending(accountId, PERIOD)).toBe(5);
    journal.add(accountId, PERIOD, 2);
    await journal.flush();
    expect(await monthUsed()).toBe(before + 7);
    expect(journal.pending(accountId, PERIOD)).toBe(0);
    await journal.close();
    expect(await monthUsed()).toBe(before + 7);
  });

  it('does not lose a batch whose write failed, through failures one after another', async () => {
    const before = await monthUsed();
    const journal = new UsageJournal(flaky('addUsage', 'before', 2));
    journal.add(accountId, PERIOD, 3);
    await expect(journal.flush()).rejects.toThrow(/before the write/);
    journal.add(accountId, PERIOD, 4);
    await expect(journal.flush()).rejects.toThrow(/before the write/);
    expect(journal.pending(accountId, PERIOD)).toBe(7);
    await journal.flush();
    expect(await monthUsed()).toBe(before + 7);
    await journal.close();
  });

  it('keeps two journals (two instances) apart: each one’s batches count', async () => {
    const before = await monthUsed();
    const [a, b] = [new UsageJournal(store), new UsageJournal(store)];
    a.add(accountId, PERIOD, 1);
    b.add(accountId, PERIOD, 1);
    await Promise.all([a.flush(), b.flush()]);
    expect(await monthUsed()).toBe(before + 2);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('the console’s daily usage', () => {
  it('adds a batch whose commit landed but whose answer was lost once, and what came after it too', async () => {
    const daily = new DailyUsage(flaky('addDailyUsage', 'after'));
    daily.add(accountId, DAY, 'rest');
    daily.add(accountId, DAY, 'rest');
    daily.add(accountId, DAY, 'mcp');
    await expect(daily.flush()).rejects.toThrow(/after the commit/);
    daily.add(accountId, DAY, 'rest');
    await daily.flush();
    expect(await dayCount('rest')).toBe(3);
    expect(await dayCount('mcp')).toBe(1);
    await daily.close();
    expect(await dayCount('rest')).toBe(3);
  });

  it('keeps a key’s last use whose write failed for the next flush, and a newer use replaces it', async () => {
    const key = await store.createApiKey({
      account_id: accountId,
      lookup: 'chave-lookup',
      hash: 'a'.repeat(64),
      label: 'chave',
      scopes: [],
      expires_at: null,
      now: `${DAY}T00:00:00Z`,
    });
    const daily = new DailyUsage(flaky('recordKeyUse', 'before'));
    daily.keyUsed(key.id, Date.parse(`${DAY}T10:00:00Z`));
    await expect(daily.flush()).rejects.toThrow(/before the write/);
    await daily.flush();
    const lastUsed = async () => (await store.console.keysLastUsed([key.id])).get(key.id);
    expect(await lastUsed()).toBe(`${DAY}T10:00:00.000Z`);
    daily.keyUsed(key.id, Date.parse(`${DAY}T11:00:00Z`));
    await daily.flush();
    expect(await lastUsed()).toBe(`${DAY}T11:00:00.000Z`);
    await daily.close();
  });
});
