/**
 * The pipeline's backlog as the store holds it, for the metrics (docs/deploy.md, Operating): the journal entries
 * detection has not read yet, those the least advanced enabled alert rule has not been matched against, and the
 * deliveries waiting in the webhook outbox with the age of the oldest.
 */
import { matchedUpTo } from '../alerts/run-matching.js';
import { PROCUREMENT_WATERMARK } from '../detect/procurement-detector.js';
import type { Backlog } from '../observability/pipeline-observer.js';
import type { Store } from '../store/store.js';

export async function pipelineBacklog(store: Store): Promise<Backlog> {
  const [last, read, matched, outbox] = await Promise.all([
    store.lastChangeSeq(),
    store.getWatermark(PROCUREMENT_WATERMARK),
    matchedUpTo(store),
    store.webhooks.outboxBacklog(),
  ]);
  return {
    steps: {
      detect: Math.max(0, last - Number(read ?? 0)),
      match: matched === null ? 0 : Math.max(0, last - matched),
      deliver: outbox.pending,
    },
    outboxOldest: outbox.oldest,
  };
}
