/**
 * Graceful shutdown of `serve`. On SIGTERM or SIGINT the pipeline starts no step more (the step in progress has
 * until PIPELINE_STOP_MS to finish, else it is abandoned: docs/pipeline.md), and meanwhile the server stops
 * accepting connections and lets the requests in flight finish (Fastify's close waits for them, closes idle
 * keep-alive connections and answers 503 to a new request on a kept-alive one), then the counters write their
 * pending usage and the store closes. A second signal, or requests still running at the deadline, end the process
 * at once: an orchestrator kills it soon after anyway (Kubernetes: 30 s after SIGTERM).
 */
import type { App } from '../app.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Store } from '../store/store.js';

const DEADLINE_MS = 25_000;
/** A pipeline step still running this long after the signal is abandoned, well before the deadline. */
const PIPELINE_STOP_MS = 15_000;

/** The pipeline of `serve` and the store of its own it runs on. */
export interface RunningPipeline {
  readonly pipeline: Pick<Pipeline, 'stop'>;
  readonly store: Pick<Store, 'close'>;
}

/**
 * Closes in order — HTTP (in-flight requests finish), counters (usage flushed), store — while the pipeline, if any,
 * stops beside them and then closes its store; reports the first failure.
 */
export async function closeGracefully(app: App, store: Pick<Store, 'close'>, running?: RunningPipeline): Promise<void> {
  const failures: unknown[] = [];
  const attempt = async (close: () => Promise<unknown>) => {
    try {
      await close();
    } catch (error) {
      failures.push(error);
    }
  };
  const pipelineClosed = running
    ? attempt(() => running.pipeline.stop(PIPELINE_STOP_MS)).then(() => attempt(() => running.store.close()))
    : Promise.resolve();
  await attempt(() => app.close());
  await attempt(() => store.close());
  await pipelineClosed;
  if (failures.length > 0) throw failures[0];
}

export function closeOnSignals(app: App, store: Pick<Store, 'close'>, running?: RunningPipeline): void {
  const log = app.http.log;
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    closing = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      log.error({ deadline_ms: DEADLINE_MS }, 'requests still in flight at the shutdown deadline: exiting');
      process.exit(1);
    }, DEADLINE_MS).unref();
    closeGracefully(app, store, running).then(
      () => {
        log.info('shut down');
        process.exit(0);
      },
      (error: unknown) => {
        // Usage not written stays lost only for this instance's last second; say so loudly.
        log.error({ err: error }, 'shutdown incomplete: pending usage or the store could not be closed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
