/**
 * The procurement detectors: the announcement, contract and amendment entries of the journal after the watermark
 * `detect:procurement`, batch by batch; each batch's signals are written with the batch's last seq as the new
 * watermark, in one transaction. A crash loses at most the batch in flight, which the next run does again; running
 * again when nothing changed reads no entry (the signal writes are entries of another kind) and writes nothing.
 */
import type { ChangeKind, SignalWriteSummary } from '../store/signal-records.js';
import type { DetectionContext } from './detection-context.js';
import type { DetectionStore } from './detection-store.js';
import { procurementSignals } from './procurement-batch.js';

export const PROCUREMENT_WATERMARK = 'detect:procurement';
export const DEFAULT_BATCH_SIZE = 2000;
/** The journal entries procurement detection reads (docs/signals.md). */
export const PROCUREMENT_KINDS: readonly ChangeKind[] = ['announcement', 'contract', 'amendment'];

export interface DetectorSummary extends SignalWriteSummary {
  /** Journal entries read. */
  entries: number;
  /** Transactions committed. */
  batches: number;
}

export function emptySummary(): DetectorSummary {
  return { entries: 0, batches: 0, inserted: 0, updated: 0, unchanged: 0 };
}

export function addWrites(into: SignalWriteSummary, from: SignalWriteSummary): void {
  into.inserted += from.inserted;
  into.updated += from.updated;
  into.unchanged += from.unchanged;
}

export async function detectProcurement(
  store: DetectionStore,
  ctx: DetectionContext,
  options: { now: string; batchSize?: number },
): Promise<DetectorSummary> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const summary = emptySummary();
  const start = Number((await store.getWatermark(PROCUREMENT_WATERMARK)) ?? 0);
  // The journal's end before reading: every procurement entry up to it is read below, so the watermark moves there
  // past the entries of other kinds (signals, observations) that this detector never reads.
  const end = await store.lastChangeSeq();
  let after = start;
  for (;;) {
    const entries = await store.readChanges(after, batchSize, PROCUREMENT_KINDS);
    if (entries.length === 0) break;
    const ids = { announcements: [] as number[], contracts: [] as number[], amendments: [] as number[] };
    for (const e of entries) {
      if (e.kind === 'announcement') ids.announcements.push(e.id);
      else if (e.kind === 'contract') ids.contracts.push(e.id);
      else if (e.kind === 'amendment') ids.amendments.push(e.id);
    }
    const signals = await procurementSignals(store, ctx, ids);
    after = entries[entries.length - 1].seq;
    addWrites(
      summary,
      await store.writeSignals({
        signals,
        now: options.now,
        watermark: { name: PROCUREMENT_WATERMARK, value: String(after) },
      }),
    );
    summary.entries += entries.length;
    summary.batches++;
  }
  if (end > after) await store.setWatermark(PROCUREMENT_WATERMARK, String(end));
  return summary;
}
