/**
 * `npm run bench` (webhooks): signed delivery from the outbox to a local receiver, on a fresh SQLite store, with
 * the worker as the pipeline runs it (deliverWebhooks, the `deliver` step) and matches written as the matcher
 * writes them (recordAlertMatches: the match and its delivery in one transaction, in batches of MATCH_BATCH).
 *
 *   1. Latency at 1,000 matches a minute: at the default PIPELINE_INTERVAL_S (60) a cycle's matcher commits a
 *      minute's 1,000 matches and its `deliver` step sends them; the receiver times each arrival from its batch's
 *      commit. CYCLES cycles; p50 and p99 (targets < 1 s, < 5 s).
 *   2. Drain: 10,000 deliveries queued, one worker run to a healthy receiver (target < 60 s).
 *   3. Bounds: the receiver down (its port closed) for an hour of events at 1,000 a minute, the hour compressed
 *      (each minute's `deliver` run is given the minute's time as its clock, so the retries of the documented
 *      schedule fall due as they would); the worker's process RSS and heap, peak against the start (target: peak
 *      RSS within +150 MB of the start, whatever the backlog).
 *
 * Prints figures and PASS/MISS per target. A report, not a test: it exits 1 only when a delivery to the healthy
 * receiver never arrived (then the figures mean nothing). Environment (bench only): BENCH_WEBHOOK_DOWN_MINUTES
 * (default 60).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLine, machineLine, table } from './lib.js';

const { migrate } = await import('../dist/admin/migrate.js');
const { createAlertRule } = await import('../dist/admin/alert-rules.js');
const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
const { createWebhookEndpoint } = await import('../dist/webhooks/endpoints.js');
const { deliverWebhooks } = await import('../dist/webhooks/deliver.js');

const PER_MINUTE = 1_000;
const CYCLES = 3;
const MATCH_BATCH = 100;
const DRAIN = 10_000;
const DOWN_MINUTES = Number(process.env.BENCH_WEBHOOK_DOWN_MINUTES ?? 60);
const TARGETS = { p50: 1, p99: 5, drainS: 60, rssGrowthMb: 150 };

/** A healthy receiver: answers 204 at once and notes when each webhook-id arrived. */
function startReceiver() {
  const arrived = new Map();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrived.set(String(request.headers['webhook-id']), performance.now());
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, arrived })));
}

