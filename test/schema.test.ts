/**
 * The schema a new database gets, committed per dialect under test/__schema__/ (read back from the database's own
 * catalogue by helpers/schema-dump.ts), so that a reviewer sees every change of it in the diff and the migrations
 * written once (src/store/sql/) are shown to make, on each database, the tables its own migrations made.
 *
 * Regenerate after an intended change: `npm run snapshots` (UPDATE_SNAPSHOTS=1, on both backends), then read the diff.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SCHEMA } from '../src/store/postgres/migrate.js';
import { applyMigrations } from '../src/store/sql/migration.js';
import type { SqlPort } from '../src/store/sql/port.js';
import { SQLITE_SCHEMA } from '../src/store/sqlite/sqlite-store.js';
import { onPostgres, openTestPort, TEST_BACKEND } from './helpers/backend.js';
import { dumpSchema } from './helpers/schema-dump.js';

const DIR = join(import.meta.dirname, '__schema__');
const FILE = join(DIR, `${TEST_BACKEND}.txt`);
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';

let port: SqlPort;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ port, close } = await openTestPort());
  await applyMigrations(port, onPostgres ? POSTGRES_SCHEMA : SQLITE_SCHEMA, () => '2026-11-25T00:00:00.000Z');
});
afterAll(async () => close?.());

describe(`the schema of a new ${TEST_BACKEND} database`, () => {
  it(`is the committed one (test/__schema__/${TEST_BACKEND}.txt)`, async () => {
    const schema = await dumpSchema(port);
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(FILE, schema);
    }
    expect(existsSync(FILE), `${FILE} is missing: run \`npm run snapshots\``).toBe(true);
    expect(schema).toBe(readFileSync(FILE, 'utf8'));
  });

  it('records every migration, and a second run applies none', async () => {
    const schema = onPostgres ? POSTGRES_SCHEMA : SQLITE_SCHEMA;
    const recorded = async () =>
      (await port.query('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version));
    expect(await recorded()).toEqual(schema.map((m) => m.version));
    await applyMigrations(port, schema, () => '2026-11-26T00:00:00.000Z');
    expect(await recorded()).toEqual(schema.map((m) => m.version));
    expect(await dumpSchema(port)).toBe(readFileSync(FILE, 'utf8'));
  });
});
