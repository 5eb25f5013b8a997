/**
 * The store's hooks: `observedPort` wraps one SQL port of an area of the store (../store/sql/port.ts) so that each
 * statement and transaction is counted, timed and, when tracing, a client span of the request that ran it;
 * `observePool` reports a PostgreSQL pool's connections at each scrape. Off, `observedPort` returns the port as it
 * is: the store's statements pay nothing.
 */
import { DependencyUnavailableError } from '../lib/dependency.js';
import { bounded, POOLS, STORE_AREAS } from './labels.js';
import { metrics, metricsOn, observedPools, type PoolCounts } from './metrics.js';
import { inClientSpan, tracingOn } from './tracing.js';

/** The part of the SQL port the hook sees (the store's own type, restated so that this floor imports no store). */
interface Port {
  readonly dialect: { readonly name: string };
  // The store's transaction types its own port: any port passes here.
  transaction<T>(work: (tx: any) => Promise<T>): Promise<T>;
  query(text: string, values?: readonly unknown[]): Promise<unknown[]>;
  run(text: string, values?: readonly unknown[]): Promise<number>;
  script(text: string): Promise<void>;
}

export function observedPort<P extends Port>(port: P, area: string): P {
  if (!metricsOn && !tracingOn) return port;
  const label = bounded(area, STORE_AREAS, 'data');
  const system = port.dialect.name === 'postgres' ? 'postgresql' : 'sqlite';
  const timed = <T>(name: string, text: string | undefined, work: () => Promise<T>) =>
    measured(label, () =>
      inClientSpan(
        name,
        { 'db.system': system, 'munidata.store_area': label, ...(text && { 'db.query.text': text }) },
        work,
      ),
    );
  const observed: Port = {
    dialect: port.dialect,
    query: (text: string, values?: readonly unknown[]) => timed('db query', text, () => port.query(text, values)),
    run: (text: string, values?: readonly unknown[]) => timed('db run', text, () => port.run(text, values)),
    script: (text: string) => timed('db script', undefined, () => port.script(text)),
    // The statements of a transaction go through the port it is given, counted as the transaction's area.
    transaction: <T>(work: (tx: P) => Promise<T>) =>
      timed('db transaction', undefined, () => port.transaction((tx: P) => work(observedPort(tx, label)))),
  };
  return observed as P;
}

async function measured<T>(area: string, work: () => Promise<T>): Promise<T> {
  if (!metricsOn) return work();
  const started = performance.now();
  let outcome = 'ok';
  try {
    return await work();
  } catch (error) {
    outcome = isUnavailable(error) ? 'unavailable' : 'error';
    if (isTimeout(error)) metrics.statementTimeouts.inc({ area });
    throw error;
  } finally {
    metrics.statements.inc({ area, outcome });
    metrics.statementDuration.observe({ area }, (performance.now() - started) / 1000);
  }
}

/** The store unreachable or too slow (answered 503), as against a statement that failed (a bug). */
function isUnavailable(error: unknown): boolean {
  return error instanceof DependencyUnavailableError;
}

/** A statement cancelled by `statement_timeout` (57014), or whose answer the client stopped waiting for. */
function isTimeout(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  return cause?.code === '57014' || cause?.message === 'Query read timeout';
}

/** Reports `pool`'s connections at each scrape, summed with the other pools of its role. */
export function observePool(pool: PoolCounts, role: string): void {
  if (!metricsOn) return;
  const key = bounded(role, POOLS);
  const members = observedPools.get(key) ?? new Set();
  observedPools.set(key, members.add(pool));
}
