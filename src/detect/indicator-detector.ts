/**
 * The indicator detectors: reads the journal after the watermark `detect:indicators` for the indicators whose
 * observations changed, then derives each such indicator's signals again from every municipality's series —
 * all of them, because a jump is judged against the other municipalities' changes at the same date, so one
 * municipality's new figures can make or unmake another's jump. Each indicator's signals are written in slices
 * of one transaction each; the watermark moves once every changed indicator is done. A crash before that makes
 * the next run derive them all again, which writes only what the crash left unwritten.
 */

import { isDemoIndicatorSource } from '../lib/provenance.js';
import type { ObservationRow } from '../store/records.js';
import type { InstantPosition } from '../store/signal-queries.js';
import type { SignalRecord } from '../store/signal-records.js';
import { DETECTOR_ORIGIN, type DetectionContext, markedDemo } from './detection-context.js';
import type { DetectionStore } from './detection-store.js';
import { INDICATORS, indicatorSignals } from './indicator-signals.js';
import { addWrites, DEFAULT_BATCH_SIZE, type DetectorSummary, emptySummary } from './procurement-detector.js';

export const INDICATORS_WATERMARK = 'detect:indicators';
const JOURNAL_PAGE = 10_000;

export async function detectIndicators(
  store: DetectionStore,
  ctx: DetectionContext,
  options: { now: string; batchSize?: number },
): Promise<DetectorSummary & { indicators: string[] }> {
  const summary = emptySummary();
  const start = Number((await store.getWatermark(INDICATORS_WATERMARK)) ?? 0);
  const changed = new Set<string>();
  // Up to the journal's end before reading, past the entries of other kinds, as the procurement detectors.
  const end = await store.lastChangeSeq();
  let last = start;
  for (;;) {
    const entries = await store.readChanges(last, JOURNAL_PAGE, ['observation']);
    if (entries.length === 0) break;
    for (const e of entries) if (e.key !== null) changed.add(e.key);
    last = entries[entries.length - 1].seq;
    summary.entries += entries.length;
  }
  const indicators = (await store.listIndicators()).filter((i) => changed.has(i.key));
  if (indicators.length > 0) {
    const stored = await storedIndicatorSignals(store);
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    for (const indicator of indicators) {
      // One read per indicator, grouped by municipality (in id order, each series by date, as the store gives them).
      const series = new Map<number, ObservationRow[]>();
      for (const row of await store.indicatorPoints(indicator.key)) {
        const rows = series.get(row.municipality_id);
        if (rows) rows.push(row);
        else series.set(row.municipality_id, [row]);
      }
      const synthetic = isDemoIndicatorSource(indicator.source);
      const signals = indicatorSignals(indicator, series, ctx, stored.get(indicator.key) ?? new Map()).map((s) =>
        markedDemo(s, synthetic),
      );
      for (let i = 0; i < signals.length; i += batchSize) {
        addWrites(summary, await store.writeSignals({ signals: signals.slice(i, i + batchSize), now: options.now }));
        summary.batches++;
      }
    }
  }
  last = Math.max(last, end);
  if (last > start) await store.setWatermark(INDICATORS_WATERMARK, String(last));
  return { ...summary, indicators: indicators.map((i) => i.key) };
}

/** Every stored signal of the indicators family, by indicator then key. */
async function storedIndicatorSignals(store: DetectionStore): Promise<Map<string, Map<string, SignalRecord>>> {
  const out = new Map<string, Map<string, SignalRecord>>();
  let after: InstantPosition | undefined;
  for (;;) {
    const page = await store.listSignals({ family: INDICATORS }, { after, limit: 1000 });
    for (const s of page) {
      const indicator = s.subject.indicator;
      // Signals of outside detectors (imported) are theirs to retire, not ours.
      if (indicator === null || s.origin !== DETECTOR_ORIGIN) continue;
      const m = out.get(indicator) ?? new Map<string, SignalRecord>();
      out.set(indicator, m);
      m.set(s.key, s);
    }
    if (page.length < 1000) break;
    const tail = page[page.length - 1];
    after = { at: tail.last_seen_at, id: tail.id };
  }
  return out;
}
