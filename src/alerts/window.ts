/**
 * The matcher skips items older than the longest alert-history window (`alerts_history_days`) of the plans that
 * can read alerts: a new rule is matched against the recent past that its owner's plan lets them look back on,
 * not against every record ever imported.
 */
import type { PlanRecord } from '../store/records.js';

const DAY_MS = 86_400_000;

/**
 * The first date (YYYY-MM-DD) worth matching, or null when nothing is too old: some plan with the `alerts`
 * domain has no window (null), or no plan has the domain at all (a plan given it later would see everything).
 */
export function alertWindowStart(plans: readonly PlanRecord[], now: Date): string | null {
  const days = alertWindowDays(plans);
  return days === null ? null : new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

/** How many days back alerts look: the longest window of the plans with `alerts`; null when nothing is too old. */
export function alertWindowDays(plans: readonly PlanRecord[]): number | null {
  const windows = plans.filter((p) => p.domains.includes('alerts')).map((p) => p.alerts_history_days);
  if (windows.length === 0 || windows.some((days) => days === null)) return null;
  return Math.max(...(windows as number[]));
}
