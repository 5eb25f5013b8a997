/**
 * The steps of a cycle, in order (docs/pipeline.md): the syncs the deployment configured (`PIPELINE_SYNC`), then
 * detection, then the alert matcher, then delivery. Each resumes from its own watermark, so a cycle does only what
 * changed since the last; each runs under its own lease, so that with several instances one runs it at a time.
 */
import { type AlertMatchingSummary, runAlertMatching } from '../alerts/run-matching.js';
import type { PipelineSync } from '../config.js';
import { type DetectionSummary, runDetection } from '../detect/run-detection.js';
import { PoliteClient } from '../ingest/sync/polite-client.js';
import { syncBase } from '../ingest/sync/sync-base.js';
import { syncIne } from '../ingest/sync/sync-ine.js';
import { countDeliveries } from '../observability/pipeline-observer.js';
import { type DeliverSummary, deliverWebhooks } from '../webhooks/deliver.js';
import type { PipelineStep } from './step.js';

/**
 * A sync asks another service for its files: at most once an hour, whatever the cycle, counted from its last start
 * (a failing source is not asked again every minute).
 */
export const SYNC_EVERY_S = 3_600;

export interface StepSettings {
  readonly sync: readonly PipelineSync[];
  /** `INE_API_URL` and `BASE_DATA_URL`, as the `sync` commands read them. */
  readonly ineApiUrl: string;
  readonly baseDataUrl: string;
  /** WEBHOOK_ALLOW_LOOPBACK: delivery may reach http receivers on loopback. */
  readonly webhookAllowLoopback: boolean;
}

export function pipelineSteps(settings: StepSettings): PipelineStep[] {
  return [...settings.sync.map((source) => syncStep(source, settings)), DETECT, MATCH, deliverStep(settings)];
}

/** The webhook deliveries the matcher and the detectors put in the outbox (docs/webhooks.md). */
function deliverStep(settings: StepSettings): PipelineStep {
  return {
    name: 'deliver',
    async run({ store, now }) {
      const summary = await deliverWebhooks(store, { now: now(), allowLoopback: settings.webhookAllowLoopback });
      countDeliveries(summary);
      return summary;
    },
    items: (summary) => (summary as DeliverSummary).attempted,
  };
}

const DETECT: PipelineStep = {
  name: 'detect',
  run: ({ store, now }) => runDetection(store, { now: now() }),
  // The journal entries the procurement detector read: the backlog it works down.
  items: (summary) => (summary as DetectionSummary).procurement.entries,
};

const MATCH: PipelineStep = {
  name: 'match',
  run: ({ store, now }) => runAlertMatching(store, { now: now() }),
  items: (summary) => (summary as AlertMatchingSummary).entries,
};

function syncStep(source: PipelineSync, settings: StepSettings): PipelineStep {
  return {
    name: `sync_${source}`,
    due: (status, now) =>
      status?.last_started_at == null || Date.parse(status.last_started_at) + SYNC_EVERY_S * 1000 <= now.getTime(),
    async run({ store, progress }) {
      const client = new PoliteClient({ log: progress });
      const report =
        source === 'base'
          ? await syncBase(store, { client, baseUrl: settings.baseDataUrl, log: progress })
          : await syncIne(store, { client, baseUrl: settings.ineApiUrl, log: progress });
      if (!report.ok) {
        throw new Error(
          report.stopped !== null ? `stopped: ${report.stopped}` : `some ${source} files failed (see the log)`,
        );
      }
      return report;
    },
    // The requests made to the source (each a file or an indicator's period).
    items: (report) => (report as { requests: number }).requests,
  };
}
