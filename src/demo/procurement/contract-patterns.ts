/**
 * The integrity patterns the generator applies to one contract (integrity-patterns.ts has the rates, docs/integrity.md
 * "On the demo data" the table): whether contract k takes a pattern, from a random stream of the pattern's own, and the
 * closing dates and prices they and the base model give.
 */
import { hashSeed, Rng } from '../random.js';
import { AMENDED_CEILING, LATE, ON_TIME_DAYS, OVERRUN_RATIO, PATTERN_RATES } from './integrity-patterns.js';

export type PatternName = keyof typeof PATTERN_RATES;

/**
 * The stream of `pattern` for contract k when the contract takes it (its first draw under the pattern's rate), for
 * the pattern's details; null when it does not. Asked only of the contracts a pattern applies to.
 */
export function takes(seed: number, pattern: PatternName, k: number): Rng | null {
  const p = new Rng(hashSeed(seed, 'pattern', pattern, k));
  return p.next() < PATTERN_RATES[pattern] ? p : null;
}

/**
 * Days after the expected end a contract closes on time: the base model's draw (−10 to 60 days) folded into
 * ON_TIME_DAYS, so that a draw already there is kept and no contract is late but by the `late` pattern.
 */
export function onTimeDays(drawn: number): number {
  const [earliest, latest] = ON_TIME_DAYS;
  const span = latest - earliest + 1;
  return earliest + ((((drawn - earliest) % span) + span) % span);
}

/** The fewest days after the expected end a late closing comes (the `late` pattern). */
export function lateMinimum(executionDays: number): number {
  return Math.ceil(Math.max(LATE.minDays, LATE.minShare * executionDays));
}

/**
 * A late closing day (the `late` pattern), before `lastDay`; null when even the earliest late closing would fall on
 * or after it (then the contract keeps its closing on time).
 */
export function lateClosing(p: Rng, signed: number, executionDays: number, lastDay: number): number | null {
  const earliest = signed + executionDays + lateMinimum(executionDays);
  if (earliest >= lastDay) return null;
  return Math.min(lastDay - 1, earliest + Math.floor(p.next() * LATE.spreadDays));
}

/** An effective price over the contract price by the `overrun` pattern's ratio, to the cent. */
export function overrunPrice(p: Rng, price: number): number {
  const [lo, hi] = OVERRUN_RATIO;
  return Math.round(price * (lo + (hi - lo) * p.next()) * 100) / 100;
}

/**
 * The amendments' price factors, tempered so that together they stay within AMENDED_CEILING of the price: each raised
 * to the same power below 1 (an increase stays an increase, a cut a cut, each smaller), so that an overrun is only
 * the `overrun` pattern's. Factors within the ceiling are kept.
 */
export function withinCeiling(factors: readonly number[]): number[] {
  const total = factors.reduce((x, f) => x * f, 1);
  if (total <= AMENDED_CEILING) return [...factors];
  const power = Math.log(AMENDED_CEILING) / Math.log(total);
  return factors.map((f) => f ** power);
}
