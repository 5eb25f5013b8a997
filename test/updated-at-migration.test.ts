/**
 * Migration 112 on a store that already holds records (src/store/changes/updated-at-migration.ts): each contract,
 * signal and case gets `updated_at` from the instant it was last written, in the stamps' millisecond form, and the
 * stamp clock starts at the newest of them, so that the first write after the upgrade is listed after every record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStamp } from '../src/store/changes/change-stamp.js';
import { POSTGRES_SCHEMA } from '../src/store/postgres/migrate.js';
import { applyMigrations } from '../src/store/sql/migration.js';
import type { SqlPort } from '../src/store/sql/port.js';
import { SQLITE_SCHEMA } from '../src/store/sqlite/sqlite-store.js';
import { onPostgres, openTestPort } from './helpers/backend.js';

const SCHEMA = onPostgres ? POSTGRES_SCHEMA : SQLITE_SCHEMA;
const VERSION = 112;
const at = () => '2026-11-29T00:00:00.000Z';

let port: SqlPort;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ port, close } = await openTestPort());
  await applyMigrations(
    port,
    SCHEMA.filter((m) => m.version < VERSION),
    at,
  );
});
afterAll(async () => close?.());

async function insertContract(sourceId: string, importedAt: string): Promise<void> {
  await port.run(
    `INSERT INTO contracts (source, source_id, fingerprint, object, contract_types, published_on, search_text,
       imported_at)
     VALUES ('fixture', $1, 'f', 'Obras', $2, '2025-01-01', 'obras', $3)`,
    [sourceId, onPostgres ? ['Empreitadas'] : '["Empreitadas"]', importedAt],
  );
}

async function insertSignal(key: string, lastSeenAt: string): Promise<void> {
  await port.run(
    `INSERT INTO signals (key, origin, fingerprint, type, family, status, confidence, evidence, subject,
       first_seen_at, last_seen_at)
     VALUES ($1, 'detector', 'f', 'tender_open', 'procurement', 'active', 0.5, '[]', '{}', $2, $2)`,
    [key, lastSeenAt],
  );
}

async function updatedAt(table: string): Promise<string[]> {
  return (await port.query(`SELECT updated_at FROM ${table} ORDER BY id`)).map((r) => String(r.updated_at));
}

describe('migration 112 (updated_at) on a store with records', () => {
  it('stamps each record with when it was last written, and starts the clock at the newest', async () => {
    await insertContract('C-1', '2025-07-01T10:00:00Z');
    await insertContract('C-2', '2026-01-02T03:04:05Z');
    await insertSignal('S-1', '2026-03-02T08:00:00Z');
    await port.run(
      "INSERT INTO cases (key, type, family, last_seen_at) VALUES ('K-1', 'tender_open', 'procurement', $1)",
      ['2026-04-01T00:00:00Z'],
    );
    await port.run("INSERT INTO cases (key, type, family) VALUES ('K-2', 'tender_open', 'procurement')");

    const applied = await applyMigrations(port, SCHEMA, at);
    expect(applied.map((m) => m.version)).toContain(VERSION);

    expect(await updatedAt('contracts')).toEqual(['2025-07-01T10:00:00.000Z', '2026-01-02T03:04:05.000Z']);
    expect(await updatedAt('signals')).toEqual(['2026-03-02T08:00:00.000Z']);
    // A case never given a last_seen_at ('') takes the epoch: before anything a syncing client asks after.
    expect(await updatedAt('cases')).toEqual(['2026-04-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']);
    // A write stamped with a clock behind the newest record still comes after it.
    const first = await port.transaction((tx) => changeStamp(tx, Date.parse('2026-01-01T00:00:00Z')));
    expect(first).toBe('2026-04-01T00:00:00.001Z');
    const second = await port.transaction((tx) => changeStamp(tx, Date.parse('2026-01-01T00:00:00Z')));
    expect(second).toBe('2026-04-01T00:00:00.002Z');
    const now = await port.transaction((tx) => changeStamp(tx, Date.parse('2026-11-29T10:00:00.5Z')));
    expect(now).toBe('2026-11-29T10:00:00.500Z');
  });
});
