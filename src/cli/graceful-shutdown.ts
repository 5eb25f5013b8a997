/**
 * Graceful shutdown of `serve`. On SIGTERM or SIGINT the server stops accepting connections and lets the
 * requests in flight finish (Fastify's close waits for them, closes idle keep-alive connections and answers 503
 * to a new request on a kept-alive one), then the counters write their pending usage and the store closes. A
 * second signal, or requests still running at the deadline, end the process at once: an orchestrator kills it
 * soon after anyway (Kubernetes: 30 s after SIGTERM).
 */
import type { App } from '../app.js';
import type { Store } from '../store/store.js';

const DEADLINE_MS = 25_000;

/**
 * Closes in order — HTTP (in-flight requests finish), counters (usage flushed), store — and reports the first failure.
 */
export async function closeGracefully(app: App, store: Pick<Store, 'close'>): Promise<void> {
  let failure: unknown;
  try {
    await app.close();
  } catch (error) {
    failure = error;
  }
  try {
    await store.close();
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) throw failure;
}

export function closeOnSignals(app: App, store: Pick<Store, 'close'>): void {
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
    closeGracefully(app, store).then(
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
