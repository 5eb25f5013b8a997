/**
 * `npm run bench` (last step): procurement at scale. The same requests against the demo data set with 100 000 and
 * with 1 000 000 contracts, each served by the full stack (bench/server-full.js) in a child process of its own:
 *
 *   - the filtered contract list, with two filters that each read a different index;
 *   - the aggregate, the way a user asks it (one more, the suppliers of a municipality, for information only: its
 *     answer grows with the data, so no implementation could keep it within the target);
 *   - page 1 and page 500 of a list (keyset paging: page 500 must cost about what page 1 costs).
 *
 * Targets (issue 3): p50 at 1 000 000 contracts ≤ 1.5 × p50 at 100 000, and p50 of page 500 ≤ 1.2 × p50 of page 1.
 * This is a report, not a test: it exits 0 on a MISS (and says MISS); it exits 1 only when an answer was not a 200
 * of the expected shape, because then the figures mean nothing.
 *
 * Every request is a different one. The service keeps rendered answers of data operations per data version
 * (src/core/response-cache.ts, least recently used out after 4 096 entries), so hammering one URL would measure
 * that cache, not the database. Request i of a server:
 *   - is sent with key ⌊i / 11⌋ mod KEYS (KEYS = 400 keys, one account and one plan each; the plans differ only in
 *     `history_years`, which no procurement operation reads but the cache key includes);
 *   - lists: `limit` = 45 + (i mod 11), 50 on average (the cursor is not bound to `limit`, so page 500's cursor
 *     stays valid); aggregates: `to` = the last day of the month i mod 9 600 months after 2100-01, beyond every
 *     contract (the whole months come from the same rollup rows, no partial month is added).
 * So a list URL has 11 × 400 = 4 400 variants and an aggregate 9 600, all taken in turn: more than the cache holds,
 * so no request can find its answer there, whatever the number of requests.
 *
 * Latency is taken from each response's own timing (autocannon's `response` event, in fractional ms: its own
 * histogram rounds to whole ms, too coarse for answers of 1–3 ms). Besides p50 and p99, each run reports the server
 * child's CPU time per request (process.cpuUsage() over IPC), which is steadier on a shared machine.
 *
 * `node bench/procurement-explain.js` prints the SQL behind each scenario with its EXPLAIN QUERY PLAN and timing.
 *
 * Environment (bench only):
 *   BENCH_DURATION  seconds per measured run (default 3; the warm-up run is 2 s)
 *   BENCH_ROUNDS    rounds per scenario (default 4; the median is reported). Each round runs both servers (or both
 *                   pages) one after the other: many short alternating runs cancel more of the drift of a shared
 *                   machine than a few long ones.
 *   BENCH_PROCUREMENT_SIZES  the two contract counts, comma-separated (default 100000,1000000)
 *   BENCH_STORE     `postgres` to run on PostgreSQL (BENCH_POSTGRES_URL, see postgres-db.js); SQLite by default
 */
import autocannon from 'autocannon';
import {
  cpuTime,
  fmt,
  get,
  loadLine,
  machineLine,
  median,
  positiveNumber,
  runBench,
  startChild,
  stopChild,
  table,
} from './lib.js';
import { BENCH_STORE, preparedProcurementDb } from './procurement-db.js';

const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 3);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 4));
const SIZES = (process.env.BENCH_PROCUREMENT_SIZES ?? '100000,1000000').split(',').map(Number);
const SCALE_TARGET = 1.5;
const PAGE_TARGET = 1.2;
const PAGE_DEPTH = 500;
const KEYS = 400;
const LIMITS = Array.from({ length: 11 }, (_, i) => 45 + i);
const FUTURE_MONTHS = 9_600;

const today = new Date();
const isoDay = (d) => d.toISOString().slice(0, 10);
const yearsAgo = (n) => isoDay(new Date(Date.UTC(today.getUTCFullYear() - n, today.getUTCMonth(), today.getUTCDate())));
/** The `from` of the CPV list (two years back) and of the suppliers' aggregate (the last twelve months). */
const TWO_YEARS_AGO = yearsAgo(2);
const ONE_YEAR_AGO = yearsAgo(1);