function openBenchStore() {
  const dir = mkdtempSync(join(tmpdir(), 'munidata-bench-webhooks-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  return { store, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let itemSeq = 0;
/** `count` matches of `ruleId`, committed MATCH_BATCH at a time as the matcher does; each batch's commit instant. */
async function commitMatches(store, ruleId, count, at) {
  const commits = [];
  for (let done = 0; done < count; done += MATCH_BATCH) {
    const matches = Array.from({ length: Math.min(MATCH_BATCH, count - done) }, () => ({
      rule_id: ruleId,
      item_key: `procurement_contract:${++itemSeq}`,
      source_type: 'procurement_contract',
      municipality_id: null,
      score: 1,
      title: `Zeppelin ${itemSeq}`,
      snippet: null,
      link: null,
      matched_at: at.toISOString(),
      case_id: null,
      judge: null,
    }));
    await store.recordAlertMatches({ matches, matchedSeq: [] });
    commits.push(performance.now());
  }
  return commits;
}

/** The endpoint's deliveries by webhook-id, with the commit instant of the batch each belongs to. */
async function commitsById(store, endpointId, commits, fromId) {
  const rows = (await store.webhooks.listDeliveries(endpointId, 1_000_000)).filter((d) => d.id > fromId);
  rows.sort((a, b) => a.id - b.id);
  return new Map(rows.map((d, i) => [d.message_id, commits[Math.floor(i / MATCH_BATCH)]]));
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const verdict = (ok) => (ok ? 'PASS' : 'MISS');

async function setUp(store, url) {
  await migrate(store);
  const now = new Date();
  const account = (
    await store.createAccount({ name: 'Bench', plan_code: 'premium', beta: false, now: now.toISOString() })
  ).id;
  const rule = await createAlertRule(
    store,
    { account, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'] },
    now,
  );
  const { endpoint } = await createWebhookEndpoint(
    store,
    { account, url, events: ['alert_match.created'] },
    { now, allowLoopback: true },
  );
  return { ruleId: rule.id, endpointId: endpoint.id };
}

async function latency(store, receiver) {
  const { ruleId, endpointId } = await setUp(store, `http://127.0.0.1:${receiver.server.address().port}/hook`);
  const seconds = [];
  let runS = 0;
  let cpuUs = 0;
  let lastId = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const commits = await commitMatches(store, ruleId, PER_MINUTE, new Date());
    const started = performance.now();
    const cpu = process.cpuUsage();
    await deliverWebhooks(store, { now: new Date(), allowLoopback: true });
    runS += (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
    const byId = await commitsById(store, endpointId, commits, lastId);
    lastId = Math.max(lastId, ...(await store.webhooks.listDeliveries(endpointId, 1)).map((d) => d.id));
    for (const [id, committed] of byId) {
      const at = receiver.arrived.get(id);
      seconds.push(at === undefined ? Number.POSITIVE_INFINITY : (at - committed) / 1000);
    }
  }
  seconds.sort((a, b) => a - b);
  const n = seconds.length;
  return { p50: percentile(seconds, 50), p99: percentile(seconds, 99), runS: runS / CYCLES, cpuUs: cpuUs / n, n };
}

async function drain(store, receiver) {
  const { ruleId, endpointId } = await setUp(store, `http://127.0.0.1:${receiver.server.address().port}/hook`);
  await commitMatches(store, ruleId, DRAIN, new Date());
  const started = performance.now();
  const summary = await deliverWebhooks(store, { now: new Date(), allowLoopback: true });
  const seconds = (performance.now() - started) / 1000;
  const pending = (await store.webhooks.listDeliveries(endpointId, 1_000_000)).filter((d) => d.state !== 'delivered');
  return { seconds: pending.length === 0 ? seconds : Number.POSITIVE_INFINITY, delivered: summary.delivered };
}

async function receiverDown(store) {
  // A port that was just free: nothing listens, every connection is refused at once.
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const { ruleId } = await setUp(store, `http://127.0.0.1:${port}/hook`);
  global.gc?.();
  const start = process.memoryUsage();
  let peak = { rss: start.rss, heapUsed: start.heapUsed };
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peak = { rss: Math.max(peak.rss, m.rss), heapUsed: Math.max(peak.heapUsed, m.heapUsed) };
  }, 100);
  const t0 = Date.now();
  let attempted = 0;
  const wall = performance.now();
  for (let minute = 0; minute < DOWN_MINUTES; minute++) {
    const at = new Date(t0 + minute * 60_000);
    await commitMatches(store, ruleId, PER_MINUTE, at);
    attempted += (await deliverWebhooks(store, { now: at, allowLoopback: true })).attempted;
  }
  clearInterval(sample);
  return { start, peak, attempted, queued: DOWN_MINUTES * PER_MINUTE, wallS: (performance.now() - wall) / 1000 };
}

const mb = (bytes) => bytes / 1024 / 1024;
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'never');

console.log(`bench/webhooks.js — ${machineLine()}`);
console.log(loadLine());
const receiver = await startReceiver();
const results = [];
for (const [name, run] of [
  ['latency', (store) => latency(store, receiver)],
  ['drain', (store) => drain(store, receiver)],
  ['down', (store) => receiverDown(store)],
]) {
  const { store, remove } = openBenchStore();
  try {
    results.push([name, await run(store)]);
  } finally {
    await store.close();
    remove();
  }
}
receiver.server.close();
const r = Object.fromEntries(results);
console.log(
  table(
    ['target', 'measured', 'limit', ''],
    [
      [`commit → delivery p50 (${r.latency.n} matches)`, `${fmt(r.latency.p50)} s`, `< ${TARGETS.p50} s`],
      ['commit → delivery p99', `${fmt(r.latency.p99)} s`, `< ${TARGETS.p99} s`],
      [`${DRAIN} queued, drained`, `${fmt(r.drain.seconds)} s`, `< ${TARGETS.drainS} s`],
      [
        `receiver down ${DOWN_MINUTES} min (${r.down.queued} events, ${r.down.attempted} attempts): peak RSS`,
        `${fmt(mb(r.down.peak.rss))} MB (start ${fmt(mb(r.down.start.rss))})`,
        `start + ${TARGETS.rssGrowthMb} MB`,
      ],
      [
        '  peak heap used',
        `${fmt(mb(r.down.peak.heapUsed))} MB (start ${fmt(mb(r.down.start.heapUsed))})`,
        '(reported)',
      ],
    ].map((row, i) => [
      ...row,
      [
        r.latency.p50 < TARGETS.p50,
        r.latency.p99 < TARGETS.p99,
        r.drain.seconds < TARGETS.drainS,
        mb(r.down.peak.rss - r.down.start.rss) < TARGETS.rssGrowthMb,
        null,
      ].map((ok) => (ok === null ? '' : verdict(ok)))[i],
    ]),
  ),
);
console.log(
  `A cycle's deliver run took ${fmt(r.latency.runS)} s for ${PER_MINUTE} deliveries, ` +
    `${Math.round(r.latency.cpuUs)} µs of CPU each (worker and receiver, one process); ` +
    `the down hour took ${fmt(r.down.wallS)} s of wall time.`,
);
console.log(loadLine());
if (!Number.isFinite(r.latency.p99) || !Number.isFinite(r.drain.seconds)) {
  console.error('FAILED: a delivery to the healthy receiver never arrived');
  process.exitCode = 1;
}
