/**
 * What SQLite alone takes to write detection's output (docs/performance.md, Detection): detection and matching from
 * scratch on a copy of the cached SQLite database of N contracts (procurement-db.js), then each table they wrote copied
 * row for row, by one INSERT … SELECT, into an empty twin with the same indexes, one transaction a table, and
 * checkpointed. No JavaScript runs per row: the seconds are a floor under any detection that writes the same rows.
 * Last, the signals again into a compact table (no texts, evidence or subject): what a store of the flags that makes
 * those as a row is read would write.
 *
 *   node bench/detect-floor.js [contracts, default 100000]
 */
import { fmt, table } from './lib.js';
import { BENCH_STORE, copyProcurementDb } from './procurement-db.js';

const CONTRACTS = Number(process.argv[2] ?? 100_000);
const WRITTEN = ['signals', 'case_links', 'cases', 'case_events', 'changes', 'alert_matches'];
const COMPACT =
  'id, key, type, family, municipality_id, status, confidence, amount_eur, event_date, last_seen_at, updated_at';
const READ = ['contracts', 'contract_parties', 'contract_cpvs', 'contract_municipalities'];

if (BENCH_STORE !== 'sqlite') {
  process.stderr.write('detect-floor.js copies within the SQLite file: run it without BENCH_STORE=postgres.\n');
  process.exit(2);
}
const { runDetection } = await import('../dist/detect/run-detection.js');
const { runAlertMatching } = await import('../dist/alerts/run-matching.js');
const { openSqliteDatabase } = await import('../dist/store/sqlite/connection.js');

/** The statements that create `name` and its indexes, renamed to `<name><suffix>`. */
function twinSchema(db, name, suffix = '_twin') {
  const statements = db.prepare('SELECT sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL').all(name);
  return statements.map(({ sql }) =>
    sql
      .replace(new RegExp(`\\b(ON|TABLE)\\s+${name}\\b`, 'g'), `$1 ${name}${suffix}`)
      .replace(/INDEX (\w+)/, `INDEX $1${suffix}`),
  );
}

const { store, location, remove } = await copyProcurementDb(CONTRACTS);
try {
  const now = new Date();
  const started = performance.now();
  await runDetection(store, { now });
  await runAlertMatching(store, { now });
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  // Opened as the store opens it (its settings), so that the copy writes as detection does.
  const db = openSqliteDatabase(location);
  const rows = [];
  let floor = 0;
  for (const name of WRITTEN) {
    for (const sql of twinSchema(db, name)) db.exec(sql);
    const copyStarted = performance.now();
    const copied = db.transaction(() => db.prepare(`INSERT INTO ${name}_twin SELECT * FROM ${name}`).run().changes)();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const took = (performance.now() - copyStarted) / 1000;
    floor += took;
    rows.push([name, fmt(copied), took.toFixed(2)]);
  }
  // What a compact store of the flags would write instead: the signals' rows without their texts, evidence, subject
  // and fingerprint (made as a row is read, as a type's own texts are), with the signals' own indexes: the unique key
  // (CREATE TABLE … AS leaves the constraint out) and each of theirs.
  db.exec(`CREATE TABLE signals_compact AS SELECT ${COMPACT} FROM signals WHERE false`);
  db.exec('CREATE UNIQUE INDEX signals_key_compact ON signals_compact (key)');
  for (const sql of twinSchema(db, 'signals', '_compact')) if (sql.startsWith('CREATE INDEX')) db.exec(sql);
  const compactStarted = performance.now();
  const compact = db.transaction(
    () => db.prepare(`INSERT INTO signals_compact SELECT ${COMPACT} FROM signals`).run().changes,
  )();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const compactTook = (performance.now() - compactStarted) / 1000;
  // What reading the corpus once costs: each table detection reads about the contracts, scanned whole as arrays.
  const reads = READ.map((name) => {
    const readStarted = performance.now();
    let count = 0;
    for (const _ of db.prepare(`SELECT * FROM ${name}`).raw(true).iterate()) count++;
    return [`${name}, read once as arrays`, fmt(count), ((performance.now() - readStarted) / 1000).toFixed(2)];
  });
  db.close();
  console.log(`\n${fmt(CONTRACTS)} contracts: detection and matching from scratch ${seconds.toFixed(1)} s`);
  const compactRow = ['signals, compact (no texts, evidence, subject)', fmt(compact), compactTook.toFixed(2)];
  console.log(
    `\n${table(['table', 'rows', 'SQLite alone, s'], [...rows, ['all', '', floor.toFixed(2)], compactRow, ...reads])}`,
  );
} finally {
  await remove();
}
