/**
 * Builds the demo store once per test run (the generator takes a few seconds); each test file then works on
 * its own copy, so files never share mutable state: a copy of the SQLite file, or on PostgreSQL a database
 * created from a template database holding the demo (see backend.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../../src/admin/migrate.js';
import { loadDemo } from '../../src/demo/load-demo.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import {
  createDatabase,
  databasePrefix,
  databaseUrl,
  dropDatabases,
  dropOrphanDatabases,
  onPostgres,
} from './backend.js';
import { removeOrphanRunDirs, runDir } from './temp-dir.js';

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  // Workers inherit it: the databases they create carry the run's prefix, which teardown drops.
  process.env.MUNIDATA_TEST_RUN = String(process.pid);
  const build = async (store: Store) => {
    await migrate(store);
    await loadDemo(store, { seed: 42 });
    await store.close();
  };
  // Every file of the run (store copies, CLI inputs) is made inside this folder (temp-dir.ts); teardown removes it.
  removeOrphanRunDirs();
  const dir = runDir(String(process.pid));
  mkdirSync(dir, { recursive: true });
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  if (onPostgres) {
    const prefix = databasePrefix(process.pid);
    const template = `${prefix}template`;
    await dropOrphanDatabases();
    await dropDatabases(prefix);
    await createDatabase(template);
    await build(openPostgresStore({ url: databaseUrl(template) }));
    provide('demoDbPath', template);
    return async () => {
      await dropDatabases(prefix);
      removeDir();
    };
  }
  const path = join(dir, 'demo.db');
  await build(openSqliteStore(path));
  provide('demoDbPath', path);
  return removeDir;
}
