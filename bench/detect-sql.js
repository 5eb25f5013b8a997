/**
 * Where SQLite's share of detection from scratch goes, statement by statement (docs/performance.md, Detection): on a
 * copy of the cached SQLite database of N contracts (procurement-db.js), runDetection then runAlertMatching, with
 * every better-sqlite3 statement's `all`, `get`, `run` and `iterate` timed and summed by its SQL text (white space
 * folded). Prints the whole run's seconds, the seconds inside statements, and the `TOP` costliest texts with their
 * calls. A report for issue 30's redesign, not a target: `bench/detect.js` measures the whole; `detect-stages.js`
 * times the stages, this the statements within them. Timing each call adds about 1 µs to it.
 *
 *   node --max-semi-space-size=64 bench/detect-sql.js [contracts, default 100000] [top, default 25]
 */
import Database from 'better-sqlite3';
import { fmt, loadLine, machineLine, table } from './lib.js';
import { BENCH_STORE, copyProcurementDb } from './procurement-db.js';

const CONTRACTS = Number(process.argv[2] ?? 100_000);
const TOP = Number(process.argv[3] ?? 25);
const SHOWN = 110;

if (BENCH_STORE !== 'sqlite') {
  process.stderr.write('detect-sql.js times better-sqlite3 statements: run it without BENCH_STORE=postgres.\n');
  process.exit(2);
}

/** Milliseconds and calls by SQL text. */
const spent = new Map();
// Every statement shares one prototype: wrapping its methods once times all the store's statements.
const prototype = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = prototype[method];
  prototype[method] = function timed(...args) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const text = this.source.replace(/\s+/g, ' ').trim();
      const entry = spent.get(text) ?? { ms: 0, calls: 0 };
      entry.ms += performance.now() - started;
      entry.calls++;
      spent.set(text, entry);
    }
  };
}

const { runDetection } = await import('../dist/detect/run-detection.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');

console.log(`\nDetection from scratch, SQLite statement by statement — ${machineLine()}; ${loadLine()}\n`);
const { store, remove } = await copyProcurementDb(CONTRACTS);
try {
  const now = new Date();
  const started = performance.now();
  await runDetection(store, { now });
  await runAlertMatching(store, { now });
  const whole = (performance.now() - started) / 1000;
  const inSql = [...spent.values()].reduce((sum, e) => sum + e.ms, 0) / 1000;
  console.log(`${fmt(CONTRACTS)} contracts: ${whole.toFixed(1)} s, of which ${inSql.toFixed(1)} s in statements\n`);
  const rows = [...spent]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, TOP)
    .map(([text, e]) => [
      (e.ms / 1000).toFixed(2),
      fmt(e.calls),
      text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text,
    ]);
  console.log(table(['s', 'calls', 'statement'], rows));
} finally {
  await store.close();
  await remove();
}
