/**
 * The SQL behind the scenarios of bench/procurement.js, on the cached databases (read-only): each statement's plan
 * and its time (median of a few runs, in this process, no HTTP). For finding which query makes a scenario miss, and
 * for checking a fix. SQLite prints EXPLAIN QUERY PLAN; with BENCH_STORE=postgres the cached PostgreSQL databases
 * are read and each statement's EXPLAIN (ANALYZE, BUFFERS) is printed (the statement runs once more for it). Do not
 * run it on PostgreSQL while a bench copies the same database: a template in use cannot be copied.
 *
 *   node bench/procurement-explain.js [contracts …]     (default: 100000 1000000; the caches must exist)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { median } from './lib.js';
import { databaseUrl, onServer } from './postgres-db.js';
import { BENCH_STORE, CACHE_DIR } from './procurement-db.js';

const { contractQuery } = await import('../dist/store/procurement/contract-list.js');
const { keysetSql, readKeysetIds } = await import('../dist/store/procurement/keyset.js');
const { loadContracts } = await import('../dist/store/procurement/contract-rows.js');
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
  {
    name: 'aggregate: Lisboa + Porto, year × municipality',
    query: { executedIn: [153, 190], groupBy: ['year', 'municipality'], to: TO },
  },
  {
    name: 'aggregate: Lisboa, suppliers, 12 months',
    query: { executedIn: [153], from: yearsAgo(1), groupBy: ['supplier'], to: TO },
  },
];

/** The cached database of `contracts` as a port, its text search, and how to print a statement's plan. */
async function openCached(contracts) {
  if (BENCH_STORE === 'postgres') {
    const name = `munidata_bench_procurement_${contracts}`;
    const exists = await onServer(
      async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0,
    );
    if (!exists) {
      return {
        missing:
          `the PostgreSQL database ${name} is missing: ` +
          `run BENCH_STORE=postgres node bench/procurement-db.js ${contracts}`,
      };
    }
    const { openPools, closePools, postgresPort } = await import('../dist/store/postgres/db.js');
    const { POSTGRES_TEXT_SEARCH } = await import('../dist/store/postgres/procurement/text-search.js');
    const pools = openPools(databaseUrl(name), undefined, 1);
    const port = postgresPort(pools.primary);
    return {
      where: name,
      port,
      textSearch: POSTGRES_TEXT_SEARCH,
      async explain(text, values) {
        for (const row of await port.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values))
          console.log(`      ${row['QUERY PLAN']}`);
      },
      close: () => closePools(pools),
    };
  }
  const file = join(CACHE_DIR, `procurement-${contracts}.db`);
  if (!existsSync(file)) return { missing: `${file} is missing: run node bench/procurement-db.js ${contracts}` };
  const { SqlitePort } = await import('../dist/store/sqlite/connection.js');
  const { SQLITE_TEXT_SEARCH } = await import('../dist/store/sqlite/procurement/text-search.js');
  const db = new Database(file, { readonly: true });
  db.pragma('cache_size = -65536'); // as the store
  return {
    where: file,
    port: new SqlitePort(db),
    textSearch: SQLITE_TEXT_SEARCH,
    async explain(text, values = []) {
      // `$1`, `$2`, … are parameters named "1", "2", … to SQLite (src/store/sqlite/connection.ts).
      const bound = Object.fromEntries(values.map((v, i) => [i + 1, Array.isArray(v) ? JSON.stringify(v) : v]));
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...(values.length > 0 ? [bound] : []));
      for (const row of rows) console.log(`      ${row.detail}`);
    },
    close: async () => db.close(),
  };
}

const sizes = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [100_000, 1_000_000];
for (const contracts of sizes) {
  const cached = await openCached(contracts);
  if (cached.missing) {
    console.log(cached.missing);
    continue;
  }
  const { port, textSearch, explain } = cached;
  console.log(`\n════ ${contracts.toLocaleString('en-US')} contracts (${cached.where})`);

  for (const { name, filter } of LISTS) {
    console.log(`\n── ${name}`);
    const page = { limit: 51 };
    const query = await contractQuery(port, textSearch, filter, page);
    const { text, values } = keysetSql(port.dialect, query);
    console.log(`   ${text.replace(/\s+/g, ' ')}`);
    await explain(text, values);
    const ids = await readKeysetIds(port, query);
    console.log(
      `   ids of one page: ${await timedAsync(() => readKeysetIds(port, query))}; ` +
        `loading the 51 contracts: ${await timedAsync(() => loadContracts(port, ids))}`,
    );
  }

  for (const { name, query } of AGGREGATES) {
    console.log(`\n── ${name}`);
    // A port that explains and times every statement the aggregate runs, one after the other.
    let turn = Promise.resolve();
    const traced = {
      dialect: port.dialect,
      query(text, values) {
        const done = turn.then(async () => {
          console.log(`   ${text.replace(/\s+/g, ' ')}`);
          await explain(text, values);
          const started = performance.now();
          const rows = await port.query(text, values);
          console.log(`   ${(performance.now() - started).toFixed(2)} ms, ${rows.length} rows`);
          return rows;
        });
        turn = done.then(
          () => {},
          () => {},
        );
        return done;
      },
    };
    await aggregateContracts(traced, query);
    console.log(`   whole aggregate: ${await timedAsync(() => aggregateContracts(port, query))}`);
  }
  await cached.close();
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
