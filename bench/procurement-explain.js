/**
 * The SQL behind the scenarios of bench/procurement.js, on the cached databases (read-only): each statement's
 * EXPLAIN QUERY PLAN and its time (median of a few runs, in this process, no HTTP). For finding which query makes
 * a scenario miss, and for checking a fix.
 *
 *   node bench/procurement-explain.js [contracts …]     (default: 100000 1000000; the caches must exist)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { median } from './lib.js';
import { CACHE_DIR } from './procurement-db.js';

const { contractQuery } = await import('../dist/store/procurement/contract-list.js');
const { keysetSql, readKeysetIds } = await import('../dist/store/procurement/keyset.js');
const { SQLITE_TEXT_SEARCH } = await import('../dist/store/sqlite/procurement/text-search.js');
const { loadContracts } = await import('../dist/store/procurement/contract-rows.js');
const { SqlitePort } = await import('../dist/store/sqlite/connection.js');
const { aggregateContracts } = await import('../dist/store/procurement/aggregate.js');

const isoDay = (d) => d.toISOString().slice(0, 10);
const today = new Date();
const yearsAgo = (n) => isoDay(new Date(Date.UTC(today.getUTCFullYear() - n, today.getUTCMonth(), today.getUTCDate())));
const TO = '2100-01-31'; // as the bench sends it: beyond every contract

/** Store inputs of the bench's scenarios (municipality ids: Lisboa 153, Porto 190 in the demo data). */
const LISTS = [
  { name: 'list: municipality', filter: { municipalityIds: [153] } },
  { name: 'list: CPV + from', filter: { cpvPrefix: '45', from: yearsAgo(2) } },
];
const AGGREGATES = [
  { name: 'aggregate: Lisboa by year', query: { executedIn: [153], groupBy: ['year'], to: TO } },
  { name: 'aggregate: national, year × CPV', query: { groupBy: ['year', 'cpv_division'], to: TO } },
  { name: 'aggregate: Lisboa + Porto, year × municipality', query: { executedIn: [153, 190], groupBy: ['year', 'municipality'], to: TO } },
  { name: 'aggregate: Lisboa, suppliers, 12 months', query: { executedIn: [153], from: yearsAgo(1), groupBy: ['supplier'], to: TO } },
];

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100_000, 1_000_000];
for (const contracts of sizes) {
  const file = join(CACHE_DIR, `procurement-${contracts}.db`);
  if (!existsSync(file)) {
    console.log(`${file} is missing: run node bench/procurement-db.js ${contracts}`);
    continue;
  }
  const db = new Database(file, { readonly: true });
  db.pragma('cache_size = -65536'); // as the store
  const port = new SqlitePort(db);
  console.log(`\n════ ${contracts.toLocaleString('en-US')} contracts (${file})`);

  for (const { name, filter } of LISTS) {
    console.log(`\n── ${name}`);
    const page = { limit: 51 };
    const query = await contractQuery(port, SQLITE_TEXT_SEARCH, filter, page);
    const { text, values } = keysetSql(port.dialect, query);
    // `$1`, `$2`, … are parameters named "1", "2", … to SQLite (src/store/sqlite/connection.ts).
    explain(db, text, Object.fromEntries(values.map((v, i) => [i + 1, Array.isArray(v) ? JSON.stringify(v) : v])));
    const ids = await readKeysetIds(port, query);
    console.log(
      `   ids of one page: ${await timedAsync(() => readKeysetIds(port, query))}; loading the 51 contracts: ${await timedAsync(() => loadContracts(port, ids))}`,
    );
  }

  for (const { name, query } of AGGREGATES) {
    console.log(`\n── ${name}`);
    // A port that explains and times every statement the aggregate runs.
    const traced = {
      dialect: port.dialect,
      async query(text, values) {
        const bound =
          values === undefined ? [] : [Object.fromEntries(values.map((v, i) => [i + 1, Array.isArray(v) ? JSON.stringify(v) : v]))];
        explain(db, text, ...bound);
        const started = performance.now();
        const rows = await port.query(text, values);
        console.log(`   ${(performance.now() - started).toFixed(2)} ms, ${rows.length} rows`);
        return rows;
      },
    };
    await aggregateContracts(traced, query);
    console.log(`   whole aggregate: ${await timedAsync(() => aggregateContracts(port, query))}`);
  }
  db.close();
}

function explain(db, text, ...params) {
  console.log(`   ${text.replace(/\s+/g, ' ')}`);
  for (const row of db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params)) console.log(`      ${row.detail}`);
}

/** Median time of a few runs after a first (warming) one. */
async function timedAsync(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return `${median(times).toFixed(2)} ms`;
}
