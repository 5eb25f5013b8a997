/**
 * The usage journals' batches, numbered in order under a name of their own (docs/deploy.md, "Durability"): a batch
 * whose write failed is sent again, whole and under its number, before anything newer, and the store adds a number it
 * has applied only once (src/store/access/usage-batches.ts). So a write that landed although its answer was lost is
 * not counted twice, and one that did not land is not lost.
 */
import { randomUUID } from 'node:crypto';
import type { UsageBatch } from '../store/access/usage-batches.js';

export class NumberedBatches<E> {
  readonly #writer = randomUUID();
  #number = 0;
  /** The batch whose write failed, to be sent again before any other. */
  #failed: { batch: UsageBatch; entries: readonly E[] } | undefined;

  constructor(private readonly write: (entries: readonly E[], batch: UsageBatch) => Promise<void>) {}

  /** What a failed write left unsent. */
  get unsent(): readonly E[] {
    return this.#failed?.entries ?? [];
  }

  /**
   * Sends the failed batch again, if any, then what `pending` holds as the next batch, emptying it. `pending` is read
   * only once the failed batch is through: while it is not, newer counts stay where they are.
   */
  async send(pending: Map<string, E>): Promise<void> {
    if (this.#failed) {
      await this.write(this.#failed.entries, this.#failed.batch);
      this.#failed = undefined;
    }
    if (pending.size === 0) return;
    const entries = [...pending.values()];
    pending.clear();
    const batch = { writer: this.#writer, number: ++this.#number };
    try {
      await this.write(entries, batch);
    } catch (error) {
      this.#failed = { batch, entries };
      throw error;
    }
  }
}
