/**
 * The benches' PostgreSQL databases (scale-out.js, and procurement.js and detect.js with BENCH_STORE=postgres): a
 * cached database per data set, built once under a temporary name, vacuumed and analyzed, and renamed when complete
 * (so that an interrupted build is never taken for the cache), and each run's copy of it (`CREATE DATABASE …
 * TEMPLATE`), dropped at the end.
 *
 * Environment: BENCH_POSTGRES_URL, the server's maintenance database (default
 * postgres://postgres@127.0.0.1:5432/postgres).
 */
import pg from 'pg';

export const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The prefix of every run's copy: `<prefix><pid>`, so that the copies of killed runs can be found. */
const RUN_PREFIX = 'munidata_bench_run_';

export function databaseUrl(name) {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.href;
}

export async function onServer(work) {
  const client = new pg.Client(SERVER_URL);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The database `name`, built by `build(url)` when missing; `describe` says what is being built. Returns whether it
 * was built now.
 */
export async function cachedPostgresDb(name, describe, build) {
  const exists = await onServer(
    async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0,
  );
  if (exists) return false;
  const building = `${name}_building_${process.pid}`;
  const started = Date.now();
  process.stdout.write(`Building the PostgreSQL database ${name} (${describe})… `);
  await onServer((client) => client.query(`CREATE DATABASE ${building}`));
  try {
    await build(databaseUrl(building));
    await vacuumAnalyze(databaseUrl(building));
    await onServer((client) => client.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
  } finally {
    await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`));
  }
  process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

/**
 * The planner's statistics and the visibility map, as autovacuum leaves a database some time after a load: without
 * them the first minutes after a bulk load plan blind, which is not what a deployment serves from. A copy made
 * from the template keeps both.
 */
async function vacuumAnalyze(url) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}

/** A copy of `template` for this run (`tag` tells the copies of one run apart); returns its name and URL. */
export async function copyForRun(template, tag = '') {
  await dropAbandonedRuns();
  const name = `${RUN_PREFIX}${process.pid}${tag ? `_${tag}` : ''}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return { name, url: databaseUrl(name) };
}

export async function dropDatabase(name) {
  await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Copies left by runs that were killed (their process is gone). */
async function dropAbandonedRuns() {
  const names = await onServer(async (client) =>
    (await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [RUN_PREFIX])).rows.map(
      (r) => r.datname,
    ),
  );
  for (const name of names) {
    const pid = Number.parseInt(name.slice(RUN_PREFIX.length), 10);
    if (!isAlive(pid)) await dropDatabase(name);
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
