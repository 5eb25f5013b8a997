/**
 * Operational endpoints for load balancers and orchestrators, beside the API rather than in it: no credential,
 * counted against no limit, absent from the OpenAPI document.
 *
 *   GET /healthz  liveness: 200 {"status":"ok"} while the process serves requests (restart it when this fails).
 *   GET /readyz   readiness: 200 when the store and the counters each answer a cheap ping within two seconds,
 *                 else 503 naming the one that failed. A balancer takes the instance out of rotation meanwhile;
 *                 it comes back by itself when the dependency does.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Counters } from '../access/counters.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../lib/dependency.js';
import type { Store } from '../store/store.js';

const CHECK_TIMEOUT_MS = 2_000;

type CheckState = 'ok' | 'unavailable';

interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly store: CheckState; readonly counters: CheckState };
}

export interface HealthDeps {
  readonly store: Pick<Store, 'dataVersion'>;
  readonly counters: Pick<Counters, 'ping'>;
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
    const { ready, checks } = await readiness();
    if (!ready) reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    return json(reply).send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}

async function check(deps: HealthDeps): Promise<Readiness> {
  const [store, counters] = await Promise.all([
    probe(() => deps.store.dataVersion()),
    probe(() => deps.counters.ping()),
  ]);
  return { ready: store === 'ok' && counters === 'ok', checks: { store, counters } };
}

/** 'ok' when `run` resolves in time; a failure or a hang is 'unavailable' (a driver may wait far longer). */
async function probe(run: () => Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      run().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function json(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8');
}
