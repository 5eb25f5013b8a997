/**
 * PostgreSQL goes away under load, for real. A `munidata serve` process (the build) runs on a database of its
 * own and the shared Redis, and reaches PostgreSQL only through a TCP proxy of the test's; the shared server is
 * never stopped. While concurrent requests arrive on REST, A2A and MCP (an answer the caches hold, and series
 * pages nobody asked for before, which read the store), the proxy is cut: every open connection destroyed, new
 * ones refused. Every answer is then a success or a 503 with Retry-After in the channel's form, each within a
 * bound; the process stays up, /healthz 200 and /readyz 503 naming the store. The proxy restored, service
 * resumes by itself within seconds. Exactly the successes are charged: in Redis, and in the store once the
 * usage held through the outage is written. Then the proxy stalls (connections open, every packet held): store
 * reads are 503 within the instance's DATABASE_TIMEOUT_MS and a grace, and stay uncharged when the stall ends.
 *
 * Runs in the PostgreSQL pass of `npm test` only (MUNIDATA_TEST_BACKEND=postgres), although it uses PostgreSQL
 * and Redis whatever the backend: it checks the PostgreSQL store's connection handling, as postgres-store.test.ts
 * does, so it belongs where that runs, and once is enough (unlike multi-instance.test.ts, which runs in both).
 * Needs the build (dist/): `npm test` builds first; alone, `npm run build &&
 * MUNIDATA_TEST_BACKEND=postgres npx vitest run test/postgres-outage.test.ts` (about 15 s).
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DependencyUnavailableError } from '../src/lib/dependency.js';
import { CANCEL_GRACE_MS, closePools, inTransaction, openPools } from '../src/store/postgres/db.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { databaseUrl, dropDatabase, newDatabaseName, onPostgres } from './helpers/backend.js';
import {
  type Answer,
  CHANNELS,
  type Channel,
  type DataInput,
  dataRequest,
  expectUnavailable,
  fetchAnswer,
  isAdmitted,
  startLoad,
} from './helpers/channels.js';
import {
  createDemoDatabase,
  customer,
  type Instance,
  isRunning,
  killInstances,
  requireBuild,
  startInstance,
} from './helpers/deployment.js';
import { deleteKeys, freePort, sleep, uniquePrefix } from './helpers/redis.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { BASE_URL } from './helpers/test-app.js';

/** The instance's DATABASE_TIMEOUT_MS: a statement or a connection that takes longer is given up on. */
const DATABASE_TIMEOUT_MS = 1_000;
/**
 * The longest any answer may take, outage or not. A refused or cut connection fails at once; waiting for a
 * connection that never comes would take the pool's connection timeout (DATABASE_TIMEOUT_MS).
 */
const ANSWER_BOUND_MS = 3_000;
/**
 * The longest an answer may take while PostgreSQL is stalled: its statement given up on (DATABASE_TIMEOUT_MS, then
 * the client's CANCEL_GRACE_MS), and room for a shared machine; without a timeout it would wait for the stall's end.
 */
const STALL_ANSWER_BOUND_MS = DATABASE_TIMEOUT_MS + CANCEL_GRACE_MS + 1_500;
/** How soon after PostgreSQL returns the instance must be ready again, with no restart. */
const RECOVERY_BOUND_MS = 5_000;

