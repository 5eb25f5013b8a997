/**
 * The pipeline as `serve` starts it (docs/pipeline.md): its steps from the configuration, its leases in Redis when
 * the deployment has one (`REDIS_URL`) and else in the store, a cycle every `PIPELINE_INTERVAL_S` seconds.
 */
import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { storeLease } from './lease.js';
import { Pipeline, type PipelineLog } from './pipeline.js';
import { redisLease } from './redis-lease.js';
import { pipelineSteps } from './steps.js';

export interface StartedPipeline {
  readonly pipeline: Pipeline;
  /** What shutdown stops, and what it closes after: the pipeline's store and Redis connection. */
  readonly running: { readonly pipeline: Pipeline; readonly store: { close(): Promise<void> } };
  /** For the banner: how often, which syncs, where the leases are. */
  readonly description: string;
}

/** Undefined (and `store` closed) when `PIPELINE_INTERVAL_S` is 0. */
export function startPipeline(config: Config, store: Store, log: PipelineLog): StartedPipeline | undefined {
  if (config.pipelineIntervalS === 0) {
    void store.close();
    return undefined;
  }
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 }) : null;
  // Without a listener ioredis prints every failed reconnection; a lease that cannot be taken is logged by the cycle.
  redis?.on('error', () => {});
  const pipeline = new Pipeline({
    store,
    lease: redis ? redisLease(redis, config.redisPrefix ?? 'munidata:') : storeLease(store),
    steps: pipelineSteps({
      sync: config.pipelineSync,
      ineApiUrl: config.ineApiUrl,
      baseDataUrl: config.baseDataUrl,
      webhookAllowLoopback: config.webhookAllowLoopback ?? false,
    }),
    intervalS: config.pipelineIntervalS,
    log,
  });
  pipeline.start();
  const close = async () => {
    redis?.disconnect();
    await store.close();
  };
  const syncs = config.pipelineSync.length > 0 ? config.pipelineSync.join(', ') : 'none (PIPELINE_SYNC)';
  return {
    pipeline,
    running: { pipeline, store: { close } },
    description:
      `every ${config.pipelineIntervalS} s (sync: ${syncs}; detection, alert matching` +
      `; leases in ${redis ? 'Redis' : 'the store'})`,
  };
}
