/**
 * Shared by the bench scripts (run.js, ablate.js, scale-out.js, …): the prepared database, the server child processes,
 * one autocannon run, one request, the run/exit wrapper and small formatting helpers. Nothing here runs on import.
 */
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..');
export const DIST = join(ROOT, 'dist');
const CACHE_DIR = join(ROOT, '.bench');
const CACHED_DB = join(CACHE_DIR, 'demo.db');
export const SEED = 42;

export const CONNECTIONS = 50;
export const PIPELINING = 1;

export const SCENARIOS = [
  { name: 'snapshot', path: '/v1/indicators/population/snapshot?limit=50' },
  { name: 'series', path: '/v1/indicators/population/series?municipality=1106' },
];

// ── the database ────────────────────────────────────────────────────────────

/**
 * A throw-away copy of the demo database (cached in .bench/demo.db, built when missing: migrate + demo data
 * with seed 42), with a `bench` plan, an account and a key. Returns the file, its directory (to remove) and
 * the key's secret.
 */
export async function prepareDatabase() {
  if (!existsSync(join(DIST, 'app.js')))
    throw new Error('dist/app.js is missing: run `npm run build` (or `npm run bench`).');
  const { migrate } = await import('../dist/admin/migrate.js');
  const { loadDemo } = await import('../dist/demo/load-demo.js');
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');

  if (!existsSync(CACHED_DB)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const building = join(CACHE_DIR, `demo.${process.pid}.db`);
    const started = Date.now();
    process.stdout.write(`Building ${CACHED_DB} (migrate + demo data, seed ${SEED})… `);
    const store = openSqliteStore(building);
    await migrate(store);
    await loadDemo(store, { seed: SEED });
    await store.close(); // checkpoints the WAL into the file
    renameSync(building, CACHED_DB);
    process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }

  const tempDir = mkdtempSync(join(tmpdir(), 'munidata-bench-'));
  removeOnExit(tempDir);
  const dbPath = join(tempDir, 'bench.db');
  copyFileSync(CACHED_DB, dbPath);
  // A reader left the cache with a WAL: take it along, SQLite replays it on open.
  if (existsSync(`${CACHED_DB}-wal`)) copyFileSync(`${CACHED_DB}-wal`, `${dbPath}-wal`);
  const store = openSqliteStore(dbPath);
  try {
    await migrate(store); // a newer schema than the cached file's
    return { dbPath, tempDir, secret: await addBenchKey(store) };
  } finally {
    await store.close();
  }
}

/**
 * Adds the `bench` plan (the indicators, raw values, limits that never refuse), an account on it and a key to a
 * store (SQLite or PostgreSQL); returns the key's secret.
 */
export async function addBenchKey(store) {
  const { savePlan } = await import('../dist/admin/plans.js');
  const { createAccount } = await import('../dist/admin/accounts.js');
  const { createKey } = await import('../dist/admin/keys.js');
  const now = new Date();
  await savePlan(
    store,
    'bench',
    {
      name: 'Bench',
      api_access: true,
      domains: ['indicators'],
      raw_values: true,
      // Very large but finite: the rate limiter and the quota run on every request and never refuse.
      requests_per_minute: 1e9,
      requests_per_month: 1e12,
    },
    'create',
  );
  const account = await createAccount(store, { name: 'bench', plan: 'bench' }, now);
  return (await createKey(store, { accountId: account.id, label: 'bench' }, now)).secret;
}

/**
 * Removes `dir` when this process exits, also on SIGINT/SIGTERM (Ctrl-C, `timeout`), which otherwise skip the
 * callers' `finally`; the server children are stopped too (they also stop when the IPC channel closes).
 */
function removeOnExit(dir) {
  tempDirs.add(dir);
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    stopAllChildren();
    for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.once(signal, () => process.exit(code));
  }
}
const tempDirs = new Set();
let exitHooked = false;

// ── HTTP ────────────────────────────────────────────────────────────────────

/**
 * One autocannon run against 127.0.0.1:port, in this process: `method` (GET unless told) of `path` with `headers`
 * and `body`, over `connections` (CONNECTIONS unless told) for `seconds`; `verifyBody` as autocannon's (a failed
 * check counts in `mismatches`). Latencies in ms.
 */
export async function load(
  port,
  { path, seconds, method = 'GET', headers, body, verifyBody, connections = CONNECTIONS },
) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method,
    headers,
    body,
    verifyBody,
    connections,
    pipelining: PIPELINING,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** One request to 127.0.0.1:port: its status, its body as text and, when the body parses, as JSON. */
