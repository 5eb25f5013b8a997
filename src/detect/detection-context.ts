/**
 * What every detector derives signals from besides the records: the day of the run (statuses and
 * actionability depend on it, so it comes from the caller's clock, never from `new Date()` in here) and the
 * municipalities. Also the rule for a signal that a record no longer supports.
 */
import { demoTitle, isSyntheticSignalKey } from '../lib/provenance.js';
import type { SignalCaseRef, SignalInput, SignalRecord } from '../store/signal-records.js';
import type { Places } from './places.js';

export const DETECTOR_ORIGIN = 'detector';

export interface DetectionContext {
  /** The run's day, YYYY-MM-DD (UTC). */
  today: string;
  places: Places;
}

/**
 * A stored signal that its record no longer supports (a price corrected below the threshold, a deadline moved out
 * of the window): kept, `withdrawn` (or `expired` when time, not the data, retired it), with nothing left to act
 * on. Retiring a retired signal again gives the same signal, so this is idempotent.
 */
export function retired(
  existing: SignalRecord,
  status: 'withdrawn' | 'expired',
  caseRef: SignalCaseRef | null,
): SignalInput {
  const { id: _id, first_seen_at: _f, last_seen_at: _l, case_id: _c, ...fields } = existing;
  return { ...fields, status, actionability: 'informational', case: caseRef };
}

/**
 * What a record could signal under one key: the signal, or null when the record does not (or no longer) call for it.
 */
export interface Candidate {
  key: string;
  signal: SignalInput | null;
  /** The case the signal is (or would be) in: a withdrawn signal stays there. */
  case: SignalCaseRef;
}

/** The signals to write: those derived, and the withdrawals of stored ones that no record derives any more. */
export function settle(candidates: readonly Candidate[], existing: ReadonlyMap<string, SignalRecord>): SignalInput[] {
  const out: SignalInput[] = [];
  for (const c of candidates) {
    if (c.signal)
      out.push(
        markedDemo(
          c.signal,
          isSyntheticSignalKey(c.key, () => false),
        ),
      );
    else {
      const old = existing.get(c.key);
      if (old) out.push(retired(old, 'withdrawn', c.case));
    }
  }
  return out;
}

/**
 * A signal derived from demo data says so in its titles, which cases take from their origin signal
 * (docs/data.md, "Real and synthetic data"): `[demo] ` before each.
 */
export function markedDemo(signal: SignalInput, synthetic: boolean): SignalInput {
  if (!synthetic) return signal;
  return { ...signal, title_pt: demoTitle(signal.title_pt), title_en: demoTitle(signal.title_en) };
}
