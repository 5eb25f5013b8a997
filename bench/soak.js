/**
 * `npm run bench`: fault-and-soak. One built server (`dist/main.js serve`) on PostgreSQL + Redis, both reached
 * through TCP proxies this script can cut, under steady autocannon load over REST, MCP and A2A; PostgreSQL is cut
 * for a while, restored, then Redis, restored; the load stops and the server idles. The server's RSS (VmRSS in
 * /proc/<pid>/status) is sampled every second. Reported: peak RSS, RSS idle after, answers by class (2xx, 503,
 * other, errors), and PASS/FAIL against the target (docs/performance.md, "Memory under faults").
 *
 * Timeline, as shares of SOAK_SECONDS: load throughout the first 90 % — warm 10 %, PostgreSQL cut 25 %, restored
 * 15 %, Redis cut 25 %, restored 15 % — then 10 % idle (the "idle after" figure is the last sample).
 *
 * Data: a fresh database on the PostgreSQL server, the demo data set loaded into it by `munidata demo` in a process
 * of its own first (so the server's RSS is that of serving, not of generating the data), dropped at the end; the load
 * uses a key of the `bench` plan (limits that never refuse, bench/lib.js), so every answer that
 * is not a 2xx comes from the faults. Redis keys live under a prefix of this run, deleted at the end.
 *
 * Exit code 1 when the peak is over the target or the server died; this is a bench, not a test.
 *
 * Environment (bench only):
 *   SOAK_SECONDS         the whole soak (default 600)
 *   SOAK_TARGET_MB       peak RSS target (default 250)
 * BENCH_POSTGRES_URL   the PostgreSQL server's maintenance database (default
 * postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_REDIS_URL      Redis (default $REDIS_URL, else redis://127.0.0.1:6379)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { addBenchKey, DIST, loadLine, machineLine, positiveNumber, ROOT, runBench } from './lib.js';

const SOAK_SECONDS = positiveNumber('SOAK_SECONDS', 600);
const TARGET_MB = positiveNumber('SOAK_TARGET_MB', 250);
const CONNECTIONS = 30; // 10 per channel
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = new URL(process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const RUN_DB = `munidata_soak_${process.pid}`;
const REDIS_PREFIX = `munidata-soak:${process.pid}:`;
const PORT = 18_000 + (process.pid % 2_000);

const PHASES = [
  { name: 'warm', share: 0.1 },
  { name: 'PostgreSQL cut', share: 0.25, cut: 'postgres' },
  { name: 'PostgreSQL restored', share: 0.15 },
  { name: 'Redis cut', share: 0.25, cut: 'redis' },
  { name: 'Redis restored', share: 0.15 },
];
const IDLE_SHARE = 0.1;

const JSON_HEADERS = { 'content-type': 'application/json' };
const CHANNELS = [
  { name: 'REST', method: 'GET', path: '/v1/indicators/population/snapshot?limit=50', headers: {} },
  {
    name: 'MCP',
    method: 'POST',
    path: '/mcp',
    headers: { ...JSON_HEADERS, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'indicators_snapshot', arguments: { key: 'population', limit: 50 } },
    }),
  },
  {
    name: 'A2A',
    method: 'POST',
    path: '/a2a',
    headers: { ...JSON_HEADERS, 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: 'soak-0001',
          role: 'ROLE_USER',
          parts: [
            {
              data: { skill: 'indicators_snapshot', input: { key: 'population', limit: 50 } },
              mediaType: 'application/json',
            },
          ],
        },
      },
    }),
  },
];

// ── the cuttable proxies (as test/helpers/tcp-proxy.ts) ───────────────────────────────────────────────────────

async function startProxy(host, port) {
  const sockets = new Set();
  let server;
  let listeningOn = 0;
  const start = async () => {
    if (server) return;
    server = createServer((client) => {
      const upstream = tcpConnect(port, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    server.listen(listeningOn, '127.0.0.1');
    await once(server, 'listening');
    listeningOn = server.address().port;
  };
  const stop = async () => {
    if (!server) return;
    const closed = once(server, 'close');
    server.close();
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await start();
  return { port: () => listeningOn, cut: stop, restore: start, close: stop };
}

// ── PostgreSQL and Redis ──────────────────────────────────────────────────────────────────────────────────────

async function onServer(sql) {
  const client = new pg.Client(SERVER_URL);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(port) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${RUN_DB}`;
  if (port) {
    url.hostname = '127.0.0.1';
    url.port = String(port);
  }
  return url.href;
}

async function cleanUp() {
  await onServer(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`).catch(() => {});
  const redis = new Redis(REDIS_URL.href, { lazyConnect: true, maxRetriesPerRequest: 0 });
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

// ── the server ────────────────────────────────────────────────────────────────────────────────────────────────

/** `dist/main.js serve` on the proxies; resolves once it listens. Its log is read and dropped (it is not kept). */
async function startServer(pgPort, redisPort) {
  const child = spawn(process.execPath, [join(DIST, 'main.js'), 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(pgPort),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_PREFIX,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logBytes = 0;
  let head = '';
  const listening = new Promise((resolvePromise, reject) => {
    const onData = (chunk) => {
      logBytes += chunk.length;
      if (head.length < 100_000) head += chunk.toString();
      if (head.includes('munidata is listening on')) resolvePromise();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) before listening:\n${head.slice(-2000)}`)),
    );
  });
  await listening;
  return { child, logBytes: () => logBytes };
}

/** `munidata demo` on the run's database, directly (not through the proxy). */
async function loadDemoData() {
  const child = spawn(process.execPath, [join(DIST, 'main.js'), 'demo'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`munidata demo exited ${code}`);
}

function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined; // the process is gone
  }
}

// ── load ──────────────────────────────────────────────────────────────────────────────────────────────────────

function drive(channel, authorization, seconds) {
  return new Promise((resolvePromise, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${PORT}`,
        connections: CONNECTIONS / CHANNELS.length,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: channel.method,
            path: channel.path,
            headers: { ...channel.headers, authorization },
            ...(channel.body ? { body: channel.body } : {}),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolvePromise(result)),
    );
  });
}

