/**
 * Turns on what the configuration asks for (docs/deploy.md, Operating): metrics and their listener
 * (`METRICS_PORT`), traces (`OTEL_*`), and the Redis hook either needs. Called by `serve` before the store and the
 * app are made, so that their hooks find it on; a test calls it the same way.
 */

import { enableMetrics } from './metrics.js';
import { listenForScrapes, type MetricsListener } from './metrics-listener.js';
import { observeRedisCommands } from './redis-observer.js';
import { startTracing, type TracingSettings } from './tracing.js';

export interface ObservabilitySettings {
  readonly metrics?: { readonly host: string; readonly port: number };
  readonly tracing?: TracingSettings;
}

export interface Observability {
  /** The metrics listener's address; undefined when metrics are off. */
  readonly metricsUrl: string | undefined;
  /** Stops the listener and sends the spans not yet sent. */
  close(): Promise<void>;
}

export async function startObservability(settings: ObservabilitySettings, version: string): Promise<Observability> {
  let listener: MetricsListener | undefined;
  if (settings.metrics) {
    enableMetrics(version);
    listener = await listenForScrapes(settings.metrics.host, settings.metrics.port);
  }
  const tracing = settings.tracing ? startTracing(settings.tracing, version) : undefined;
  observeRedisCommands();
  return {
    metricsUrl: listener?.url,
    async close() {
      await listener?.close();
      await tracing?.stop();
    },
  };
}
