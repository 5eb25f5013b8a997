/**
 * `npm run bench` (last step): signal detection and alert matching on the demo data set with N contracts, from
 * scratch. The cached database of bench/procurement-db.js (`.bench/procurement-<N>.db`, or its PostgreSQL database
 * with BENCH_STORE=postgres: the demo data, the demo account and its alert rules, no signals) is copied so that it
 * stays pristine; on the copy:
 *
 *   1. runDetection (procurement detectors, deadline sweep, indicator detectors, cases), then runAlertMatching;
 *   2. the same again: nothing changed, so this is what a scheduled run costs when there is nothing new.
 *
 * Prints contracts, signals, cases, matches and seconds per step. A report, not a test: it exits 1 only when the
 * second run writes something (then detection is not idempotent and the figures mean nothing).
 *
 * Environment (bench only):
 *   BENCH_DETECT_SIZES  contract counts, comma-separated (default 1000000; 100000 when time is short)
 *   BENCH_STORE         `postgres` to run on PostgreSQL (BENCH_POSTGRES_URL, see postgres-db.js); SQLite by default
 */
import { fmt, loadLine, machineLine, table } from './lib.js';
import { BENCH_STORE, copyProcurementDb } from './procurement-db.js';

const SIZES = (process.env.BENCH_DETECT_SIZES ?? '1000000').split(',').map(Number);

const { runDetection } = await import('../dist/detect/run-detection.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');

async function timed(work) {
  const started = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - started) / 1000 };
}

/** Detection then matching on a fresh copy of the N-contract database, twice. */
async function measure(contracts) {
  const { store, remove } = await copyProcurementDb(contracts);
  try {
    const count = (await store.aggregateContracts({ groupBy: ['year'] })).totals.count;
    const runs = [];
    for (const label of ['from scratch', 'again, nothing new']) {
      const now = new Date();
      const detection = await timed(() => runDetection(store, { now }));
      const matching = await timed(() => runAlertMatching(store, { now }));
      runs.push({ label, detection, matching });
      process.stdout.write(
        `  ${fmt(count)} contracts, ${label}: detection ${detection.seconds.toFixed(1)} s, ` +
          `matching ${matching.seconds.toFixed(1)} s\n`,
      );
    }
    return { contracts: count, runs };
  } finally {
    await store.close();
    await remove();
  }
}

console.log(`\nSignal detection and alert matching on ${BENCH_STORE} — ${machineLine()}; ${loadLine()}\n`);
const rows = [];
let idempotent = true;
for (const size of SIZES) {
  const { contracts, runs } = await measure(size);
  for (const { label, detection, matching } of runs) {
    const d = detection.result;
    const written = d.signals.inserted + d.signals.updated;
    if (label !== 'from scratch' && (written > 0 || d.cases.events > 0 || matching.result.matched > 0))
      idempotent = false;
    rows.push([
      fmt(contracts),
      label,
      fmt(d.signals.inserted),
      fmt(d.signals.updated),
      fmt(d.cases.computed),
      fmt(d.cases.events),
      fmt(matching.result.matched),
      detection.seconds.toFixed(1),
      matching.seconds.toFixed(1),
      (detection.seconds + matching.seconds).toFixed(1),
    ]);
  }
}
console.log(
  `\n${table(
    [
      'contracts',
      'run',
      'signals inserted',
      'signals updated',
      'cases computed',
      'case events',
      'matches',
      'detection s',
      'matching s',
      'total s',
    ],
    rows,
  )}`,
);
if (!idempotent) {
  console.log('\nThe second run wrote something: detection is not idempotent, the figures mean nothing.');
  process.exit(1);
}
