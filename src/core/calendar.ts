import { monthlyPeriod } from '../access/counters.js';

const DAY_MS = 86_400_000;

/** The UTC day and the monthly period (`YYYY-MM`, first and last day) an instant falls in. */
export interface Calendar {
  readonly day: string;
  readonly period: string;
  readonly start: string;
  readonly end: string;
  /** The instant the period ends (exclusive). */
  readonly periodEndMs: number;
  readonly dayStartMs: number;
  readonly dayEndMs: number;
}

/** The calendar of an instant, recomputed only when the day changes (every call asks for it). */
export class CalendarMemo {
  #cached: Calendar | undefined;

  at(nowMs: number): Calendar {
    let cached = this.#cached;
    if (cached === undefined || nowMs < cached.dayStartMs || nowMs >= cached.dayEndMs) {
      const now = new Date(nowMs);
      const p = monthlyPeriod(now);
      const dayStartMs = nowMs - (nowMs % DAY_MS);
      cached = {
        day: now.toISOString().slice(0, 10),
        period: p.key,
        start: p.start,
        end: p.end,
        periodEndMs: Date.parse(`${p.end}T00:00:00Z`) + DAY_MS,
        dayStartMs,
        dayEndMs: dayStartMs + DAY_MS,
      };
      this.#cached = cached;
    }
    return cached;
  }
}

/** The first day of the month after the period that ends on `periodEnd`. */
export function nextMonthStart(periodEnd: string): string {
  return new Date(Date.parse(`${periodEnd}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}
