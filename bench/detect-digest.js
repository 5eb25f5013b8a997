/**
 * Detection and matching from scratch on a copy of the cached SQLite database of N contracts (procurement-db.js), at
 * a fixed clock, then a digest of what they wrote: signals (every column but the id and `updated_at`, the wall clock's
 * change stamp), cases, links, case events and matches (a signal named by its key, not its id), each counted and
 * hashed in key order. Two trees that write the same print the same digests: run it before and after a change to
 * detection (on a loaded machine the CPU seconds compare, the wall seconds hardly).
 *
 *   node bench/detect-digest.js [contracts, default 100000]
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { BENCH_STORE, copyProcurementDb } from './procurement-db.js';

const CONTRACTS = Number(process.argv[2] ?? 100_000);
const NOW = new Date('2026-11-29T12:00:00Z');

if (BENCH_STORE !== 'sqlite') {
  process.stderr.write('detect-digest.js reads the SQLite copy: run it without BENCH_STORE=postgres.\n');
  process.exit(2);
}
const { runDetection } = await import('../dist/detect/run-detection.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');

async function timed(work) {
  const [cpu, started] = [process.cpuUsage(), performance.now()];
  const result = await work();
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  return { result, line: `${seconds.toFixed(1)} s (CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)` };
}

/** Every column of `table` but those left out, as a select list on `alias`. */
function columnsOf(db, table, alias, leftOut) {
  const names = db.prepare(`PRAGMA table_info(${table})`).all();
  return names.flatMap(({ name }) => (leftOut.includes(name) ? [] : [`${alias}.${name}`])).join(', ');
}

const DIGESTS = {
  signals: (db) => `SELECT ${columnsOf(db, 'signals', 's', ['id', 'updated_at'])} FROM signals s ORDER BY s.key`,
  cases: (db) => `SELECT ${columnsOf(db, 'cases', 'c', ['id', 'updated_at'])} FROM cases c ORDER BY c.key`,
  case_links: () =>
    `SELECT s.key, c.key AS case_key, l.relationship FROM case_links l
     JOIN signals s ON s.id = l.signal_id JOIN cases c ON c.id = l.case_id ORDER BY s.key`,
  // A signal named by its key, not its id, in a `signal_linked` event and in a reason's `sinal N`: ids follow the
  // order of the writes, which batch boundaries may change without changing what is written.
  case_events: () =>
    `SELECT c.key, e.event_type, e.old_value,
       CASE WHEN e.event_type = 'signal_linked'
         THEN (SELECT key FROM signals WHERE id = CAST(e.new_value AS integer)) ELSE e.new_value END AS new_value,
       CASE WHEN e.reason LIKE '%sinal %' THEN (SELECT key FROM signals WHERE id = CAST(
         substr(e.reason, instr(e.reason, 'sinal ') + 6,
                instr(substr(e.reason, instr(e.reason, 'sinal ') + 6), ' ') - 1) AS integer))
         ELSE e.reason END AS reason,
       e.created_at
     FROM case_events e JOIN cases c ON c.id = e.case_id ORDER BY c.key, new_value, e.event_type, reason`,
  alert_matches: (db) =>
    `SELECT ${columnsOf(db, 'alert_matches', 'm', ['id', 'item_key', 'case_id', 'updated_at'])}, c.key AS case_key,
       coalesce('signal:' || s.key, m.item_key) AS item
     FROM alert_matches m LEFT JOIN cases c ON c.id = m.case_id
     LEFT JOIN signals s ON m.item_key LIKE 'signal:%' AND s.id = CAST(substr(m.item_key, 8) AS integer)
     ORDER BY m.rule_id, item`,
};

const { store, location, remove } = await copyProcurementDb(CONTRACTS);
try {
  const detection = await timed(() => runDetection(store, { now: NOW }));
  const matching = await timed(() => runAlertMatching(store, { now: NOW }));
  const d = detection.result;
  console.log(`${CONTRACTS.toLocaleString('en')} contracts from scratch, clock ${NOW.toISOString()}`);
  console.log(`  detection ${detection.line}, of which integrity ${d.integrity.seconds.toFixed(1)} s`);
  console.log(`  matching ${matching.line}`);
  await store.close();
  const db = new Database(location, { readonly: true });
  for (const [name, sql] of Object.entries(DIGESTS)) {
    const hash = createHash('sha256');
    let rows = 0;
    for (const row of db.prepare(sql(db)).iterate()) {
      hash.update(JSON.stringify(row));
      rows++;
    }
    console.log(`  ${name}: ${rows.toLocaleString('en')} rows, ${hash.digest('hex').slice(0, 16)}`);
  }
  db.close();
} finally {
  await remove();
}
