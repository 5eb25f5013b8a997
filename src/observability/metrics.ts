/**
 * Every metric family the service exposes (docs/deploy.md, Operating), on prom-client's default registry. Names
 * carry their unit; labels take only the bounded values of ./labels.ts. Nothing is recorded until
 * `enableMetrics` runs (serve with `METRICS_PORT`): each hook first reads `metricsOn`, so an instance without a
 * metrics listener pays one boolean test per hook.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';

/** Latency buckets, in seconds, from a cached answer (well under a millisecond) to a request timeout. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A statement or a Redis command: from a tenth of a millisecond to the statement timeout. */
const CALL_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
/** A pipeline step: from a second to an hour's sync. */
const STEP_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

export let metricsOn = false;

/** What a PostgreSQL pool (pg.Pool) tells of its connections. */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Read at each scrape before the backlog gauges are shown (./pipeline-observer.ts sets it). */
export const scrapeReaders: { backlog?: () => Promise<void> } = {};

/** The pools reported at each scrape, by role (./store-observer.ts): the served store's and the pipeline's. */
export const observedPools = new Map<string, Set<PoolCounts>>();

export const metrics = {
  requests: new Counter({
    name: 'munidata_requests_total',
    help: 'HTTP requests answered, by channel, operation and status class.',
    labelNames: ['channel', 'operation', 'status_class'] as const,
  }),
  requestDuration: new Histogram({
    name: 'munidata_request_duration_seconds',
    help: 'Time from a request received to its answer sent, by channel and operation.',
    labelNames: ['channel', 'operation'] as const,
    buckets: REQUEST_BUCKETS,
  }),
  refusals: new Counter({
    name: 'munidata_limit_refusals_total',
    help: 'Requests refused by a per-minute rate limit or the monthly quota, by kind.',
    labelNames: ['kind'] as const,
  }),
  authFailures: new Counter({
    name: 'munidata_auth_failures_total',
    help: 'Credentials refused, by kind (none sent, an API key not valid, an access token not valid).',
    labelNames: ['kind'] as const,
  }),
  statements: new Counter({
    name: 'munidata_store_statements_total',
    help: 'Store statements and transactions run, by area of the store and outcome.',
    labelNames: ['area', 'outcome'] as const,
  }),
  statementDuration: new Histogram({
    name: 'munidata_store_statement_duration_seconds',
    help: 'Time a store statement or transaction took, by area of the store.',
    labelNames: ['area'] as const,
    buckets: CALL_BUCKETS,
  }),
  statementTimeouts: new Counter({
    name: 'munidata_store_statement_timeouts_total',
    help: 'Store statements given up for taking longer than DATABASE_TIMEOUT_MS, by area of the store.',
    labelNames: ['area'] as const,
  }),
  poolConnections: new Gauge({
    name: 'munidata_store_pool_connections',
    help: 'PostgreSQL pool connections in use, idle, and requests waiting for one, by pool.',
    labelNames: ['pool', 'state'] as const,
    collect() {
      for (const [pool, members] of observedPools) {
        const sum = (count: (pool: PoolCounts) => number) => [...members].reduce((total, p) => total + count(p), 0);
        this.set(
          { pool, state: 'in_use' },
          sum((p) => p.totalCount - p.idleCount),
        );
        this.set(
          { pool, state: 'idle' },
          sum((p) => p.idleCount),
        );
        this.set(
          { pool, state: 'waiting' },
          sum((p) => p.waitingCount),
        );
      }
    },
  }),
  redisDuration: new Histogram({
    name: 'munidata_redis_command_duration_seconds',
    help: 'Time a Redis command took, by command.',
    labelNames: ['command'] as const,
    buckets: CALL_BUCKETS,
  }),
  redisErrors: new Counter({
    name: 'munidata_redis_command_errors_total',
    help: 'Redis commands that failed, by command.',
    labelNames: ['command'] as const,
  }),
  stepLastSuccess: new Gauge({
    name: 'munidata_pipeline_step_last_success_timestamp_seconds',
    help: 'When each pipeline step last succeeded on this instance (Unix time).',
    labelNames: ['step'] as const,
  }),
  stepDuration: new Histogram({
    name: 'munidata_pipeline_step_duration_seconds',
    help: 'Time a pipeline step run took, by step and outcome.',
    labelNames: ['step', 'outcome'] as const,
    buckets: STEP_BUCKETS,
  }),
  stepItems: new Counter({
    name: 'munidata_pipeline_step_items_total',
    help: 'Items a pipeline step processed (journal entries read, deliveries attempted, files synced), by step.',
    labelNames: ['step'] as const,
  }),
  stepBacklog: new Gauge({
    name: 'munidata_pipeline_backlog_items',
    help: 'Items waiting for a pipeline step: journal entries not yet read, deliveries pending in the outbox.',
    labelNames: ['step'] as const,
    async collect() {
      await scrapeReaders.backlog?.();
    },
  }),
  webhookDeliveries: new Counter({
    name: 'munidata_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome.',
    labelNames: ['outcome'] as const,
  }),
  outboxAge: new Gauge({
    name: 'munidata_webhook_outbox_oldest_age_seconds',
    help: 'Age of the oldest delivery pending in the webhook outbox (0 when it is empty).',
  }),
  buildInfo: new Gauge({
    name: 'munidata_build_info',
    help: 'Always 1; its labels name the version running.',
    labelNames: ['version', 'node_version'] as const,
  }),
};

/**
 * Starts recording: the hooks from now on, Node's own metrics (the event loop's lag among them, as
 * `nodejs_eventloop_lag_seconds`), and the build's version. Once per process; a second call changes nothing.
 */
export function enableMetrics(version: string): void {
  if (metricsOn) return;
  metricsOn = true;
  collectDefaultMetrics({ eventLoopMonitoringPrecision: 20 });
  metrics.buildInfo.set({ version, node_version: process.version }, 1);
}

/** The text Prometheus scrapes, and its content type. */
export async function exposition(): Promise<{ contentType: string; text: string }> {
  return { contentType: register.contentType, text: await register.metrics() };
}
