/**
 * Whether a signal can be matched by an alert rule: only while it stands when the matcher reads it (docs/alerts.md,
 * "Withdrawn and expired signals"). Detection keeps a signal its record no longer supports as `withdrawn`, and one
 * that time retired as `expired` (docs/signals.md); an alert about either would announce a flag that no longer holds.
 * The status is the one the batch's single read of its signals returns, so the test costs no query. The matcher and
 * the console's preview both get their items from `loadItems`, which asks this, so they cannot disagree.
 */
import type { SignalRecord } from '../store/signal-records.js';

export function isMatchableSignal(signal: Pick<SignalRecord, 'status'>): boolean {
  return signal.status === 'active';
}