export function requestJson(port, method, path, headers, body) {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolvePromise({ status: res.statusCode, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One GET with only the Authorization header (no Accept-Encoding, like autocannon): status, headers, body bytes. */
export function get(port, path, authorization) {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { authorization } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n${res.rawHeaders
          .map((v, i) => (i % 2 === 0 ? `${v}: ` : `${v}\r\n`))
          .join('')}\r\n`;
        resolvePromise({
          status: res.statusCode,
          rawHeaders: res.rawHeaders,
          headerBytes: Buffer.byteLength(head),
          body: Buffer.concat(chunks),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer's headers, minus those node:http writes itself (date, connection, keep-alive, content-length). */
export function replayableHeaders(rawHeaders) {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const headers = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (skip.has(name)) continue;
    headers[name] = headers[name] === undefined ? rawHeaders[i + 1] : [].concat(headers[name], rawHeaders[i + 1]);
  }
  return headers;
}

// ── child processes ─────────────────────────────────────────────────────────

const children = new Set();

/**
 * Forks bench/<script> (optionally sending it a first IPC message) and resolves with `{ child, port }` once it
 * reports `{ type: 'listening', port }`.
 */
export function startChild(script, args, execArgv, firstMessage) {
  return new Promise((resolvePromise, reject) => {
    const child = fork(join(HERE, script), args, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.add(child);
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 30 s`)), 30_000);
    child.once('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before listening`));
    });
    child.on('message', (message) => {
      if (message?.type !== 'listening') return;
      clearTimeout(timer);
      resolvePromise({ child, port: message.port });
    });
    if (firstMessage) child.send(firstMessage);
  });
}

/** The child's CPU time so far, in µs (user + system), from `process.cpuUsage()` over IPC. */
export function cpuTime(handle) {
  return new Promise((resolvePromise) => {
    const onMessage = (message) => {
      if (message?.type !== 'cpu') return;
      handle.child.off('message', onMessage);
      resolvePromise(message.usage.user + message.usage.system);
    };
    handle.child.on('message', onMessage);
    handle.child.send({ type: 'cpu' });
  });
}

/**
 * One autocannon run (see `load`) plus the CPU µs per request it cost the server child (`cpuUs`) and this
 * process, the load generator (`clientCpuUs`).
 */
export async function loadServer(handle, options) {
  const before = await cpuTime(handle);
  const client = process.cpuUsage();
  const result = await load(handle.port, options);
  const clientUsage = process.cpuUsage(client);
  const cpu = (await cpuTime(handle)) - before;
  const requests = Math.max(1, result.total);
  return { ...result, cpuUs: cpu / requests, clientCpuUs: (clientUsage.user + clientUsage.system) / requests };
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the child has exited. */
export function stopChild(handle) {
  if (!handle || handle.child.exitCode !== null || handle.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => {
      handle.child.kill('SIGKILL');
      resolvePromise();
    }, 10_000);
    handle.child.once('exit', () => {
      clearTimeout(timer);
      children.delete(handle.child);
      resolvePromise();
    });
    handle.child.kill('SIGTERM');
  });
}

/**
 * Runs a bench: `main` resolves with the exit code (a throw is printed and exits 1); on the way out, either way, the
 * server children are stopped and `cleanUp` (when given) runs, before the exit code is set.
 */
export function runBench(main, cleanUp) {
  main()
    .catch((error) => {
      console.error(error);
      return 1;
    })
    .then(async (code) => {
      stopAllChildren();
      await cleanUp?.();
      process.exitCode = code;
    });
}

/** Stops the children this process started and that still run (on the way out). */
export function stopAllChildren() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

// ── numbers and text ────────────────────────────────────────────────────────

export function machineLine() {
  const list = cpus();
  return (
    `node ${process.version} on ${process.platform}/${process.arch}; ` +
    `CPU: ${list[0]?.model ?? 'unknown'} × ${list.length}`
  );
}

/** The 1, 5 and 15 minute load averages: how busy the (shared) machine was around a run. */
export function loadLine() {
  return `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} on ${cpus().length} CPUs`;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}

/** A positive number from the environment (bench settings only), or the fallback. */
export function positiveNumber(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number; got "${text}"`);
  return n;
}

/** A markdown-style table, first column left-aligned, the others right-aligned. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/**
 * An OAuth access token for the account of `secret` (the bench key), as the authorization server issues one after
 * consent: a grant for a client named `bench` with the indicators scope, bound to `{baseUrl}/mcp`. Written to
 * the store the bench server reads (SQLite file).
 */
export async function addBenchToken(dbPath, secret, baseUrl) {
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  const { parseKeySecret } = await import('../dist/access/api-keys.js');
  const { createAuthorizationServer } = await import('../dist/oauth/authorization-server.js');
  const { openGrantRevocations } = await import('../dist/access/grant-revocations.js');
  const store = openSqliteStore(dbPath);
  const revocations = await openGrantRevocations({});
  try {
    const key = await store.findKeyGrant(parseKeySecret(secret).lookup);
    const accountId = String(key.account.id);
    const server = await createAuthorizationServer({
      baseUrl,
      store: store.oauth,
      cookieKeys: [await store.secret('oauth-cookies')],
      revocations,
    });
    const { provider } = server;
    const resource = `${baseUrl}/mcp`;
    const grant = new provider.Grant({ accountId, clientId: 'bench' });
    grant.addResourceScope(resource, 'indicators:read');
    const grantId = await grant.save();
    const token = new provider.AccessToken({
      accountId,
      clientId: 'bench',
      grantId,
      aud: resource,
      scope: 'indicators:read',
    });
    return await token.save();
  } finally {
    await revocations.close();
    await store.close();
  }
}
