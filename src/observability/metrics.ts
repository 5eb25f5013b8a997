/**
 * Every metric family the service exposes (docs/deploy.md, Operating), on prom-client's default registry. Names
 * carry their unit; labels take only the bounded values of ./labels.ts. Nothing is recorded until
 * `enableMetrics` runs (serve with `METRICS_PORT`): each hook first reads `metricsOn`, so an instance without a
 * metrics listener pays one boolean test per hook.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';
import type { POOL_STATES } from './labels.js';

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

/**
 * A family is its name (its unit in it), its help, the labels it is split by (none when omitted) and, for a
 * histogram, its buckets; a gauge read at scrape time has a `collect` too. These three helpers let the table below
 * say only that, one line of arguments a family.
 */
function counter<const L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) {
  return new Counter<L>({ name, help, labelNames });
}

function histogram<const L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
  return new Histogram<L>({ name, help, labelNames, buckets });
}

function gauge<const L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  collect?: (this: Gauge<L>) => void | Promise<void>,
) {
  return new Gauge<L>({ name, help, labelNames, ...(collect && { collect }) });
}

/**
 * How each of the pool gauge's states (./labels.ts) is read from what a pool tells; the gauge sums it over the
 * pools of a role. Keyed by the label set, so a state added there without a reading here does not compile.
 */
const POOL_STATE_COUNTS: Record<(typeof POOL_STATES)[number], (pool: PoolCounts) => number> = {
  in_use: (p) => p.totalCount - p.idleCount,
  idle: (p) => p.idleCount,
  waiting: (p) => p.waitingCount,
};

export const metrics = {
  requests: counter('munidata_requests_total', 'HTTP requests answered, by channel, operation and status class.', [
    'channel',
    'operation',
    'status_class',
  ]),
  requestDuration: histogram(
    'munidata_request_duration_seconds',
    'Time from a request received to its answer sent, by channel and operation.',
    ['channel', 'operation'],
    REQUEST_BUCKETS,
  ),
  refusals: counter(
    'munidata_limit_refusals_total',
    'Requests refused by a per-minute rate limit or the monthly quota, by kind.',
    ['kind'],
  ),
  authFailures: counter(
    'munidata_auth_failures_total',
    'Credentials refused, by kind (none sent, an API key not valid, an access token not valid).',
    ['kind'],
  ),
  statements: counter(
    'munidata_store_statements_total',
    'Store statements and transactions run, by area of the store and outcome.',
    ['area', 'outcome'],
  ),
  statementDuration: histogram(
    'munidata_store_statement_duration_seconds',
    'Time a store statement or transaction took, by area of the store.',
    ['area'],
    CALL_BUCKETS,
  ),
  statementTimeouts: counter(
    'munidata_store_statement_timeouts_total',
    'Store statements given up for taking longer than DATABASE_TIMEOUT_MS, by area of the store.',
    ['area'],
  ),
  poolConnections: gauge(
    'munidata_store_pool_connections',
    'PostgreSQL pool connections in use, idle, and requests waiting for one, by pool.',
    ['pool', 'state'],
    function collect() {
      for (const [pool, members] of observedPools) {
        for (const [state, count] of Object.entries(POOL_STATE_COUNTS)) {
          this.set(
            { pool, state },
            [...members].reduce((total, p) => total + count(p), 0),
          );
        }
      }
    },
  ),
  redisDuration: histogram(
    'munidata_redis_command_duration_seconds',
    'Time a Redis command took, by command.',
    ['command'],
    CALL_BUCKETS,
  ),
  redisErrors: counter('munidata_redis_command_errors_total', 'Redis commands that failed, by command.', ['command']),
  stepLastSuccess: gauge(
    'munidata_pipeline_step_last_success_timestamp_seconds',
    'When each pipeline step last succeeded on this instance (Unix time).',
    ['step'],
  ),
  stepDuration: histogram(
    'munidata_pipeline_step_duration_seconds',
    'Time a pipeline step run took, by step and outcome.',
    ['step', 'outcome'],
    STEP_BUCKETS,
  ),
  stepItems: counter(
    'munidata_pipeline_step_items_total',
    'Items a pipeline step processed (journal entries read, deliveries attempted, files synced), by step.',
    ['step'],
  ),
  stepBacklog: gauge(
    'munidata_pipeline_backlog_items',
    'Items waiting for a pipeline step: journal entries not yet read, deliveries pending in the outbox.',
    ['step'],
    async () => {
      await scrapeReaders.backlog?.();
    },
  ),
  webhookDeliveries: counter('munidata_webhook_deliveries_total', 'Webhook delivery attempts, by outcome.', [
    'outcome',
  ]),
  outboxAge: gauge(
    'munidata_webhook_outbox_oldest_age_seconds',
    'Age of the oldest delivery pending in the webhook outbox (0 when it is empty).',
  ),
  buildInfo: gauge('munidata_build_info', 'Always 1; its labels name the version running.', [
    'version',
    'node_version',
  ]),
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
