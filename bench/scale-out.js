/**
 * `npm run bench`: scale-out. REST throughput of TWO instances on PostgreSQL + Redis (the counters shared, as N
 * instances behind a balancer run) beside ONE instance on SQLite + in-process counters, same data, same requests,
 * in one run, with autocannon. Each instance is the full stack (bench/server-full.js) in a child process of its own;
 * the load is spread over the two by two autocannon runs in parallel, each with half the connections.
 *
 * Scenarios:
 *   - snapshot: one URL, its answer rendered once per data version, so what each request costs is the stack
 *     around it: authentication, the per-minute check and the quota reservation and commit (three Redis round
 *     trips on the pair, none on the single instance);
 *   - series, every request distinct: request i asks the population series of municipality i mod 308 up to
 *     the end of a month i ÷ 308 months after 2100-01 (beyond every point, so the same rows), 2.9 million URLs
 *     in turn: more than the response cache holds, so every request also reads the store.
 *
 * Data: the demo data set, seed 42 (lib.js's `.bench/demo.db` for SQLite; for PostgreSQL the database
 * `munidata_bench`, built from the same generator when missing and reused afterwards). Each run works on a copy
 * (a file copy; `CREATE DATABASE … TEMPLATE munidata_bench`), migrated to the current schema, with the `bench` plan
 * and key, dropped at the end. The pair's counters live under a Redis key prefix of this run, deleted at the end.
 *
 * Read the figures with care. On one machine the pair, PostgreSQL, Redis and the load generator share the same CPUs
 * (2 on the machine this was written on, shared with other work): the ratio says what the extra round trips and
 * the network store cost there, not what scale-out gains. Instances on machines of their own add their throughput
 * until PostgreSQL or Redis saturate. The servers' own CPU time per request (process.cpuUsage() over IPC; for the
 * pair, both children's CPU over both runs' requests) is the steadier figure: what one core of an instance carries.
 * It leaves out the CPU of PostgreSQL and Redis, which are shared with other users of the machine.
 *
 * This is a report, not a test: it exits 1 only when an answer was not a 200, because then the figures mean nothing.
 *
 * Environment (bench only):
 *   BENCH_DURATION       seconds per measured run (default 5; the warm-up run is 2 s)
 *   BENCH_ROUNDS         rounds per scenario, single and pair alternately (default 2; the median is reported)
 *   BENCH_POSTGRES_URL   the PostgreSQL server's maintenance database (postgres-db.js)
 *   BENCH_REDIS_URL      Redis (default $REDIS_URL, else redis://127.0.0.1:6379)
 */
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import {
  addBenchKey,
  CONNECTIONS,
  cpuTime,
  fmt,
  get,
  loadLine,
  machineLine,
  median,
  positiveNumber,
  prepareDatabase,
  runBench,
  SCENARIOS,
  SEED,
  startChild,
  stopAllChildren,
  stopChild,
  table,
} from './lib.js';
import { cachedPostgresDb, copyForRun, dropDatabase } from './postgres-db.js';

const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 5);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 2));
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The cached PostgreSQL bench database: the demo data, built once. */
const CACHED_DB = 'munidata_bench';
/** This run's copy of it (named by postgres-db.js), and its Redis key prefix. */
let runDb;
const REDIS_PREFIX = `munidata-bench:${process.pid}:`;
const FUTURE_MONTHS = 9_600;

const { readMunicipalities } = await import('../dist/ingest/municipalities.js');
const MUNICIPALITY_CODES = readMunicipalities().map((m) => m.code);

/** Request i of a scenario. */
const SCALE_SCENARIOS = [
  { ...SCENARIOS[0], path: () => SCENARIOS[0].path },
  {
    name: 'series, every request distinct',
    shown: '/v1/indicators/population/series?municipality=<308 in turn>&to=<9 600 month ends after 2100>',
    path: (i) =>
      `/v1/indicators/population/series?municipality=${MUNICIPALITY_CODES[i % MUNICIPALITY_CODES.length]}` +
      `&to=${monthEnd(i)}`,
  },
];

function monthEnd(i) {
  const month = Math.floor(i / MUNICIPALITY_CODES.length) % FUTURE_MONTHS;
  const year = 2100 + Math.floor(month / 12);
  const m = (month % 12) + 1;
  const day = String(new Date(Date.UTC(year, m, 0)).getUTCDate()).padStart(2, '0');
  return `${year}-${String(m).padStart(2, '0')}-${day}`;
}

