/**
 * The store backend the suite runs on: SQLite files (the default) or PostgreSQL databases
 * (MUNIDATA_TEST_BACKEND=postgres, server at MUNIDATA_TEST_POSTGRES_URL or 127.0.0.1:5432). Test files never
 * name a backend: they get stores from here (and from test-app.ts), each in its own file or database.
 */

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { closePools, openPools, postgresPort } from '../../src/store/postgres/db.js';
import { openPostgresStore, PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { SqlPort } from '../../src/store/sql/port.js';
import { openSqliteDatabase, SqlitePort } from '../../src/store/sqlite/connection.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { testDir } from './temp-dir.js';

export const TEST_BACKEND: 'sqlite' | 'postgres' =
  process.env.MUNIDATA_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
export const onPostgres = TEST_BACKEND === 'postgres';

/** The server's maintenance database: databases are created and dropped from it. */
const SERVER_URL = process.env.MUNIDATA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Every database of this run starts with this prefix (the global setup's pid), so teardown finds them all. */
export function databasePrefix(runId: string | number): string {
  return `munidata_test_${runId}_`;
}

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.href;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(SERVER_URL);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates a database, empty or as a copy of `template` (which must have no open connection). */
export async function createDatabase(name: string, template?: string): Promise<void> {
  await onServer(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        return;
      } catch (error) {
        // 55006: the template is being accessed — by another CREATE DATABASE copying it at this very moment.
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Drops every database whose name starts with `prefix` (what a run leaves behind). */
export async function dropDatabases(prefix: string): Promise<void> {
  const names = await onServer(async (client) =>
    (await client.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix])).rows.map((r) =>
      String(r.datname),
    ),
  );
  for (const name of names) await dropDatabase(name);
}

/** Drops the databases of earlier runs whose process is gone (a run killed before its teardown leaves them). */
export async function dropOrphanDatabases(): Promise<void> {
  const names = await onServer(async (client) =>
    (await client.query("SELECT datname FROM pg_database WHERE starts_with(datname, 'munidata_test_')")).rows.map((r) =>
      String(r.datname),
    ),
  );
  for (const name of names) {
    const pid = Number(name.split('_')[2]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) await dropDatabase(name);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A PostgreSQL store on its own database, which closing the store drops. */
class TestPostgresStore extends PostgresStore {
  readonly #database: string;

  constructor(database: string) {
    // Few connections per store: a run holds many stores at once on one server.
    super(openPools(databaseUrl(database), undefined, 4), databaseUrl(database));
    this.#database = database;
  }

  override async close(): Promise<void> {
    await super.close();
    await dropDatabase(this.#database);
  }
}

/** A new database name of this worker. */
export function newDatabaseName(): string {
  const prefix = databasePrefix(process.env.MUNIDATA_TEST_RUN ?? process.ppid);
  return `${prefix}${process.pid}_${randomBytes(4).toString('hex')}`;
}

/**
 * A store of its own on the test backend: a fresh SQLite file, or a fresh PostgreSQL database (a copy of
 * `template` when given). `dbPath` is what the configuration names it by (the file, or the database URL).
 */
export async function openTestStore(template?: string): Promise<{ store: Store; dbPath: string }> {
  if (!onPostgres) {
    const dbPath = join(testDir('munidata-'), 'test.db');
    return { store: openSqliteStore(dbPath), dbPath };
  }
  const name = newDatabaseName();
  await createDatabase(name, template);
  return { store: new TestPostgresStore(name), dbPath: databaseUrl(name) };
}

/**
 * The same as `openTestStore`, for callers that cannot wait: the database is created by a short child process
 * (copying a template takes a fraction of a second).
 */
export function openTestStoreSync(template?: string): { store: Store; dbPath: string } {
  if (!onPostgres) {
    const dbPath = join(testDir('munidata-'), 'test.db');
    return { store: openSqliteStore(dbPath), dbPath };
  }
  const name = newDatabaseName();
  execFileSync(
    process.execPath,
    ['--input-type=module', '-e', CREATE_DATABASE_SCRIPT, SERVER_URL, name, template ?? ''],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return { store: new TestPostgresStore(name), dbPath: databaseUrl(name) };
}

const CREATE_DATABASE_SCRIPT = `
import pg from 'pg';
const [server, name, template] = process.argv.slice(1);
const client = new pg.Client(server);
await client.connect();
for (let attempt = 0; ; attempt++) {
  try {
    await client.query('CREATE DATABASE ' + name + (template ? ' TEMPLATE ' + template : ''));
    break;
  } catch (error) {
    if (error.code !== '55006' || attempt >= 50) throw error;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
await client.end();
`;

/**
 * A bare SQL port on a fresh SQLite file or PostgreSQL database of its own (no schema), through the store's own
 * connections (PostgreSQL: its pools, whose type parsers read bigint and numeric as numbers); `close` drops it.
 */
export async function openTestPort(): Promise<{ port: SqlPort; close: () => Promise<void> }> {
  if (!onPostgres) {
    const sqlite = new SqlitePort(openSqliteDatabase(join(testDir('munidata-port-'), 'port.db')));
    return { port: sqlite, close: async () => sqlite.close() };
  }
  const database = newDatabaseName();
  await createDatabase(database);
  const pools = openPools(databaseUrl(database), undefined, 3);
  return {
    port: postgresPort(pools.primary),
    close: async () => {
      await closePools(pools);
      await dropDatabase(database);
    },
  };
}

/**
 * A second store on the file or database another store opened (as a restarted process would); closing it drops nothing.
 */
export function openStoreAt(dbPath: string): Store {
  return dbPath.startsWith('postgres') ? openPostgresStore({ url: dbPath, poolSize: 4 }) : openSqliteStore(dbPath);
}

/** The configuration variables that name a store opened here (for loadConfig). */
export function storeEnv(dbPath: string): Record<string, string> {
  return dbPath.startsWith('postgres') ? { DATABASE_URL: dbPath } : { MUNIDATA_DB: dbPath };
}
