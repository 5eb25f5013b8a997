/**
 * Operational endpoints for load balancers and orchestrators, beside the API rather than in it: no credential,
 * counted against no limit, absent from the OpenAPI document.
 *
 *   GET /healthz  liveness: 200 {"status":"ok"} while the process serves requests (restart it when this fails).
 *   GET /readyz   readiness: 200 when the store and the counters each answer a cheap ping within two seconds,
 *                 else 503 naming the one that failed. A balancer takes the instance out of rotation meanwhile;
 *                 it comes back by itself when the dependency does. Its body also carries the pipeline's
 *                 detail (docs/pipeline.md): each step's run in progress, last success and last error, as the store
 *                 holds them for every instance; the pipeline never decides readiness (a failing sync is no reason
 *                 to take an instance out of rotation).
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
  readonly pipeline: PipelineDetail | 'unavailable';
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
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  // Probes arriving together (several balancers) share the check in flight.
  let inFlight: Promise<Readiness> | undefined;
  const readiness = () => {
    inFlight ??= check(deps).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  app.get('/healthz', (_request, reply) => json(reply).send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { ready, checks, pipeline } = await readiness();
    if (!ready) reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return json(reply).send({ status: ready ? 'ok' : 'unavailable', checks, pipeline });
  });
}

async function check(deps: HealthDeps): Promise<Readiness> {
  const [store, counters, steps] = await Promise.all([
    probe(() => deps.store.dataVersion()),
    probe(() => deps.counters.ping()),
    probe(() => deps.store.pipeline.listPipelineSteps()),
  ]);
  const ok = (state: unknown) => (state === 'unavailable' ? 'unavailable' : 'ok');
  return {
    ready: ok(store) === 'ok' && ok(counters) === 'ok',
    checks: { store: ok(store), counters: ok(counters) },
    pipeline: steps === 'unavailable' ? steps : { interval_s: deps.pipelineIntervalS, steps },
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