// ── PostgreSQL and Redis ────────────────────────────────────────────────────────────────────────────────────────

/** The demo data on PostgreSQL, built once (migrate + the demo data, seed 42, as lib.js builds .bench/demo.db). */
async function cachedDemoDb() {
  await cachedPostgresDb(CACHED_DB, `migrate + demo data, seed ${SEED}`, async (url) => {
    const { migrate } = await import('../dist/admin/migrate.js');
    const { loadDemo } = await import('../dist/demo/load-demo.js');
    const { openPostgresStore } = await import('../dist/store/postgres/postgres-store.js');
    const store = openPostgresStore({ url });
    try {
      await migrate(store);
      await loadDemo(store, { seed: SEED });
    } finally {
      await store.close();
    }
  });
}

/** This run's copy of the cached database, migrated, with the bench key; returns its URL and the key's secret. */
async function preparePostgresDb() {
  await cachedDemoDb();
  const { name, url } = await copyForRun(CACHED_DB);
  runDb = name;
  const { migrate } = await import('../dist/admin/migrate.js');
  const { openPostgresStore } = await import('../dist/store/postgres/postgres-store.js');
  const store = openPostgresStore({ url, poolSize: 2 });
  try {
    await migrate(store); // a newer schema than the cached database's
    return { url, secret: await addBenchKey(store) };
  } finally {
    await store.close();
  }
}

async function cleanUp() {
  if (runDb) await dropDatabase(runDb).catch(() => {});
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // Nothing was written if Redis cannot be reached.
  } finally {
    redis.disconnect();
  }
}

// ── load ────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * One autocannon run per server, all at once, the connections split evenly; every request takes the next variant
 * of the scenario (one counter for all servers). Returns req/s (answers over the run), p50/p99 (ms), the servers'
 * CPU µs per request, and whatever was not a 200.
 */
async function measure(servers, scenario, seconds, authorization, counter) {
  const before = await Promise.all(servers.map(cpuTime));
  const results = await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolvePromise, reject) => {
          autocannon(
            {
              url: `http://127.0.0.1:${server.port}`,
              connections: CONNECTIONS / servers.length,
              pipelining: 1,
              duration: seconds,
              requests: [
                {
                  setupRequest: (request) => ({
                    ...request,
                    method: 'GET',
                    path: scenario.path(counter.next++),
                    headers: { authorization },
                  }),
                },
              ],
            },
            (error, result) => (error ? reject(error) : resolvePromise(result)),
          );
        }),
    ),
  );
  const after = await Promise.all(servers.map(cpuTime));
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  const cpu = after.reduce((n, t, i) => n + t - before[i], 0);
  return {
    rps: results.reduce((n, r) => n + r.requests.total, 0) / seconds,
    perServer: results.map((r) => r.requests.total / seconds),
    // autocannon's histograms per run; for the pair the slower of the two (they are within noise of each other).
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuUs: cpu / Math.max(1, total),
    total,
    bad: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
  };
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────────────────────

runBench(main, cleanUp);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(signal, () => {
    stopAllChildren();
    cleanUp().finally(() => process.exit(code));
  });
}

