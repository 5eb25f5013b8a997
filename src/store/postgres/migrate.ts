/**
 * Applies the pending migrations (../sql/migration.ts) under a session advisory lock: instances that start
 * together wait for the first one and then find nothing left to do.
 */
import type pg from 'pg';
import { type AppliedMigration, applyMigrations, migrationsFor } from '../sql/migration.js';
import { SHARED_MIGRATIONS } from '../sql/migrations.js';
import { checkOut, postgresPort } from './db.js';
import { POSTGRES_MIGRATIONS, POSTGRES_TYPES } from './migrations.js';

/** The advisory lock key: any constant unique to this application ('munidata' as bytes). */
const MIGRATION_LOCK = 0x6d756e6964617461n;

/** Every migration of the PostgreSQL store, in order. */
export const POSTGRES_SCHEMA = migrationsFor(POSTGRES_MIGRATIONS, SHARED_MIGRATIONS, POSTGRES_TYPES);

export async function migratePostgres(pool: pg.Pool): Promise<AppliedMigration[]> {
  const { client, release } = await checkOut(pool);
  let failure: unknown;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      return await applyMigrations(postgresPort(client), POSTGRES_SCHEMA, () => new Date().toISOString());
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
