/**
 * The time sweep: deadlines pass, and enter the 14- and 60-day windows, without any record changing, so no
 * journal entry tells the detectors. The watermark `detect:sweep` holds the day of the last sweep; a run on a
 * later day derives again the signals of every notice whose classification may have moved since:
 *   - deadlines in [last sweep, today)        passed: tender_open → closed/expired, deadline_closing → expired;
 *   - deadlines in (last sweep + 14, today + 14] entered the deadline_closing window (act_now);
 *   - deadlines in (last sweep + 60, today + 60] moved from monitor to prepare.
 * That is every notice with a deadline in [last sweep, today + 60]: one keyset walk by deadline.
 *
 * Every stored notice signal was derived on a day ≥ the sweep watermark: the procurement detector uses the run's
 * day, and before anything is detected at all the watermark is set to that first day (see `startSweep`).
 */

import type { DatePosition } from '../store/procurement-queries.js';
import type { AnnouncementRecord } from '../store/procurement-records.js';
import type { DetectionContext } from './detection-context.js';
import type { DetectionStore } from './detection-store.js';
import { signalsOf } from './procurement-batch.js';
import {
  addWrites,
  DEFAULT_BATCH_SIZE,
  type DetectorSummary,
  emptySummary,
  PROCUREMENT_WATERMARK,
} from './procurement-detector.js';

export const SWEEP_WATERMARK = 'detect:sweep';
/** The furthest actionability boundary ahead of a deadline (prepare starts 60 days before it). */
const HORIZON_DAYS = 60;

/** Before the very first detection, nothing is stale: the sweep starts on the day of that run. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export async function startSweep(store: DetectionStore, today: string): Promise<void> {
  if ((await store.getWatermark(SWEEP_WATERMARK)) !== null) return;
  if ((await store.getWatermark(PROCUREMENT_WATERMARK)) !== null) return;
  await store.setWatermark(SWEEP_WATERMARK, today);
}

export async function sweepDeadlines(
  store: DetectionStore,
  ctx: DetectionContext,
  options: { now: string; batchSize?: number },
): Promise<DetectorSummary & { from: string | null }> {
  const summary = emptySummary();
  const last = await store.getWatermark(SWEEP_WATERMARK);
  // No watermark: a store whose signals predate the sweep; derive every notice still within reach of a boundary.
  const from = last ?? '0000-01-01';
  if (from >= ctx.today) return { ...summary, from: last };
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const filter = { closingAfter: from, closingBefore: addDays(ctx.today, HORIZON_DAYS), order: 'deadline' as const };
  let after: DatePosition | undefined;
  for (;;) {
    const page: AnnouncementRecord[] = await store.listAnnouncements(filter, { after, limit: batchSize });
    if (page.length === 0) break;
    const signals = await signalsOf(store, ctx, { announcements: page, contracts: [], amendments: [] });
    addWrites(summary, await store.writeSignals({ signals, now: options.now }));
    summary.entries += page.length;
    summary.batches++;
    const tail = page[page.length - 1];
    after = { date: tail.deadline_on, id: tail.id };
    if (page.length < batchSize) break;
  }
  await store.setWatermark(SWEEP_WATERMARK, ctx.today);
  return { ...summary, from: last };
}