/** The variant of request i: which key, which page size, which (harmless) `to`. */
function variant(i) {
  const month = i % FUTURE_MONTHS;
  const year = 2100 + Math.floor(month / 12);
  const m = (month % 12) + 1;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return {
    key: Math.floor(i / LIMITS.length) % KEYS,
    limit: LIMITS[i % LIMITS.length],
    to: `${year}-${String(m).padStart(2, '0')}-${String(last).padStart(2, '0')}`,
  };
}

// ── the scenarios ───────────────────────────────────────────────────────────────────────────────────────────────

/** Compared across the two sizes. `path(v)` is the URL of variant v; `shown` the URL as a user writes it. */
const SIZE_SCENARIOS = [
  {
    name: 'list: municipality',
    kind: 'list',
    shown: '/v1/procurement/contracts?municipality=1106&limit=50',
    path: (v) => `/v1/procurement/contracts?municipality=1106&limit=${v.limit}`,
  },
  {
    name: 'list: CPV + from',
    kind: 'list',
    shown: `/v1/procurement/contracts?cpv=45&from=${TWO_YEARS_AGO}&limit=50`,
    path: (v) => `/v1/procurement/contracts?cpv=45&from=${TWO_YEARS_AGO}&limit=${v.limit}`,
  },
  {
    name: 'aggregate: Lisboa by year',
    kind: 'aggregate',
    shown: '/v1/procurement/aggregate?executed_in=1106&group_by=year',
    path: (v) => `/v1/procurement/aggregate?executed_in=1106&group_by=year&to=${v.to}`,
  },
  {
    name: 'aggregate: national, year × CPV',
    kind: 'aggregate',
    shown: '/v1/procurement/aggregate?group_by=year&group_by=cpv_division',
    path: (v) => `/v1/procurement/aggregate?group_by=year&group_by=cpv_division&to=${v.to}`,
  },
  {
    name: 'aggregate: Lisboa + Porto, year × municipality',
    kind: 'aggregate',
    shown: '/v1/procurement/aggregate?executed_in=1106&executed_in=1312&group_by=year&group_by=municipality',
    path: (v) =>
      `/v1/procurement/aggregate?executed_in=1106&executed_in=1312&group_by=year&group_by=municipality&to=${v.to}`,
  },
  {
    name: 'aggregate: Lisboa, suppliers, 12 months',
    kind: 'aggregate',
    // For information, no verdict: the answer itself grows with the data (≈ 500 suppliers at 100k, ≈ 2 800 at 1M).
    info: true,
    shown: `/v1/procurement/aggregate?executed_in=1106&from=${ONE_YEAR_AGO}&group_by=supplier`,
    path: (v) => `/v1/procurement/aggregate?executed_in=1106&from=${ONE_YEAR_AGO}&group_by=supplier&to=${v.to}`,
  },
];

/** Lists whose page 1 and page PAGE_DEPTH are compared (on each size where the list has that many pages). */
const PAGED_LISTS = [
  { name: 'all contracts', query: '' },
  { name: 'municipality=1106', query: 'municipality=1106&' },
];

// ── main ────────────────────────────────────────────────────────────────────────────────────────────────────────

runBench(main);

