/**
 * Charged requests per account, day and channel, for the console's usage chart, and when each key was last used
 * (docs/console.md). Counted in
 * memory on the hot path and written to the store in batches every second (added, so that every instance's
 * counts sum up), like the usage journal. The month's total the console shows is the counters' own figure,
 * the one `/v1/me` reports; these daily counts split it by day and channel.
 */
import type { DailyUsageEntry, UsageChannel } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { NumberedBatches } from './numbered-batches.js';

const FLUSH_EVERY_MS = 1_000;

export class DailyUsage {
  readonly #store: Store;
  readonly #pending = new Map<string, DailyUsageEntry>();
  /** Key id → the last instant (ms) it was used, since the last flush. */
  #keys = new Map<number, number>();
  readonly #batches: NumberedBatches<DailyUsageEntry>;
  readonly #timer: NodeJS.Timeout;
  #tail: Promise<void> = Promise.resolve();

  constructor(store: Store) {
    this.#store = store;
    this.#batches = new NumberedBatches((entries, batch) => this.#store.console.addDailyUsage(entries, batch));
    this.#timer = setInterval(() => void this.flush().catch(() => {}), FLUSH_EVERY_MS);
    this.#timer.unref();
  }

  add(accountId: number, day: string, channel: UsageChannel): void {
    const key = `${accountId}|${day}|${channel}`;
    const entry = this.#pending.get(key);
    if (entry) entry.count++;
    else this.#pending.set(key, { accountId, day, channel, count: 1 });
  }

  /** A key was used (every admitted request; the keys page shows when each was last used). */
  keyUsed(keyId: number, nowMs: number): void {
    this.#keys.set(keyId, nowMs);
  }

  /** Writes what is pending; a failed batch is sent again, under its number, first (./numbered-batches.ts). */
  flush(): Promise<void> {
    const run = this.#tail.then(async () => {
      if (this.#keys.size > 0) {
        const keys = this.#keys;
        this.#keys = new Map();
        try {
          await this.#store.console.recordKeyUse(
            [...keys].map(([keyId, ms]) => ({ keyId, at: new Date(ms).toISOString() })),
          );
        } catch (error) {
          // Kept for the next flush, the later use winning: the store keeps the latest of what it is sent.
          for (const [keyId, ms] of keys) if ((this.#keys.get(keyId) ?? 0) < ms) this.#keys.set(keyId, ms);
          throw error;
        }
      }
      await this.#batches.send(this.#pending);
    });
    this.#tail = run.catch(() => {});
    return run;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush().catch(() => {});
  }
}
