/**
 * `npm run bench`: throughput and latency of the full stack (auth, rate limit, quota, store, serialisation)
 * against a bare `node:http` server sending identical bytes, measured side by side in one run with autocannon.
 *
 * The figures are ratios measured on the same machine seconds apart, never absolute numbers to assert on:
 * this is a report, not a test. It exits 0 on a MISS (and says MISS); it exits 1 only when a server answered
 * something other than 200 (or the answers differ), because then the figures mean nothing.
 *
 * Each server runs in a child process of its own (bench/server-full.js, bench/server-bare.js) so that the
 * load generator, here in the parent, never shares a server's event loop.
 *
 * Besides req/s and latency, each run reports the server child's CPU time per request (process.cpuUsage()
 * over IPC before and after the run), which is steadier than req/s on a shared machine; `CPU bare/full` is
 * the throughput ratio the two servers would have if CPU were the only limit (each on a core of its own, a
 * load generator fast enough for both).
 *
 * Environment (bench only):
 *   BENCH_DURATION  seconds per measured run (default 8; the warm-up run is 2 s)
 *   BENCH_ROUNDS    bare/full rounds per scenario (default 2; the median is reported)
 *   BENCH_CPU_PROF  a directory: run the server children under `node --cpu-prof`, profiles written there
 *                   (summarise one with `node bench/profile-summary.js <file> [top] [requests]`)
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CONNECTIONS,
  fmt,
  get,
  loadLine,
  loadServer,
  machineLine,
  median,
  PIPELINING,
  positiveNumber,
  prepareDatabase,
  replayableHeaders,
  runBench,
  SCENARIOS,
  startChild,
  stopChild,
  table,
} from './lib.js';

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 25;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 8);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 2));
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

runBench(main);

async function main() {
  console.log('munidata bench: full stack vs bare node:http, side by side (autocannon)');
  console.log(machineLine());
  console.log(
    `autocannon: ${CONNECTIONS} connections, pipelining ${PIPELINING}, ${WARMUP_SECONDS} s warm-up per server, ` +
      `${ROUNDS} round(s) of bare ${DURATION_SECONDS} s / full ${DURATION_SECONDS} s (median reported)`,
  );

  const { dbPath, tempDir, secret } = await prepareDatabase();
  console.log(`before: ${loadLine()}`);
  const authorization = `Bearer ${secret}`;
  const results = [];
  try {
    for (const scenario of SCENARIOS) {
      const result = await runScenario(scenario, dbPath, authorization);
      if (result.failure) {
        console.error(`\nFAILED: ${result.failure}`);
        return 1;
      }
      results.push(result);
    }
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }

  console.log(`\nafter: ${loadLine()}`);
  printResults(results);
  return 0;
}

async function runScenario(scenario, dbPath, authorization) {
  console.log(`\n── ${scenario.name}: GET ${scenario.path}`);
  const full = await startChild('server-full.js', [dbPath], profileArgs(scenario, 'full'));
  let bare;
  try {
    // 1. The real answer, once, with the key (and no Accept-Encoding, like autocannon).
    const answer = await get(full.port, scenario.path, authorization);
    if (answer.status !== 200) {
      return {
        failure:
          `${scenario.name}: the full server answered ${answer.status}: ` +
          `${answer.body.toString('utf8').slice(0, 500)}`,
      };
    }
    const headers = replayableHeaders(answer.rawHeaders);
    console.log(
      `   answer: 200, ${answer.body.length} bytes body, ${answer.headerBytes} bytes head, ${headers['content-type']}`,
    );

    // 2. The bare server, fed those bytes (and headers); check it sends them back unchanged.
    bare = await startChild('server-bare.js', [], profileArgs(scenario, 'bare'), {
      type: 'answer',
      body: answer.body.toString('base64'),
      headers,
    });
    const echoed = await get(bare.port, scenario.path, authorization);
    if (echoed.status !== 200 || !echoed.body.equals(answer.body))
      return { failure: `${scenario.name}: the bare server does not echo the answer` };

    // 3. A warm-up run each, then bare/full alternately.
    const options = { path: scenario.path, headers: { authorization } };
    const runs = { bare: [], full: [] };
    runs.bare.push(await loadServer(bare, { ...options, seconds: WARMUP_SECONDS }));
    runs.full.push(await loadServer(full, { ...options, seconds: WARMUP_SECONDS }));
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = await loadServer(bare, { ...options, seconds: DURATION_SECONDS });
      const f = await loadServer(full, { ...options, seconds: DURATION_SECONDS });
      runs.bare.push(b);
      runs.full.push(f);
      rounds.push({ bare: b, full: f });
      console.log(
        `   round ${round}: bare ${fmt(b.rps)} req/s (p99 ${b.p99} ms, CPU/req ${b.cpuUs.toFixed(0)} µs, ` +
          `autocannon ${b.clientCpuUs.toFixed(0)} µs)   ` +
          `full ${fmt(f.rps)} req/s (p50 ${f.p50} ms, p99 ${f.p99} ms, CPU/req ${f.cpuUs.toFixed(0)} µs, ` +
          `autocannon ${f.clientCpuUs.toFixed(0)} µs)   ` +
          `ratio ${(f.rps / b.rps).toFixed(2)}`,
      );
    }

    // 4. Every answer must have been a 200 (warm-up included), and the full server's bytes did not change.
    for (const [label, list] of Object.entries(runs)) {
      for (const r of list) {
        if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
          return {
            failure:
              `${scenario.name}: the ${label} server answered ${r.non2xx} non-2xx responses, ` +
              `${r.errors} errors, ${r.timeouts} timeouts (of ${r.total})`,
          };
        }
      }
    }
    const after = await get(full.port, scenario.path, authorization);
    if (after.status !== 200 || !after.body.equals(answer.body))
      return { failure: `${scenario.name}: the full server's answer changed under load` };

    if (CPU_PROF_DIR) {
      // Requests each child served: the load runs plus the single GETs (2 on the full server, 1 on the bare one).
      const served = (list, singles) => list.reduce((n, r) => n + r.total, 0) + singles;
      console.log(
        `   profiles in ${CPU_PROF_DIR}: ${scenario.name}-full.cpuprofile (${served(runs.full, 2)} requests), ` +
          `${scenario.name}-bare.cpuprofile (${served(runs.bare, 1)} requests)`,
      );
    }

    return {
      name: scenario.name,
      bodyBytes: answer.body.length,
      bareRps: median(rounds.map((r) => r.bare.rps)),
      fullRps: median(rounds.map((r) => r.full.rps)),
      ratio: median(rounds.map((r) => r.full.rps / r.bare.rps)),
      fullP50: median(rounds.map((r) => r.full.p50)),
      fullP99: median(rounds.map((r) => r.full.p99)),
      bareP99: median(rounds.map((r) => r.bare.p99)),
      bareCpuUs: median(rounds.map((r) => r.bare.cpuUs)),
      fullCpuUs: median(rounds.map((r) => r.full.cpuUs)),
      fullRequests: runs.full.reduce((n, r) => n + r.total, 0),
    };
  } finally {
    await stopChild(bare);
    await stopChild(full);
  }
}

/** `node --cpu-prof` for a server child when BENCH_CPU_PROF names a directory. */
function profileArgs(scenario, server) {
  return CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`, `--cpu-prof-name=${scenario.name}-${server}.cpuprofile`]
    : [];
}

function printResults(results) {
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  const header = [
    'scenario',
    'bare req/s',
    'full req/s',
    'full/bare',
    'full p50 ms',
    'full p99 ms',
    'bare p99 ms',
    'ratio ≥ 0.5',
    'p99 < 25 ms',
    'bare CPU µs/req',
    'full CPU µs/req',
    'CPU bare/full',
  ];
  const rows = results.map((r) => [
    r.name,
    fmt(r.bareRps),
    fmt(r.fullRps),
    r.ratio.toFixed(2),
    String(r.fullP50),
    String(r.fullP99),
    String(r.bareP99),
    verdict(r.ratio >= TARGET_RATIO),
    verdict(r.fullP99 < TARGET_P99_MS),
    r.bareCpuUs.toFixed(0),
    r.fullCpuUs.toFixed(0),
    (r.bareCpuUs / r.fullCpuUs).toFixed(2),
  ]);
  console.log(`\n${table(header, rows)}\n`);
  for (const r of results) {
    const pass = r.ratio >= TARGET_RATIO && r.fullP99 < TARGET_P99_MS;
    console.log(
      `${verdict(pass)}  ${r.name}: full/bare ${r.ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}), ` +
        `full p99 ${r.fullP99} ms (target < ${TARGET_P99_MS} ms); ` +
        `${r.fullRequests} full-stack requests, all 200, ${r.bodyBytes}-byte body`,
    );
  }
  const misses = results.filter((r) => !(r.ratio >= TARGET_RATIO && r.fullP99 < TARGET_P99_MS)).map((r) => r.name);
  console.log(
    misses.length === 0
      ? '\nAll targets met.'
      : `\nMISS: ${misses.join(', ')} (this is a report, not a test: exit code 0).`,
  );
}
