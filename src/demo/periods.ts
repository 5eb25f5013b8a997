/**
 * The reference periods of the demo series. Only the year and month of `today` matter, so every run in the same
 * calendar month (UTC) produces the same periods, and so the same data.
 */
import type { Frequency } from '../store/records.js';

export interface Period {
  /** A stable integer per period (the year, or year*12 + month-1): the index of its hash-drawn noise. */
  index: number;
  /** The last day of the period, YYYY-MM-DD (docs/decisions.md, Formats). */
  reference_date: string;
  /** Mid-period in fractional calendar years (2021.5 = mid 2021), where the models are evaluated. */
  time: number;
  /** 1–12 for monthly periods, null for annual ones. */
  month: number | null;
}

export const ANNUAL_YEARS = 15;
export const MONTHLY_MONTHS = 120;

const pad = (n: number) => String(n).padStart(2, '0');

export function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last complete year before `today` and the ANNUAL_YEARS before it, oldest first. */
export function annualPeriods(today: Date, years = ANNUAL_YEARS): Period[] {
  const last = today.getUTCFullYear() - 1;
  const periods: Period[] = [];
  for (let year = last - years + 1; year <= last; year++) {
    periods.push({ index: year, reference_date: `${year}-12-31`, time: year + 0.5, month: null });
  }
  return periods;
}

/** The last complete month before `today` and the MONTHLY_MONTHS before it, oldest first. */
export function monthlyPeriods(today: Date, months = MONTHLY_MONTHS): Period[] {
  const lastIndex = today.getUTCFullYear() * 12 + today.getUTCMonth() - 1;
  const periods: Period[] = [];
  for (let index = lastIndex - months + 1; index <= lastIndex; index++) {
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    periods.push({
      index,
      reference_date: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`,
      time: year + (month - 0.5) / 12,
      month,
    });
  }
  return periods;
}

export function periodsFor(frequency: Frequency, today: Date): Period[] {
  return frequency === 'monthly' ? monthlyPeriods(today) : annualPeriods(today);
}