describe.runIf(onPostgres)('PostgreSQL goes away under load and comes back', () => {
  const database = newDatabaseName(); // carries the run's prefix: the global teardown drops it should this file crash
  const prefix = uniquePrefix('postgres-outage');
  let store: PostgresStore;
  let proxy: TcpProxy;
  /** The database, as the instance reaches it: through the proxy. */
  let proxiedUrl: string;
  let instance: Instance;
  let origin: string;
  let customerOf: { accountId: number; key: string };
  let municipalities: string[];
  /** Every data answer the test got (warm-up and load): what must be charged. */
  let admitted = 0;

  beforeAll(async () => {
    requireBuild();
    store = await createDemoDatabase(database);
    const direct = new URL(databaseUrl(database));
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    proxiedUrl = proxied.href;
    municipalities = (await store.listMunicipalities()).map((m) => m.code);
    customerOf = await customer(store, 'outage', { requests_per_minute: null, requests_per_month: 1_000_000 });
    instance = await startInstance(await freePort(), {
      DATABASE_URL: proxiedUrl,
      DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
      REDIS_PREFIX: prefix,
      BASE_URL,
    });
    origin = `http://127.0.0.1:${instance.port}`;
  }, 60_000);

  afterAll(async () => {
    killInstances();
    await proxy?.close();
    await store?.close().catch(() => {});
    await dropDatabase(database);
    await deleteKeys(prefix);
  });

  const send = (channel: Channel, input?: DataInput): Promise<Answer> =>
    fetchAnswer(origin, dataRequest(channel, customerOf.key, input));

  /** A series page not asked for before (another municipality, or another page size): read from the store. */
  let reads = 0;
  const unreadSeries = (): DataInput => {
    const n = reads++;
    return {
      key: 'population',
      municipality: municipalities[n % municipalities.length],
      limit: 1 + (Math.floor(n / municipalities.length) % 200),
    };
  };

  async function readiness() {
    const res = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    return { status: res.status, json: await res.json(), retryAfter: res.headers.get('retry-after') };
  }

  async function used(): Promise<number> {
    const res = await fetch(`${origin}/v1/me`, { headers: { authorization: `Bearer ${customerOf.key}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { usage: { requests_this_month: number } }).usage.requests_this_month;
  }

  const charged = () => store.getUsage(customerOf.accountId, monthlyPeriod(new Date()).key);

  it('serves through the proxy', async () => {
    expect(await readiness()).toEqual({
      status: 200,
      json: {
        status: 'ok',
        checks: { store: 'ok', counters: 'ok' },
        pipeline: { interval_s: 60, steps: expect.any(Array) },
        dependencies: {
          store_primary: { status: 'ok', since: expect.any(String) },
          redis: { status: 'ok', since: expect.any(String) },
          pipeline: { status: 'ok', since: expect.any(String) },
        },
      },
      retryAfter: null,
    });
  });

  const answersWhileGone =
    'answers only 200 or 503 with Retry-After while it is gone, stays up, resumes by itself, ' +
    'and charges exactly the answers';
  it(answersWhileGone, async () => {
    // Warm: the key's grant (cached 5 s) and the reference data held, the indicator's answer rendered, the month in
    // Redis.
    for (const channel of CHANNELS) expect(isAdmitted(channel, await send(channel))).toBe(true);
    for (const channel of CHANNELS) expect(isAdmitted(channel, await send(channel, unreadSeries()))).toBe(true);
    admitted += 2 * CHANNELS.length;

    const cached = startLoad((channel) => send(channel), { workers: 2 });
    const uncached = startLoad((channel) => send(channel, unreadSeries()), { workers: 2 });
    let recoveredInMs = Number.POSITIVE_INFINITY;
    try {
      await sleep(500);
      expect(uncached.tally.admitted, 'store reads before the cut').toBeGreaterThan(0);
      await proxy.cut();
      await sleep(200); // the requests in flight at the cut are answered
      const outage = {
        cached: cached.tally.admitted,
        uncached: uncached.tally.admitted,
        refused: uncached.tally.refused,
      };

      const ready = await readiness();
      expect(ready).toEqual({
        status: 503,
        // The pipeline's detail, read from the store, is unavailable with it (docs/pipeline.md).
        json: {
          status: 'unavailable',
          checks: { store: 'unavailable', counters: 'ok' },
          pipeline: 'unavailable',
          // Each dependency and since when (docs/deploy.md, Operating): the store and the pipeline, since the cut.
          dependencies: {
            store_primary: { status: 'unavailable', since: expect.any(String) },
            redis: { status: 'ok', since: expect.any(String) },
            pipeline: { status: 'unavailable', since: expect.any(String) },
          },
        },
        retryAfter: String(DEPENDENCY_RETRY_AFTER_SECONDS),
      });
      const live = await fetch(`${origin}/healthz`);
      expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
      await sleep(1_500);

      expect(isRunning(instance.child), instance.output.stderr).toBe(true);
      // Nothing that needs the store is answered; what the caches hold still is (within the 5 s of the key's grant).
      expect(uncached.tally.admitted, 'store reads answered with the store gone').toBe(outage.uncached);
      expect(uncached.tally.refused).toBeGreaterThan(outage.refused);
      expect(cached.tally.admitted, 'cached answers with the store gone').toBeGreaterThan(outage.cached);

      await proxy.restore();
      const restoredAt = performance.now();
      while ((await readiness()).status !== 200) {
        if (performance.now() - restoredAt > 2 * RECOVERY_BOUND_MS) break;
        await sleep(100);
      }
      recoveredInMs = performance.now() - restoredAt;
      const afterRecovery = uncached.tally.admitted;
      await sleep(500);
      expect(uncached.tally.admitted, 'store reads after PostgreSQL returned').toBeGreaterThan(afterRecovery);
    } finally {
      await proxy.restore();
      await Promise.all([cached.stop(), uncached.stop()]);
    }
    expect(recoveredInMs).toBeLessThan(RECOVERY_BOUND_MS);

    for (const { tally } of [cached, uncached]) {
      expect(tally.unexpected).toEqual([]);
      expect(tally.slowestMs).toBeLessThan(ANSWER_BOUND_MS);
    }
    expect(isRunning(instance.child), instance.output.stderr).toBe(true);
    admitted += cached.tally.admitted + uncached.tally.admitted;
    // Charged in Redis: exactly the answers (every refusal refunded).
    expect(await used()).toBe(admitted);
    // And in the store: the usage the instance could not write during the outage was held, and written since.
    const deadline = Date.now() + 5_000;
    while ((await charged()) !== admitted && Date.now() < deadline) await sleep(100);
    expect(await charged()).toBe(admitted);
  });

  const validKeyNotAStrike =
    'a valid key it cannot check while the store is gone is 503 with Retry-After, never a strike against the address';
  it(validKeyNotAStrike, async () => {
    // A key never used on this instance: its grant is not cached, so every request needs the store to check it.
    const unchecked = await customer(store, 'outage_unchecked', {
      requests_per_minute: 1_000_000,
      requests_per_month: 1_000_000,
    });
    const sendUnchecked = (channel: Channel) => fetchAnswer(origin, dataRequest(channel, unchecked.key));
    await proxy.cut();
    try {
      // More than the 60 a minute an address may fail to authenticate (docs/api.md): none of these is a failure.
      for (let i = 0; i < 70; i++) {
        const channel = CHANNELS[i % CHANNELS.length];
        expectUnavailable(channel, await sendUnchecked(channel));
      }
    } finally {
      await proxy.restore();
    }
    const restoredAt = Date.now();
    let last: Answer | undefined;
    while (Date.now() - restoredAt < RECOVERY_BOUND_MS) {
      last = await sendUnchecked('rest');
      if (last.status === 200) break;
      await sleep(100);
    }
    expect(last?.status, last?.body).toBe(200);
    for (const channel of CHANNELS) expect(isAdmitted(channel, await sendUnchecked(channel))).toBe(true);
  });

  const stalledStore =
    'stalled (packets held, not refused): 503 with Retry-After within the timeout on every channel, ' +
    'and not charged when the stall ends';
  it(stalledStore, async () => {
    // Warm: the key's grant held (5 s), the month in Redis, the listening connection up.
    for (const channel of CHANNELS) expect(isAdmitted(channel, await send(channel, unreadSeries()))).toBe(true);
    admitted += CHANNELS.length;
    expect(await used()).toBe(admitted);

    proxy.stall();
    let answers: { channel: Channel; answer: Answer; ms: number }[] = [];
    try {
      // Twelve at once (more than the pool's ten connections), each a series nobody asked for: it reads the store.
      answers = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const channel = CHANNELS[i % CHANNELS.length];
          const sent = performance.now();
          const answer = await send(channel, unreadSeries());
          return { channel, answer, ms: performance.now() - sent };
        }),
      );
      const live = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
      expect(live.status).toBe(200);
    } finally {
      await proxy.restore();
    }
    for (const { channel, answer, ms } of answers) {
      expectUnavailable(channel, answer);
      expect(ms, `${channel}: answered after ${Math.round(ms)} ms`).toBeLessThan(STALL_ANSWER_BOUND_MS);
    }
    // What the stall held reaches PostgreSQL now, and its answers go to connections the instance gave up: the
    // requests were refunded when refused, and stay so.
    await sleep(2_000);
    expect(await used()).toBe(admitted);
    expect(isRunning(instance.child), instance.output.stderr).toBe(true);

    // And it serves again by itself.
    const restoredAt = performance.now();
    let last: Answer | undefined;
    while (performance.now() - restoredAt < RECOVERY_BOUND_MS) {
      last = await send('rest', unreadSeries());
      if (isAdmitted('rest', last)) break;
      await sleep(100);
    }
    expect(last && isAdmitted('rest', last), last?.body).toBe(true);
    admitted += 1;
    expect(await used()).toBe(admitted);
  });

  it('stops cleanly afterwards (SIGTERM), and nothing is charged twice', async () => {
    const exited = once(instance.child, 'exit');
    instance.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code, instance.output.stderr).toBe(0);
    expect(await charged()).toBe(admitted);
  });

  const transactionCut =
    'a transaction whose connection is cut fails as the store being unavailable, and the process lives on';
  it(transactionCut, async () => {
    // A client checked out of the pool (a transaction) that loses its connection: unheard, its 'error' event
    // would end this worker ("Unhandled 'error' event") before the statement even rejected.
    const pools = openPools(proxiedUrl, undefined, 1);
    try {
      const lost = inTransaction(pools.primary, (sql) => sql('SELECT pg_sleep(5)')).catch((error: unknown) => error);
      await sleep(300);
      await proxy.cut();
      expect(await lost).toBeInstanceOf(DependencyUnavailableError);
      await proxy.restore();
      // The broken client was not given back: the next transaction gets a new connection.
      expect(await inTransaction(pools.primary, (sql) => sql('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
    } finally {
      await proxy.restore();
      await closePools(pools);
    }
  });
});