function tally(results) {
  const counts = { '2xx': 0, 503: 0, other: 0, errors: 0 };
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      if (code.startsWith('2')) counts['2xx'] += count;
      else if (code === '503') counts[503] += count;
      else counts.other += count;
    }
    counts.errors += result.errors + result.timeouts;
  }
  return counts;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ── main ──────────────────────────────────────────────────────────────────────────────────────────────────────

runBench(main, cleanUp);

async function main() {
  console.log(
    `munidata bench: fault-and-soak — ${SOAK_SECONDS} s on PostgreSQL + Redis with cuts, peak RSS ≤ ${TARGET_MB} MB`,
  );
  console.log(machineLine());
  const pgServer = new URL(SERVER_URL);
  const pgProxy = await startProxy(pgServer.hostname, Number(pgServer.port || 5432));
  const redisProxy = await startProxy(REDIS_URL.hostname, Number(REDIS_URL.port || 6379));
  const proxies = { postgres: pgProxy, redis: redisProxy };
  await onServer(`CREATE DATABASE ${RUN_DB}`);
  const started = Date.now();
  await loadDemoData();
  const server = await startServer(pgProxy.port(), redisProxy.port());
  const pid = server.child.pid;
  try {
    console.log(
      `server pid ${pid} listening after ${((Date.now() - started) / 1000).toFixed(0)} s (demo data loaded first)`,
    );
    const { openPostgresStore } = await import('../dist/store/postgres/postgres-store.js');
    const store = openPostgresStore({ url: databaseUrl(), poolSize: 1 });
    let authorization;
    try {
      authorization = `Bearer ${await addBenchKey(store)}`;
    } finally {
      await store.close();
    }
    console.log(`before: ${loadLine()}`);

    const samples = [];
    let phase = 'start';
    const sampler = setInterval(() => {
      const mb = rssMb(pid);
      if (mb !== undefined) samples.push({ t: (Date.now() - started) / 1000, mb, phase });
    }, 1_000);
    const startRss = rssMb(pid);

    const loadSeconds = Math.round(SOAK_SECONDS * (1 - IDLE_SHARE));
    const loading = Promise.all(CHANNELS.map((channel) => drive(channel, authorization, loadSeconds)));
    const peakOf = (list) => Math.max(0, ...list.map((s) => s.mb));
    for (const step of PHASES) {
      phase = step.name;
      if (step.cut) await proxies[step.cut].cut();
      const from = samples.length;
      await sleep(SOAK_SECONDS * step.share * 1_000);
      if (step.cut) await proxies[step.cut].restore();
      console.log(`  ${step.name.padEnd(20)} peak ${peakOf(samples.slice(from)).toFixed(0)} MB`);
    }
    const results = await loading;
    phase = 'idle';
    await sleep(SOAK_SECONDS * IDLE_SHARE * 1_000);
    clearInterval(sampler);
    const idleAfter = rssMb(pid);
    const alive = server.child.exitCode === null;

    const peak = peakOf(samples);
    const counts = tally(results);
    console.log(`after: ${loadLine()}`);
    console.log(
      `\nRSS: start ${startRss?.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, ` +
        `idle after ${idleAfter?.toFixed(0) ?? '—'} MB (${samples.length} samples, one a second)`,
    );
    for (const [i, channel] of CHANNELS.entries()) {
      const c = tally([results[i]]);
      console.log(
        `  ${channel.name.padEnd(4)} 2xx ${c['2xx']}, 503 ${c[503]}, other ${c.other}, errors/timeouts ${c.errors}`,
      );
    }
    console.log(
      `answers: 2xx ${counts['2xx']}, 503 ${counts[503]}, other ${counts.other}, errors/timeouts ${counts.errors}`,
    );
    console.log(`server log: ${(server.logBytes() / 1e6).toFixed(1)} MB written`);
    const pass = alive && peak <= TARGET_MB;
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: peak RSS ${peak.toFixed(0)} MB ` +
        `${pass ? '≤' : alive ? '>' : '(the server died)'} ${TARGET_MB} MB`,
    );
    return pass ? 0 : 1;
  } finally {
    server.child.kill('SIGTERM');
    await Promise.race([once(server.child, 'exit'), sleep(5_000)]);
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await pgProxy.close();
    await redisProxy.close();
  }
}
