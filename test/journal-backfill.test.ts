/**
 * A store upgraded from before the change journal (migration 4) gets an entry for every record it holds
 * (migration 7), so that detection finds them. Shown by taking the detected demo store back to "no journal, no
 * signals" and replaying the backfill: detection then makes exactly the signals the demo has.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runDetection } from '../src/detect/run-detection.js';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { onPostgres } from './helpers/backend.js';
import { copyDemoStore } from './helpers/test-app.js';

const BACKFILL = SQLITE_MIGRATIONS.find((m) => m.name === 'journal-backfill')?.sql as string;

async function signalsOf(store: Store) {
  const rows = await store.listSignals({}, { limit: 10_000_000 });
  return rows.map((s) => `${s.key} ${s.status} ${s.stage}`).sort();
}

describe.skipIf(onPostgres)('journal backfill (migration 7)', () => {
  it('gives every stored record a journal entry when the journal is empty, and detection finds them all', async () => {
    const { store, dbPath } = copyDemoStore();
    const before = await signalsOf(store);
    await store.close();
    expect(before.length).toBeGreaterThan(1000);

    // As a store upgraded from version 3 was right after migration 4: records, but no journal and no signals.
    const db = new Database(dbPath);
    db.exec(`DELETE FROM alert_matches; DELETE FROM case_events; DELETE FROM case_links; DELETE FROM cases;
             DELETE FROM signals; DELETE FROM changes; DELETE FROM watermarks;`);
    db.exec(BACKFILL);
    const kinds = db.prepare('SELECT kind, count(*) AS n FROM changes GROUP BY kind').all() as {
      kind: string;
      n: number;
    }[];
    const records = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(Object.fromEntries(kinds.map((k) => [k.kind, k.n]))).toEqual({
      announcement: records('announcements'),
      contract: records('contracts'),
      amendment: records('amendments'),
      observation: (
        db
          .prepare('SELECT count(*) AS n FROM (SELECT DISTINCT indicator, municipality_id FROM observations)')
          .get() as { n: number }
      ).n,
    });
    // A journal that is not empty is left alone.
    db.exec(BACKFILL);
    expect(records('changes')).toBe(kinds.reduce((n, k) => n + k.n, 0));
    db.close();

    const upgraded = openSqliteStore(dbPath);
    await runDetection(upgraded, { now: new Date() });
    expect(await signalsOf(upgraded)).toEqual(before);
    await upgraded.close();
  }, 300_000);
});
