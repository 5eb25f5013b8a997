/**
 * In-process counters, for one instance. The rate limit is GCRA (see gcra.ts): each key keeps one theoretical
 * arrival time. The quota keeps committed and in-flight counts per account and month; reservations are
 * synchronous once the period is loaded, so concurrent requests can never overshoot. Charged requests go to the
 * usage store through the journal (in batches), so usage survives a restart.
 */
import type { UsageStore } from '../store/store.js';
import type { Counters, QuotaReservation, RateDecision } from './counters.js';
import { gcra } from './gcra.js';
import { UsageJournal } from './usage-journal.js';

interface QuotaCell {
  committed: number;
  reserved: number;
}

export class MemoryCounters implements Counters {
  readonly #usage: UsageStore;
  readonly #journal: UsageJournal;
  readonly #tat = new Map<string, number>();
  readonly #cells = new Map<string, Promise<QuotaCell>>();
  /** The same cells once loaded, read without awaiting: this runs twice on every charged request. */
  readonly #loaded = new Map<string, QuotaCell>();

  constructor(usage: UsageStore) {
    this.#usage = usage;
    this.#journal = new UsageJournal(usage);
  }

  // Synchronous once the period's cell is loaded (Counters: the hot path takes no promise here).
  hitRate(key: string, perMinute: number, nowMs: number): RateDecision {
    const { decision, next } = gcra(Math.max(this.#tat.get(key) ?? nowMs, nowMs), nowMs, perMinute);
    if (decision.allowed) {
      this.#tat.set(key, next);
      if (this.#tat.size > 100_000) this.#prune(nowMs);
    }
    return decision;
  }

  reserveQuota(accountId: number, period: string, limit: number | null): QuotaReservation | Promise<QuotaReservation> {
    const cell = this.#cell(accountId, period);
    return cell instanceof Promise ? cell.then((loaded) => reserveIn(loaded, limit)) : reserveIn(cell, limit);
  }

  commitQuota(accountId: number, period: string): void | Promise<void> {
    const cell = this.#cell(accountId, period);
    if (cell instanceof Promise) return cell.then((loaded) => this.#commitIn(loaded, accountId, period));
    this.#commitIn(cell, accountId, period);
  }

  refundQuota(accountId: number, period: string): void | Promise<void> {
    const cell = this.#cell(accountId, period);
    if (cell instanceof Promise) return cell.then(refundIn);
    refundIn(cell);
  }

  #commitIn(cell: QuotaCell, accountId: number, period: string): void {
    cell.reserved--;
    cell.committed++;
    this.#journal.add(accountId, period);
  }

  async usage(accountId: number, period: string): Promise<number> {
    return (await this.#cell(accountId, period)).committed;
  }

  /** Nothing to reach: the counters live in this process. */
  async ping(): Promise<void> {}

  flush(): Promise<void> {
    return this.#journal.flush();
  }

  close(): Promise<void> {
    return this.#journal.close();
  }

  /** The period's cell, loaded from the usage store once; concurrent first calls share the same load. */
  #cell(accountId: number, period: string): QuotaCell | Promise<QuotaCell> {
    const key = `${accountId}|${period}`;
    const loaded = this.#loaded.get(key);
    if (loaded) return loaded;
    let cell = this.#cells.get(key);
    if (!cell) {
      cell = this.#usage.getUsage(accountId, period).then((committed) => {
        const fresh = { committed, reserved: 0 };
        this.#loaded.set(key, fresh);
        return fresh;
      });
      cell.catch(() => this.#cells.delete(key));
      this.#cells.set(key, cell);
    }
    return cell;
  }

  #prune(nowMs: number): void {
    for (const [key, tat] of this.#tat) if (tat <= nowMs) this.#tat.delete(key);
  }
}

/** One unit reserved unless the limit is reached; one synchronous step, so concurrent requests never overshoot. */
function reserveIn(cell: QuotaCell, limit: number | null): QuotaReservation {
  const used = cell.committed + cell.reserved;
  if (limit !== null && used >= limit) return { granted: false, used };
  cell.reserved++;
  return { granted: true, used: used + 1 };
}

function refundIn(cell: QuotaCell): void {
  cell.reserved--;
}
