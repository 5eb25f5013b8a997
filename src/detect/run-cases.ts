/** Computes the cases that signal writes marked pending, batch by batch (one transaction per batch). */
import type { Store } from '../store/store.js';
import { computeCase } from './cases.js';

export const DEFAULT_CASE_BATCH = 1000;

export interface CaseRunSummary {
  computed: number;
  events: number;
}

export async function runCases(
  store: Pick<Store, 'pendingCases' | 'saveCases'>,
  options: { now: string; batchSize?: number },
): Promise<CaseRunSummary> {
  const batchSize = options.batchSize ?? DEFAULT_CASE_BATCH;
  const summary: CaseRunSummary = { computed: 0, events: 0 };
  const seen = new Set<number>();
  for (;;) {
    const pending = await store.pendingCases(batchSize);
    // A case another writer marks again while we compute it stays pending: it is taken up by the next run,
    // not over and over by this one.
    const fresh = pending.filter((p) => !seen.has(p.id));
    if (fresh.length === 0) break;
    const updates = fresh.map((p) => computeCase(p, options.now));
    await store.saveCases(updates);
    for (const u of updates) {
      seen.add(u.id);
      summary.computed++;
      summary.events += u.events.length;
    }
  }
  return summary;
}
