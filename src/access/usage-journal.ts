/**
 * Charged requests on their way to the usage store. Counters record each charge here; the journal writes them
 * in batches (every second and on close), so the hot path never waits for the store and a customer's usage
 * survives a restart — and, with the Redis counters, the loss of Redis.
 */
import type { UsageStore } from '../store/store.js';
import { NumberedBatches } from './numbered-batches.js';

const FLUSH_EVERY_MS = 1_000;

interface Entry {
  accountId: number;
  period: string;
  count: number;
}

export class UsageJournal {
  readonly #store: UsageStore;
  readonly #pending = new Map<string, Entry>();
  readonly #batches: NumberedBatches<Entry>;
  readonly #timer: NodeJS.Timeout;
  /** The last batch (or `exclusive` task) queued; never rejected, so a failed write does not stop the next. */
  #tail: Promise<void> = Promise.resolve();

  constructor(store: UsageStore) {
    this.#store = store;
    this.#batches = new NumberedBatches((entries, batch) => this.#store.addUsage(entries, batch));
    this.#timer = setInterval(() => void this.flush().catch(() => {}), FLUSH_EVERY_MS);
    this.#timer.unref();
  }

  add(accountId: number, period: string, count = 1): void {
    const key = `${accountId}|${period}`;
    const entry = this.#pending.get(key);
    if (entry) entry.count += count;
    else this.#pending.set(key, { accountId, period, count });
  }

  /** Charges recorded and not yet written for this account and period (a batch whose write failed among them). */
  pending(accountId: number, period: string): number {
    let count = this.#pending.get(`${accountId}|${period}`)?.count ?? 0;
    for (const e of this.#batches.unsent) if (e.accountId === accountId && e.period === period) count += e.count;
    return count;
  }

  /**
   * Writes the charges not yet persisted; one batch at a time, in order. A failed batch is sent again, under its
   * number, before the next (./numbered-batches.ts): never lost, and never added twice.
   */
  flush(): Promise<void> {
    return this.exclusive(() => this.#batches.send(this.#pending));
  }

  /**
   * Runs `task` between batches: while it runs no batch is on its way to the store, so the store's usage plus
   * `pending` is the whole of what this instance has charged.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task);
    this.#tail = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
