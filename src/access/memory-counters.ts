/**
 * In-process counters. The rate limit is GCRA (a sliding window without buckets to reset): each key keeps
 * one "theoretical arrival time". The quota keeps committed and in-flight counts per account and month;
 * reservations are synchronous once the period is loaded, so concurrent requests can never overshoot.
 * Charged requests are written to the usage store in batches (every second and on close), so usage
 * survives a restart.
 */
import type { UsageStore } from '../store/store.js';
import type { Counters, QuotaReservation, RateDecision } from './counters.js';

const WINDOW_MS = 60_000;
const FLUSH_EVERY_MS = 1_000;

interface QuotaCell {
  committed: number;
  reserved: number;
}

export class MemoryCounters implements Counters {
  readonly #usage: UsageStore;
  readonly #tat = new Map<string, number>();
  readonly #cells = new Map<string, Promise<QuotaCell>>();
  /** The same cells once loaded, read without awaiting: this runs twice on every charged request. */
  readonly #loaded = new Map<string, QuotaCell>();
  #pending = new Map<string, { accountId: number; period: string; count: number }>();
  readonly #timer: NodeJS.Timeout;
  #flushing: Promise<void> = Promise.resolve();

  constructor(usage: UsageStore) {
    this.#usage = usage;
    this.#timer = setInterval(() => void this.flush().catch(() => {}), FLUSH_EVERY_MS);
    this.#timer.unref();
  }

  async hitRate(key: string, perMinute: number, nowMs: number): Promise<RateDecision> {
    const interval = WINDOW_MS / perMinute;
    const tat = Math.max(this.#tat.get(key) ?? nowMs, nowMs);
    const next = tat + interval;
    const ahead = next - nowMs;
    if (ahead > WINDOW_MS) {
      const waitMs = ahead - WINDOW_MS;
      return {
        allowed: false,
        limit: perMinute,
        remaining: 0,
        resetSeconds: Math.ceil((tat - nowMs) / 1000),
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      };
    }
    this.#tat.set(key, next);
    if (this.#tat.size > 100_000) this.#prune(nowMs);
    return {
      allowed: true,
      limit: perMinute,
      remaining: Math.floor((WINDOW_MS - ahead) / interval),
      resetSeconds: Math.ceil(ahead / 1000),
      retryAfterSeconds: 0,
    };
  }

  async reserveQuota(accountId: number, period: string, limit: number | null): Promise<QuotaReservation> {
    const cell = await this.#cell(accountId, period);
    const used = cell.committed + cell.reserved;
    if (limit !== null && used >= limit) return { granted: false, used };
    cell.reserved++;
    return { granted: true, used: used + 1 };
  }

  async commitQuota(accountId: number, period: string): Promise<void> {
    const cell = await this.#cell(accountId, period);
    cell.reserved--;
    cell.committed++;
    const key = `${accountId}|${period}`;
    const pending = this.#pending.get(key);
    if (pending) pending.count++;
    else this.#pending.set(key, { accountId, period, count: 1 });
  }

  async refundQuota(accountId: number, period: string): Promise<void> {
    (await this.#cell(accountId, period)).reserved--;
  }

  async usage(accountId: number, period: string): Promise<number> {
    return (await this.#cell(accountId, period)).committed;
  }

  /** Writes the charged requests not yet persisted; one batch at a time, in order. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#pending.size === 0) return;
      const batch = [...this.#pending.values()];
      this.#pending = new Map();
      try {
        await this.#usage.addUsage(batch);
      } catch (error) {
        // Keep the counts for the next flush rather than lose a customer's usage.
        for (const e of batch) {
          const key = `${e.accountId}|${e.period}`;
          const pending = this.#pending.get(key);
          if (pending) pending.count += e.count;
          else this.#pending.set(key, e);
        }
        throw error;
      }
    });
    return this.#flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
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
