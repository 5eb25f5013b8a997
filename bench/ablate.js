/**
 * `node bench/ablate.js` (after `npm run build`): where the full stack's time goes. For each scenario of
 * run.js it measures, side by side and alternately, the bare node:http server and each rung of the ladder in
 * bench/server-variant.js (plain Fastify, Fastify with the app's plugins, the full app with one shortcut or
 * all of them, the full app), each in its own child process, and prints req/s, the ratio to the bare server of
 * the same round and the server child's CPU time per request (process.cpuUsage() around each run), the
 * steadier figure on a shared machine.
 *
 * Environment: BENCH_DURATION (seconds per run, default 5), BENCH_ROUNDS (default 3; medians reported).
 */
import { rmSync } from 'node:fs';
import {
  CONNECTIONS,
  fmt,
  get,
  loadServer,
  machineLine,
  median,
  positiveNumber,
  prepareDatabase,
  replayableHeaders,
  runBench,
  SCENARIOS,
  startChild,
  stopChild,
  table,
} from './lib.js';

const WARMUP_SECONDS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 5);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 3));

const LADDER = {
  snapshot: ['fastify-buffer', 'fastify', 'fastify-plugins', 'full-no-cursor', 'full-memo-output', 'full-all', 'full'],
  series: process.env.BENCH_LADDER?.split(',') ?? [
    'fastify-buffer',
    'fastify',
    'fastify-plugins',
    'full-memo-series',
    'full-all',
    'full',
  ],
};

runBench(main);

async function main() {
  console.log('munidata ablation ladder: bare node:http → Fastify → Fastify + app plugins → full app (with shortcuts)');
  console.log(machineLine());
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up each, ` +
      `${ROUNDS} round(s) of ${DURATION_SECONDS} s per server`,
  );
  const { dbPath, tempDir, secret } = await prepareDatabase();
  const authorization = `Bearer ${secret}`;
  try {
    for (const scenario of SCENARIOS) {
      if (process.env.BENCH_SCENARIO && process.env.BENCH_SCENARIO !== scenario.name) continue;
      const ok = await ladder(scenario, LADDER[scenario.name], dbPath, authorization);
      if (!ok) return 1;
    }
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
  return 0;
}

async function ladder(scenario, variants, dbPath, authorization) {
  console.log(`\n── ${scenario.name}: GET ${scenario.path}`);
  const route = scenario.path.split('?')[0].replace('/population/', '/:key/');
  const servers = new Map();
  try {
    const full = await startChild('server-variant.js', [], [], { type: 'start', variant: 'full', dbPath });
    servers.set('full', full);
    const answer = await get(full.port, scenario.path, authorization);
    if (answer.status !== 200) {
      console.error(`FAILED: the full server answered ${answer.status}`);
      return false;
    }
    const start = {
      type: 'start',
      dbPath,
      route,
      body: answer.body.toString('base64'),
      headers: replayableHeaders(answer.rawHeaders),
    };
    servers.set(
      'bare',
      await startChild('server-bare.js', [], [], { type: 'answer', body: start.body, headers: start.headers }),
    );
    for (const variant of variants) {
      if (!servers.has(variant))
        servers.set(variant, await startChild('server-variant.js', [], [], { ...start, variant }));
    }

    const order = ['bare', ...variants];
    const options = { path: scenario.path, headers: { authorization } };
    for (const name of order)
      checked(name, await loadServer(servers.get(name), { ...options, seconds: WARMUP_SECONDS }));
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const results = {};
      for (const name of order) {
        results[name] = checked(name, await loadServer(servers.get(name), { ...options, seconds: DURATION_SECONDS }));
      }
      rounds.push(results);
      const figures = order.map((n) => `${n} ${fmt(results[n].rps)} req/s ${results[n].cpuUs.toFixed(0)} µs`);
      console.log(`   round ${round}: ${figures.join(', ')}`);
    }

    const fullCpu = median(rounds.map((r) => r.full.cpuUs));
    const rows = order.map((name) => {
      const cpu = median(rounds.map((r) => r[name].cpuUs));
      return [
        name,
        fmt(median(rounds.map((r) => r[name].rps))),
        median(rounds.map((r) => r[name].rps / r.bare.rps)).toFixed(2),
        String(median(rounds.map((r) => r[name].p99))),
        cpu.toFixed(0),
        name === 'full' ? '' : (fullCpu - cpu).toFixed(0),
      ];
    });
    console.log(`\n${table(['server', 'req/s', '÷ bare', 'p99 ms', 'CPU µs/req', 'CPU µs/req less than full'], rows)}`);
    return true;
  } catch (error) {
    console.error(`FAILED: ${error.message}`);
    return false;
  } finally {
    for (const handle of servers.values()) await stopChild(handle);
  }
}

function checked(name, result) {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${result.total}`,
    );
  }
  return result;
}