async function main() {
  console.log(
    `munidata bench: procurement at 100 000 and 1 000 000 contracts on ${BENCH_STORE} (full stack, autocannon)`,
  );
  console.log(machineLine());
  console.log(
    `autocannon: ${CONNECTIONS} connections, pipelining 1, ${WARMUP_SECONDS} s warm-up per server and scenario, ` +
      `${ROUNDS} round(s) of ${DURATION_SECONDS} s per server (alternating; median reported); every request distinct ` +
      `(${KEYS} keys × ${LIMITS.length} page sizes, or ${FUTURE_MONTHS} \`to\` dates)`,
  );

  const servers = [];
  const copies = [];
  process.on('exit', () => {
    for (const remove of copies) remove();
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));

  try {
    for (const contracts of SIZES) {
      const started = Date.now();
      const { dbPath, remove, secrets } = await preparedProcurementDb(contracts, KEYS);
      copies.push(remove);
      const handle = await startChild('server-full.js', [dbPath], []);
      servers.push({ contracts, handle, secrets, counter: 0, label: label(contracts) });
      console.log(
        `${label(contracts)} contracts: copy, ${KEYS} keys and server ready ` +
          `in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    console.log(`before: ${loadLine()}`);

    // 1. One answer of every scenario on every server: a 200 of the expected shape.
    for (const server of servers) {
      for (const scenario of SIZE_SCENARIOS) {
        const answer = await fetchJson(server, scenario.path(variant(0)), 0);
        if (answer.failure) return fail(`${scenario.name} at ${server.label}: ${answer.failure}`);
        const problem = checkShape(scenario.kind, answer.body, variant(0));
        if (problem) return fail(`${scenario.name} at ${server.label}: ${problem}`);
        scenario.answers = { ...scenario.answers, [server.contracts]: describe(scenario.kind, answer) };
      }
    }

    // 2. Page PAGE_DEPTH of each paged list: follow next_cursor PAGE_DEPTH - 1 times from page 1 (limit 50).
    const paged = [];
    for (const list of PAGED_LISTS) {
      for (const server of servers) {
        const walked = await walk(server, list);
        if (walked.failure) return fail(walked.failure);
        if (walked.cursor === undefined) {
          console.log(
            `   ${list.name} at ${server.label}: ${walked.pages} pages of 50, fewer than ${PAGE_DEPTH}: not paged here`,
          );
          continue;
        }
        console.log(
          `   ${list.name} at ${server.label}: page ${PAGE_DEPTH} reached ` +
            `in ${walked.ms.toFixed(0)} ms (${PAGE_DEPTH - 1} requests)`,
        );
        const pathOf = (cursor) => (v) =>
          `/v1/procurement/contracts?${list.query}limit=${v.limit}${cursor ? `&cursor=${cursor}` : ''}`;
        paged.push({
          list,
          server,
          first: { name: `${list.name}, page 1`, kind: 'list', path: pathOf(undefined) },
          deep: { name: `${list.name}, page ${PAGE_DEPTH}`, kind: 'list', path: pathOf(walked.cursor) },
        });
      }
    }

    // 3. The size comparison: per scenario, a warm-up on each server, then the servers alternately.
    const sizeResults = [];
    for (const scenario of SIZE_SCENARIOS) {
      console.log(`\n── ${scenario.name}: GET ${scenario.shown}`);
      for (const server of servers) console.log(`   ${server.label}: ${scenario.answers[server.contracts]}`);
      const runs = new Map(servers.map((s) => [s, []]));
      for (const server of servers) {
        const r = await measure(server, scenario, WARMUP_SECONDS);
        if (r.failure) return fail(`${scenario.name} at ${server.label} (warm-up): ${r.failure}`);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        const line = [];
        for (const server of servers) {
          const r = await measure(server, scenario, DURATION_SECONDS);
          if (r.failure) return fail(`${scenario.name} at ${server.label}: ${r.failure}`);
          runs.get(server).push(r);
          line.push(`${server.label} ${runText(r)}`);
        }
        console.log(`   round ${round}: ${line.join('   ')}`);
      }
      sizeResults.push({ scenario, bySize: servers.map((s) => summarise(runs.get(s))) });
    }

    // 4. Page 1 against page PAGE_DEPTH, alternately, on the same server.
    const pageResults = [];
    for (const { list, server, first, deep } of paged) {
      console.log(`\n── ${list.name} at ${server.label}: page 1 vs page ${PAGE_DEPTH} (limit 45–55)`);
      const runs = { first: [], deep: [] };
      for (const s of [first, deep]) {
        const r = await measure(server, s, WARMUP_SECONDS);
        if (r.failure) return fail(`${s.name} at ${server.label} (warm-up): ${r.failure}`);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        const a = await measure(server, first, DURATION_SECONDS);
        const b = await measure(server, deep, DURATION_SECONDS);
        for (const [r, s] of [
          [a, first],
          [b, deep],
        ]) {
          if (r.failure) return fail(`${s.name} at ${server.label}: ${r.failure}`);
        }
        runs.first.push(a);
        runs.deep.push(b);
        console.log(`   round ${round}: page 1 ${runText(a)}   page ${PAGE_DEPTH} ${runText(b)}`);
      }
      pageResults.push({ list, server, first: summarise(runs.first), deep: summarise(runs.deep) });
    }

    console.log(`\nafter: ${loadLine()}`);
    printResults(servers, sizeResults, pageResults);
    return 0;
  } finally {
    for (const server of servers) await stopChild(server.handle);
    for (const remove of copies.splice(0)) await remove();
  }
}

function fail(message) {
  console.error(`\nFAILED: ${message}`);
  return 1;
}

const label = (contracts) =>
  contracts >= 1_000_000 ? `${contracts / 1_000_000}M` : contracts >= 1000 ? `${contracts / 1000}k` : String(contracts);

// ── requests ────────────────────────────────────────────────────────────────────────────────────────────────────

async function fetchJson(server, path, keyIndex) {
  const answer = await get(server.handle.port, path, `Bearer ${server.secrets[keyIndex]}`);
  const text = answer.body.toString('utf8');
  if (answer.status !== 200) return { failure: `${path} answered ${answer.status}: ${text.slice(0, 500)}` };
  try {
    return { body: JSON.parse(text), bytes: answer.body.length };
  } catch {
    return { failure: `${path} answered no JSON: ${text.slice(0, 200)}` };
  }
}

function checkShape(kind, body, v) {
  if (kind === 'list') {
    if (!Array.isArray(body.items) || body.items.length !== v.limit)
      return `expected a page of ${v.limit} items, got ${body.items?.length}`;
    if (typeof body.next_cursor !== 'string') return 'expected a next_cursor';
  } else if (!Array.isArray(body.groups) || body.groups.length === 0 || typeof body.totals?.count !== 'number') {
    return 'expected groups and totals';
  }
  return undefined;
}

function describe(kind, answer) {
  return kind === 'list'
    ? `200, ${answer.body.items.length} items, ${fmt(answer.bytes)} bytes`
    : `200, ${answer.body.groups.length} groups, ${fmt(answer.body.totals.count)} contracts, ` +
        `${fmt(answer.bytes)} bytes`;
}

/** Follows next_cursor from page 1 (limit 50) to page PAGE_DEPTH; `cursor` is undefined when the list is shorter. */
async function walk(server, list) {
  const started = performance.now();
  let cursor;
  for (let page = 1; page < PAGE_DEPTH; page++) {
    const path = `/v1/procurement/contracts?${list.query}limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const answer = await fetchJson(server, path, 0);
    if (answer.failure) return { failure: `${list.name} at ${server.label}, page ${page}: ${answer.failure}` };
    if (typeof answer.body.next_cursor !== 'string') return { pages: page, cursor: undefined };
    cursor = encodeURIComponent(answer.body.next_cursor);
  }
  return { cursor, ms: performance.now() - started };
}

/** One autocannon run of a scenario against a server, every request a new variant; latencies in fractional ms. */
async function measure(server, scenario, seconds) {
  const latencies = [];
  const before = await cpuTime(server.handle);
  const result = await new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${server.handle.port}`,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: seconds,
        // A slow scenario queues 10 requests of up to ~0.5 s each behind one another; autocannon's 10 s default
        // would turn a slow answer into a timeout (and the run into a failure).
        timeout: 120,
        requests: [
          {
            setupRequest: (request) => {
              const v = variant(server.counter++);
              return {
                ...request,
                method: 'GET',
                path: scenario.path(v),
                headers: { authorization: `Bearer ${server.secrets[v.key]}` },
              };
            },
          },
        ],
      },
      (error, r) => (error ? reject(error) : resolvePromise(r)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === 200) latencies.push(responseTime);
    });
  });
  const cpu = (await cpuTime(server.handle)) - before;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    return {
      failure:
        `${result.non2xx} non-2xx responses, ${result.errors} errors, ` +
        `${result.timeouts} timeouts (of ${result.requests.total})`,
    };
  }
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    rps: latencies.length / seconds,
    total: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    cpuUs: cpu / Math.max(1, latencies.length),
  };
}

function runText(r) {
  return `${fmt(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, CPU ${fmt(r.cpuUs)} µs/req`;
}

function summarise(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    requests: runs.reduce((n, r) => n + r.total, 0),
  };
}

const ms = (n) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

// ── the report ──────────────────────────────────────────────────────────────────────────────────────────────────

function printResults(servers, sizeResults, pageResults) {
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  const [small, large] = servers;
  const misses = [];

  const sizeRows = sizeResults.map(({ scenario, bySize: [a, b] }) => {
    const ratio = b.p50 / a.p50;
    if (!scenario.info && !(ratio <= SCALE_TARGET)) misses.push(`${scenario.name} (${ratio.toFixed(2)}×)`);
    return [
      scenario.name,
      ms(a.p50),
      ms(b.p50),
      ratio.toFixed(2),
      scenario.info ? 'info' : verdict(ratio <= SCALE_TARGET),
      ms(a.p99),
      ms(b.p99),
      fmt(a.rps),
      fmt(b.rps),
      fmt(a.cpuUs),
      fmt(b.cpuUs),
      (b.cpuUs / a.cpuUs).toFixed(2),
    ];
  });
  console.log(`\nScale: p50 at ${large.label} ÷ p50 at ${small.label} contracts (target ≤ ${SCALE_TARGET}×)\n`);
  console.log(
    table(
      [
        'scenario',
        `p50 ${small.label} ms`,
        `p50 ${large.label} ms`,
        'ratio',
        `≤ ${SCALE_TARGET}×`,
        `p99 ${small.label} ms`,
        `p99 ${large.label} ms`,
        `req/s ${small.label}`,
        `req/s ${large.label}`,
        `CPU µs/req ${small.label}`,
        `CPU µs/req ${large.label}`,
        'CPU ratio',
      ],
      sizeRows,
    ),
  );

  const pageRows = pageResults.map(({ list, server, first, deep }) => {
    const ratio = deep.p50 / first.p50;
    if (!(ratio <= PAGE_TARGET))
      misses.push(`${list.name} at ${server.label}, page ${PAGE_DEPTH} (${ratio.toFixed(2)}×)`);
    return [
      `${list.name} at ${server.label}`,
      ms(first.p50),
      ms(deep.p50),
      ratio.toFixed(2),
      verdict(ratio <= PAGE_TARGET),
      ms(first.p99),
      ms(deep.p99),
      fmt(first.cpuUs),
      fmt(deep.cpuUs),
      (deep.cpuUs / first.cpuUs).toFixed(2),
    ];
  });
  console.log(`\nPaging: p50 of page ${PAGE_DEPTH} ÷ p50 of page 1 (target ≤ ${PAGE_TARGET}×)\n`);
  console.log(
    table(
      [
        'list',
        'page 1 p50 ms',
        `page ${PAGE_DEPTH} p50 ms`,
        'ratio',
        `≤ ${PAGE_TARGET}×`,
        'page 1 p99 ms',
        `page ${PAGE_DEPTH} p99 ms`,
        'page 1 CPU µs',
        `page ${PAGE_DEPTH} CPU µs`,
        'CPU ratio',
      ],
      pageRows,
    ),
  );

  console.log('');
  for (const row of sizeRows) {
    const target = row[4] === 'info' ? 'for information: the answer grows with the data' : `target ≤ ${SCALE_TARGET}×`;
    console.log(`${row[4].toUpperCase()}  ${row[0]}: p50 ${row[1]} → ${row[2]} ms, ${row[3]}× (${target})`);
  }
  for (const row of pageRows)
    console.log(
      `${row[4]}  ${row[0]}: page 1 ${row[1]} ms, page ${PAGE_DEPTH} ${row[2]} ms, ` +
        `${row[3]}× (target ≤ ${PAGE_TARGET}×)`,
    );
  console.log(
    misses.length === 0
      ? '\nAll targets met.'
      : `\nMISS: ${misses.join(', ')} (this is a report, not a test: exit code 0).`,
  );
}
