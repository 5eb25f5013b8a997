/** Fields derived the same way wherever a signal is made (detectors, the importer): docs/decisions.md, Enumerations. */
import type { Actionability, ValueTier } from '../lib/vocabulary.js';

/** small (< 75 000 €), medium (< 750 000 €), large (< 5 000 000 €), very_large; null without an amount. */
export function valueTier(amountEur: number | null): ValueTier | null {
  if (amountEur === null || !Number.isFinite(amountEur)) return null;
  if (amountEur < 75_000) return 'small';
  if (amountEur < 750_000) return 'medium';
  if (amountEur < 5_000_000) return 'large';
  return 'very_large';
}

const DAY_MS = 86_400_000;

/** Whole days from `today` to `date` (both YYYY-MM-DD); negative when it has passed. */
export function daysUntil(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

/**
 * act_now: a deadline 0–14 days away; prepare: 15–60 days; monitor: a later deadline, or an active signal
 * without one that may still call for action; informational: nothing to act on (past deadline, a record).
 */
export function actionability(deadline: string | null, today: string, actionable: boolean): Actionability {
  if (deadline !== null) {
    const days = daysUntil(deadline, today);
    if (days < 0) return 'informational';
    if (days <= 14) return 'act_now';
    if (days <= 60) return 'prepare';
    return 'monitor';
  }
  return actionable ? 'monitor' : 'informational';
}

/** The UTC date (YYYY-MM-DD) of an instant. */
export function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}
