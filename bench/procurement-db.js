/**
 * The databases of `bench/procurement.js` and `bench/detect.js`: the demo data set with N synthetic contracts
 * (migrate + the demo data, without detection, with seed 42 and N contracts; 1 000 000 contracts take a few
 * minutes), built when missing and cached, and a throw-away copy of it with the bench plans, accounts and keys.
 * The store is SQLite (`.bench/procurement-<N>.db`) or, with BENCH_STORE=postgres, PostgreSQL (the database
 * `munidata_bench_procurement_<N>`, see postgres-db.js).
 *
 *   node bench/procurement-db.js 100000 1000000   builds the missing caches only
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, ROOT, SEED } from './lib.js';
import { cachedPostgresDb, copyForRun, dropDatabase } from './postgres-db.js';

export const CACHE_DIR = join(ROOT, '.bench');

/** The store the procurement benches run on: `sqlite` (the default) or `postgres`. */
export const BENCH_STORE = process.env.BENCH_STORE === 'postgres' ? 'postgres' : 'sqlite';

async function loadData(store, contracts) {
  const { migrate } = await import('../dist/admin/migrate.js');
  // The data without detection: bench/detect.js times detection on a copy, from scratch.
  const { loadDemoData } = await import('../dist/demo/load-demo.js');
  await migrate(store);
  await loadDemoData(store, { seed: SEED, contracts });
}

/** `munidata_bench_procurement_<contracts>` on the bench's PostgreSQL server, built when missing. Returns its name. */
async function cachedPostgresProcurementDb(contracts) {
  const name = `munidata_bench_procurement_${contracts}`;
  await cachedPostgresDb(
    name,
    `migrate + demo data, seed ${SEED}, ${contracts.toLocaleString('en-US')} contracts`,
    async (url) => {
      const { openPostgresStore } = await import('../dist/store/postgres/postgres-store.js');
      const store = openPostgresStore({ url });
      try {
        await loadData(store, contracts);
      } finally {
        await store.close();
      }
    },
  );
  return name;
}

/** `.bench/procurement-<contracts>.db` (or its PostgreSQL database), built when missing. Returns its path (or name). */
export async function cachedProcurementDb(contracts) {
  if (!existsSync(join(DIST, 'app.js')))
    throw new Error('dist/app.js is missing: run `npm run build` (or `npm run bench`).');
  if (BENCH_STORE === 'postgres') return cachedPostgresProcurementDb(contracts);
  const cached = join(CACHE_DIR, `procurement-${contracts}.db`);
  if (existsSync(cached)) return cached;
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  mkdirSync(CACHE_DIR, { recursive: true });
  const building = join(CACHE_DIR, `procurement-${contracts}.${process.pid}.db`);
  const started = Date.now();
  process.stdout.write(
    `Building ${cached} (migrate + demo data, seed ${SEED}, ${contracts.toLocaleString('en-US')} contracts)… `,
  );
  try {
    const store = openSqliteStore(building);
    await loadData(store, contracts);
    await store.close(); // checkpoints the WAL into the file
    renameSync(building, cached);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  }
  process.stdout.write(
    `${((Date.now() - started) / 1000).toFixed(1)} s, ${(statSync(cached).size / 2 ** 20).toFixed(0)} MiB\n`,
  );
  return cached;
}

/** A store on the copy at `location` (copyProcurementDb's), with its own connections, and nothing held in memory. */
export async function openCopy(location) {
  if (BENCH_STORE === 'postgres') {
    const { openPostgresStore } = await import('../dist/store/postgres/postgres-store.js');
    return openPostgresStore({ url: location, poolSize: 4 });
  }
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  return openSqliteStore(location);
}

/**
 * A copy of the cached database (a file in a temporary directory, or `CREATE DATABASE … TEMPLATE`), migrated to the
 * current schema, with a store open on it. `remove()` deletes the copy once the store is closed; it removes a file
 * at once (so it may be called from an exit handler), a database when its promise settles (postgres-db.js drops the
 * copies of killed runs on the next run).
 */
export async function copyProcurementDb(contracts) {
  const cached = await cachedProcurementDb(contracts);
  const { migrate } = await import('../dist/admin/migrate.js');
  let copy;
  if (BENCH_STORE === 'postgres') {
    const { name, url } = await copyForRun(cached, String(contracts));
    copy = { location: url, remove: () => dropDatabase(name) };
  } else {
    const tempDir = mkdtempSync(join(tmpdir(), `munidata-bench-procurement-${contracts}-`));
    const dbPath = join(tempDir, 'bench.db');
    copyFileSync(cached, dbPath);
    if (existsSync(`${cached}-wal`)) copyFileSync(`${cached}-wal`, `${dbPath}-wal`);
    copy = { location: dbPath, remove: async () => rmSync(tempDir, { recursive: true, force: true }) };
  }
  const store = await openCopy(copy.location);
  await migrate(store); // a newer schema than the cached one's
  return { store, ...copy };
}

/**
 * A copy of the cached database (copyProcurementDb) with `keys` accounts and keys, each on a plan of its own
 * (`bench_proc_<i>`): API access, the procurement domain, raw values, 1e9 requests per minute and 1e12 per month
 * (very large but finite: the rate limiter and the quota run on every request and never refuse one). The plans
 * differ only in `history_years` (i + 1), which no procurement operation reads but the response cache's key
 * includes: the same URL under two keys is two cache entries and the same database work (see procurement.js).
 * Returns where the copy is (a file or a URL, for server-full.js), how to remove it, and the secrets, in plan order.
 */
export async function preparedProcurementDb(contracts, keys) {
  const { savePlan } = await import('../dist/admin/plans.js');
  const { createAccount } = await import('../dist/admin/accounts.js');
  const { createKey } = await import('../dist/admin/keys.js');
  const { store, location, remove } = await copyProcurementDb(contracts);
  const now = new Date();
  try {
    const secrets = [];
    for (let i = 0; i < keys; i++) {
      const plan = `bench_proc_${i}`;
      await savePlan(
        store,
        plan,
        {
          name: `Bench procurement ${i}`,
          api_access: true,
          domains: ['procurement'],
          raw_values: true,
          requests_per_minute: 1e9,
          requests_per_month: 1e12,
          history_years: i + 1,
        },
        'create',
      );
      const account = await createAccount(store, { name: `bench ${i}`, plan }, now);
      const { secret } = await createKey(
        store,
        { accountId: account.id, label: 'bench', scopes: ['procurement:read'] },
        now,
      );
      secrets.push(secret);
    }
    return { dbPath: location, remove, secrets };
  } finally {
    await store.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n < 0)) {
    process.stderr.write('usage: node bench/procurement-db.js <contracts>…\n');
    process.exit(2);
  }
  for (const n of sizes) console.log(await cachedProcurementDb(n));
}
