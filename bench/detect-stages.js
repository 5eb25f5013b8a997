/**
 * Where detection from scratch spends its time, stage by stage (docs/performance.md, Detection): on a copy of the
 * cached database of N contracts (procurement-db.js), the stages `runDetection` runs, in its order, then alert
 * matching, each timed apart: wall seconds, CPU seconds of this process, and the garbage collector's pauses (minor:
 * scavenges of the young generation; major: mark-compact), with what each wrote. A report for the redesign item 7 of
 * issue 30 asks for, not a target: `bench/detect.js` measures the whole.
 *
 *   node --max-semi-space-size=64 bench/detect-stages.js [contracts, default 100000]
 *   node --max-semi-space-size=64 bench/detect-stages.js first-start
 *
 * `first-start`: what `serve` does on an empty SQLite store in a directory of its own (docs/data.md, "The first
 * start"), the loads timed as stages before detection's: migrations, the real data of data/real/, the generated data
 * (bench/start.js times the whole start as a user sees it, against its 20 s target).
 *
 * Run it on a quiet machine: on a loaded one the collector's parallel tasks wait for a core, and its share doubles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fmt, loadLine, machineLine, table } from './lib.js';
import { BENCH_STORE, copyProcurementDb } from './procurement-db.js';

const FIRST_START = process.argv[2] === 'first-start';
const CONTRACTS = FIRST_START ? 0 : Number(process.argv[2] ?? 100_000);

const { detectProcurement } = await import('../dist/detect/procurement-detector.js');
const { detectIntegrity } = await import('../dist/detect/integrity-detector.js');
const { startSweep, sweepDeadlines } = await import('../dist/detect/sweep.js');
const { detectIndicators } = await import('../dist/detect/indicator-detector.js');
const { runCases } = await import('../dist/detect/run-cases.js');
const { deriveAgainUnderNewRules } = await import('../dist/detect/detection-rules.js');
const { instant } = await import('../dist/detect/run-detection.js');
const { Places } = await import('../dist/detect/places.js');
const { dateOf } = await import('../dist/signals/derive.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');

/** The collector's pauses, in ms, by kind; the observer's entries arrive between a stage's awaits and after it. */
const pauses = { minor: 0, major: 0 };
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind ?? entry.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) pauses.minor += entry.duration;
    else pauses.major += entry.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });

/** Lets the observer's queued entries in before they are read. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function stage(name, work, rows) {
  await settle();
  const before = { ...pauses };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await settle();
  rows.push([
    name,
    wall.toFixed(1),
    ((used.user + used.system) / 1e6).toFixed(1),
    ((pauses.minor - before.minor) / 1000).toFixed(1),
    ((pauses.major - before.major) / 1000).toFixed(1),
    wrote(result),
  ]);
}

function wrote(r) {
  if ('migrations' in r) return '';
  if ('matched' in r) return `${fmt(r.matched)} matches of ${fmt(r.entries)} entries`;
  if ('series' in r && 'contracts' in r) return 'real series and contracts';
  if ('procurement' in r && 'seed' in r) return `${fmt(r.procurement.generated)} generated contracts`;
  if ('computed' in r) return `${fmt(r.computed)} cases, ${fmt(r.events)} events`;
  return `${fmt(r.inserted)} signals inserted, ${fmt(r.updated)} updated`;
}

/** An empty store in a directory of its own, filled as a first start fills it: its stages' rows. */
async function firstStart(date) {
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  const { migrate } = await import('../dist/admin/migrate.js');
  const { importReal } = await import('../dist/ingest/real/import-real.js');
  const { loadDemoData } = await import('../dist/demo/load-demo.js');
  const dir = mkdtempSync(join(tmpdir(), 'munidata-first-start-'));
  const store = openSqliteStore(join(dir, 'munidata.db'));
  const rows = [];
  await stage('migrations', () => migrate(store), rows);
  await stage('real data', () => importReal(store, { now: date }), rows);
  await stage('generated data', () => loadDemoData(store, { today: date }), rows);
  return { store, rows, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

const what = FIRST_START ? 'A first start' : 'Detection from scratch';
console.log(`\n${what}, stage by stage, on ${BENCH_STORE} — ${machineLine()}; ${loadLine()}\n`);
const date = new Date();
const { store, remove, rows } = FIRST_START
  ? await firstStart(date)
  : { ...(await copyProcurementDb(CONTRACTS)), rows: [] };
try {
  const now = instant(date);
  const ctx = { today: dateOf(date), places: new Places(await store.listMunicipalities()) };
  const run = { now };
  await deriveAgainUnderNewRules(store);
  await startSweep(store, ctx.today);
  await stage('procurement', () => detectProcurement(store, ctx, run), rows);
  await stage('integrity', () => detectIntegrity(store, ctx, run), rows);
  await stage('sweep', () => sweepDeadlines(store, ctx, run), rows);
  await stage('indicators', () => detectIndicators(store, ctx, run), rows);
  await stage('cases', () => runCases(store, { now }), rows);
  await stage('matching', () => runAlertMatching(store, { now: date }), rows);
  const total = ['whole', ...[1, 2, 3, 4].map((i) => rows.reduce((s, r) => s + Number(r[i]), 0).toFixed(1)), ''];
  console.log(
    table(
      [
        FIRST_START ? 'first start' : `${fmt(CONTRACTS)} contracts`,
        'wall s',
        'CPU s',
        'GC minor s',
        'GC major s',
        'wrote',
      ],
      [...rows, total],
    ),
  );
} finally {
  observer.disconnect();
  await store.close();
  await remove();
}