async function main() {
  console.log('munidata bench: scale-out — 2 instances on PostgreSQL + Redis beside 1 instance on SQLite (autocannon)');
  console.log(machineLine());
  console.log(
    `autocannon: ${CONNECTIONS} connections in all (the pair: ${CONNECTIONS / 2} on each instance), pipelining 1, ` +
      `${WARMUP_SECONDS} s warm-up per setup and scenario, ${ROUNDS} round(s) of ${DURATION_SECONDS} s, ` +
      'single and pair alternately (median reported)',
  );

  const sqlite = await prepareDatabase();
  const postgres = await preparePostgresDb();
  const single = {
    label: '1 × SQLite',
    servers: [await startChild('server-full.js', [sqlite.dbPath], [])],
    key: sqlite.secret,
  };
  const pair = {
    label: '2 × PostgreSQL + Redis',
    servers: await Promise.all(
      [0, 1].map(() => startChild('server-full.js', [postgres.url, REDIS_URL, REDIS_PREFIX], [])),
    ),
    key: postgres.secret,
  };
  const setups = [single, pair];
  console.log(`before: ${loadLine()}`);
  try {
    const results = [];
    for (const scenario of SCALE_SCENARIOS) {
      console.log(`\n── ${scenario.name}: GET ${scenario.shown ?? scenario.path(0)}`);
      // One answer from every instance: a 200, and the same data on both stores (a cursor's signature aside: each
      // store signs cursors with a secret of its own).
      const answers = [];
      for (const setup of setups) {
        for (const server of setup.servers) {
          const answer = await get(server.port, scenario.path(0), `Bearer ${setup.key}`);
          if (answer.status !== 200)
            return fail(
              `${setup.label}: ${scenario.path(0)} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`,
            );
          answers.push(answer.body);
        }
      }
      const data = answers.map((body) => JSON.stringify({ ...JSON.parse(body.toString()), next_cursor: undefined }));
      const same = data.every((text) => text === data[0]);
      const agreement = same
        ? ', the same data from every instance'
        : '; NOTE: the two stores answer different data (caches built in different months?)';
      console.log(`   answer: 200, ${answers[0].length} bytes${agreement}`);

      const counters = new Map(setups.map((s) => [s, { next: 0 }]));
      for (const setup of setups) {
        const r = await measure(setup.servers, scenario, WARMUP_SECONDS, `Bearer ${setup.key}`, counters.get(setup));
        if (r.bad > 0) return fail(`${setup.label} (warm-up): ${r.bad} answers not 200 of ${r.total}`);
      }
      const runs = new Map(setups.map((s) => [s, []]));
      for (let round = 1; round <= ROUNDS; round++) {
        const line = [];
        for (const setup of setups) {
          const r = await measure(
            setup.servers,
            scenario,
            DURATION_SECONDS,
            `Bearer ${setup.key}`,
            counters.get(setup),
          );
          if (r.bad > 0) return fail(`${setup.label}: ${r.bad} answers not 200 of ${r.total}`);
          runs.get(setup).push(r);
          const split = r.perServer.length > 1 ? ` (${r.perServer.map(fmt).join(' + ')})` : '';
          line.push(
            `${setup.label} ${fmt(r.rps)} req/s${split}, p50 ${r.p50} ms, p99 ${r.p99} ms, CPU ${fmt(r.cpuUs)} µs/req`,
          );
        }
        console.log(`   round ${round}: ${line.join('   ')}`);
      }
      const summary = (setup) => {
        const list = runs.get(setup);
        return {
          rps: median(list.map((r) => r.rps)),
          p50: median(list.map((r) => r.p50)),
          p99: median(list.map((r) => r.p99)),
          cpuUs: median(list.map((r) => r.cpuUs)),
        };
      };
      results.push({ scenario, single: summary(single), pair: summary(pair) });
    }
    console.log(`\nafter: ${loadLine()}`);
    printResults(results);
    return 0;
  } finally {
    for (const setup of setups) for (const server of setup.servers) await stopChild(server);
  }
}

function fail(message) {
  console.error(`\nFAILED: ${message}`);
  return 1;
}

function printResults(results) {
  const header = [
    'scenario',
    '1 × SQLite req/s',
    '2 × PG+Redis req/s',
    'pair/single',
    '1 × SQLite p50/p99 ms',
    '2 × PG+Redis p50/p99 ms',
    '1 × SQLite CPU µs/req',
    '2 × PG+Redis CPU µs/req',
  ];
  const rows = results.map(({ scenario, single, pair }) => [
    scenario.name,
    fmt(single.rps),
    fmt(pair.rps),
    (pair.rps / single.rps).toFixed(2),
    `${single.p50} / ${single.p99}`,
    `${pair.p50} / ${pair.p99}`,
    fmt(single.cpuUs),
    fmt(pair.cpuUs),
  ]);
  console.log(`\n${table(header, rows)}\n`);
  console.log(
    'One machine: the pair, PostgreSQL, Redis and autocannon share its CPUs, ' +
      'so pair/single is the cost of the shared\n' +
      'store and counters here, not the gain of a second machine. ' +
      "CPU µs/req is the instances' own (without PostgreSQL\n" +
      'and Redis): 1 000 000 ÷ it is what one core of an instance carries.',
  );
}
