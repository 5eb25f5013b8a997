/**
 * Builds the demo store once per test run (the generator takes a few seconds); each test file then works on
 * its own copy of that file, so files never share mutable state.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/admin/migrate.js';
import { loadDemo } from '../../src/ingest/demo/load-demo.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const dir = join(tmpdir(), `munidata-test-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'demo.db');
  const store = openSqliteStore(path);
  await migrate(store);
  await loadDemo(store, { seed: 42 });
  await store.close();
  provide('demoDbPath', path);
  return () => rmSync(dir, { recursive: true, force: true });
}
