/**
 * `updated_at`, the instant a served record (contract, signal, case, alert match) last changed, as lists read it for
 * syncing clients (`updated_since`, docs/api.md "Syncing"). A write takes the writers' turn, held to its commit, and
 * stamps what it changes with an instant later than any stamp given before: stamps then grow in commit order, so a
 * reader that has passed a stamp never later finds a record committed below it. Millisecond instants
 * (`2026-07-14T09:30:00.123Z`, one format, compared as text): whole seconds would tie two writes of one second.
 */
import { getWatermark, setWatermark, takeJournalTurn } from '../journal/journal.js';
import type { SqlPort } from '../sql/port.js';

/** The watermark holding the last stamp given (set by the migration to the newest backfilled one). */
export const STAMP_CLOCK = 'updated_at';

/** Inside the writer's transaction: the stamp of what it changes, the later of now and 1 ms after the last. */
export async function changeStamp(tx: SqlPort, nowMs: number = Date.now()): Promise<string> {
  await takeJournalTurn(tx);
  const last = await getWatermark(tx, STAMP_CLOCK);
  const stamp = new Date(Math.max(nowMs, last === null ? 0 : Date.parse(last) + 1)).toISOString();
  await setWatermark(tx, STAMP_CLOCK, stamp);
  return stamp;
}
