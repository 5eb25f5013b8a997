/**
 * Operational endpoints for load balancers and orchestrators, beside the API rather than in it: no credential,
 * counted against no limit, absent from the OpenAPI document.
 *
 *   GET /healthz  liveness: 200 {"status":"ok"} while the process serves requests (restart it when this fails).
 *   GET /readyz   readiness: 200 when the store and the counters each answer a cheap ping within two seconds,
 *                 else 503 naming the one that failed. A balancer takes the instance out of rotation meanwhile;
 *                 it comes back by itself when the dependency does. `dependencies` says per dependency (the
 *                 store's primary and replica, Redis, the pipeline) ok or not and since when, as this instance saw
 *                 it. The pipeline's detail (docs/pipeline.md) comes along; the pipeline never decides readiness
 *                 (a failing sync is no reason to take an instance out of rotation).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Counters } from '../access/counters.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../lib/dependency.js';
import type { PipelineStepStatus } from '../store/pipeline/pipeline-records.js';
import type { Store } from '../store/store.js';

const CHECK_TIMEOUT_MS = 2_000;

type CheckState = 'ok' | 'unavailable';

interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly store: CheckState; readonly counters: CheckState };
  readonly dependencies: Record<string, DependencyState>;
  readonly pipeline: PipelineDetail | 'unavailable';
}

/** One dependency as `/readyz` tells it: ok or not, and since when (this instance's first probe seeing it so). */
interface DependencyState {
  readonly status: 'ok' | 'unavailable' | 'failing';
  readonly since: string;
}

/** The pipeline as `/readyz` details it: its cycle (0: off on this instance) and each step's status. */
interface PipelineDetail {
  readonly interval_s: number;
  readonly steps: readonly PipelineStepStatus[];
}

export interface HealthDeps {
  readonly store: Pick<Store, 'dataVersion' | 'pipeline'>;
  readonly counters: Pick<Counters, 'ping'>;
  /** `PIPELINE_INTERVAL_S` of this instance. */
  readonly pipelineIntervalS: number;
  /** Whether the store reads from a replica (`DATABASE_READ_URL`) and the counters are in Redis (`REDIS_URL`). */
  readonly replica?: boolean;
  readonly redis?: boolean;
  readonly clock?: () => number;
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  // Probes arriving together (several balancers) share the check in flight.
  let inFlight: Promise<Readiness> | undefined;
  const since = sinceTracker(deps.clock ?? Date.now);
  const readiness = () => {
    inFlight ??= check(deps, since).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  app.get('/healthz', (_request, reply) => json(reply).send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { ready, checks, dependencies, pipeline } = await readiness();
    if (!ready) reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return json(reply).send({ status: ready ? 'ok' : 'unavailable', checks, dependencies, pipeline });
  });
}

async function check(deps: HealthDeps, since: SinceTracker): Promise<Readiness> {
  // The pipeline's statuses are read on the primary, the data version on the replica (the primary without one).
  const [replica, counters, steps] = await Promise.all([
    probe(() => deps.store.dataVersion()),
    probe(() => deps.counters.ping()),
    probe(() => deps.store.pipeline.listPipelineSteps()),
  ]);
  const ok = (state: unknown) => (state === 'unavailable' ? 'unavailable' : 'ok');
  const store = ok(replica) === 'ok' && ok(steps) === 'ok' ? 'ok' : 'unavailable';
  const dependencies: Record<string, DependencyState> = {
    store_primary: since('store_primary', ok(steps)),
    ...(deps.replica && { store_replica: since('store_replica', ok(replica)) }),
    ...(deps.redis && { redis: since('redis', ok(counters)) }),
    pipeline: since('pipeline', steps === 'unavailable' ? 'unavailable' : pipelineState(steps)),
  };
  return {
    ready: store === 'ok' && ok(counters) === 'ok',
    checks: { store, counters: ok(counters) },
    dependencies,
    pipeline: steps === 'unavailable' ? steps : { interval_s: deps.pipelineIntervalS, steps },
  };
}

/** Failing while a step's last run failed (its last error is newer than its last success). */
function pipelineState(steps: readonly PipelineStepStatus[]): DependencyState['status'] {
  const failing = steps.some(
    (s) => s.last_error_at !== null && (s.last_success_at === null || s.last_error_at > s.last_success_at),
  );
  return failing ? 'failing' : 'ok';
}

type SinceTracker = (name: string, status: DependencyState['status']) => DependencyState;

/** Each dependency's status with the time this instance first saw it in that status (since the last change). */
function sinceTracker(clock: () => number): SinceTracker {
  const seen = new Map<string, DependencyState>();
  return (name, status) => {
    const last = seen.get(name);
    if (last?.status === status) return last;
    const state = { status, since: new Date(clock()).toISOString() };
    seen.set(name, state);
    return state;
  };
}

/** What `run` resolves with, when in time; a failure or a hang is 'unavailable' (a driver may wait far longer). */
async function probe<T>(run: () => Promise<T>): Promise<T | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'unavailable'>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run().catch(() => 'unavailable' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function json(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
}
