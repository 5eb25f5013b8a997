/**
 * The pipeline's hooks (../pipeline/): each step's run is a span of its own (a trace of its own, as no request
 * started it), timed, its last success and the items it processed recorded; webhook attempts are counted by
 * outcome; the backlog is read from the store at each scrape. Off, a step runs as it is.
 */
import { metrics, metricsOn, scrapeReaders } from './metrics.js';
import { inSpan, tracingOn } from './tracing.js';

export async function observeStep<T>(step: string, run: () => Promise<T>, items?: (summary: T) => number) {
  if (!metricsOn && !tracingOn) return run();
  const started = performance.now();
  let outcome = 'failed';
  try {
    const summary = await inSpan(`pipeline ${step}`, { 'munidata.pipeline_step': step }, run);
    outcome = 'ran';
    if (metricsOn) {
      metrics.stepLastSuccess.set({ step }, Date.now() / 1000);
      if (items) metrics.stepItems.inc({ step }, items(summary));
    }
    return summary;
  } finally {
    if (metricsOn) metrics.stepDuration.observe({ step, outcome }, (performance.now() - started) / 1000);
  }
}

/** What a delivery run did with the attempts it made. */
export function countDeliveries(summary: { delivered: number; retrying: number; failed: number }): void {
  if (!metricsOn) return;
  for (const outcome of ['delivered', 'retrying', 'failed'] as const) {
    if (summary[outcome] > 0) metrics.webhookDeliveries.inc({ outcome }, summary[outcome]);
  }
}

/** The pipeline's backlog as the store tells it: items waiting per step, and the outbox's oldest pending delivery. */
export interface Backlog {
  readonly steps: Readonly<Record<string, number>>;
  /** When the oldest pending delivery's event occurred (ISO 8601); null when the outbox is empty. */
  readonly outboxOldest: string | null;
}

/**
 * Reads the backlog at each scrape, through `read` (a store's, given where one is at hand). A read that fails or
 * takes over a second leaves the last values: a scrape never waits on a store in trouble.
 */
export function observeBacklog(read: () => Promise<Backlog>): void {
  if (!metricsOn) return;
  scrapeReaders.backlog = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), 1_000);
    });
    const backlog = await Promise.race([read().catch(() => undefined), late]);
    clearTimeout(timer);
    if (!backlog) return;
    for (const [step, items] of Object.entries(backlog.steps)) metrics.stepBacklog.set({ step }, items);
    const oldest = backlog.outboxOldest === null ? undefined : Date.parse(backlog.outboxOldest);
    metrics.outboxAge.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
  };
}
