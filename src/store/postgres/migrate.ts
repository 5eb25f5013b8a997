/**
 * Applies the pending migrations, each in its own transaction, under a session advisory lock: instances that
 * start together wait for the first one and then find nothing left to do.
 */
import type pg from 'pg';
import { consoleMigrations } from '../console/console-migration.js';
import { oauthMigration } from '../oauth/oauth-migration.js';
import { checkOut, type Row, sqlOn } from './db.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';

/** The advisory lock key: any constant unique to this application ('munidata' as bytes). */
const MIGRATION_LOCK = 0x6d756e6964617461n;

export async function applyMigrations(pool: pg.Pool): Promise<void> {
  const { client, release } = await checkOut(pool);
  const sql = sqlOn(client);
  let failure: unknown;
  try {
    await sql('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await sql('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
      const applied = new Set((await sql('SELECT version FROM schema_migrations')).map((r: Row) => Number(r.version)));
      for (const migration of [...POSTGRES_MIGRATIONS, ...consoleMigrations('postgres'), oauthMigration('postgres')]) {
        if (applied.has(migration.version)) continue;
        await sql('BEGIN');
        try {
          await sql(migration.sql);
          await sql('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
            migration.version,
            migration.name,
            new Date().toISOString(),
          ]);
          await sql('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }
      await sql("INSERT INTO meta (key, value) VALUES ('data_version', '1') ON CONFLICT (key) DO NOTHING");
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]).catch(() => {});
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    release(failure);
  }
}
