/**
 * Migrations: numbered, applied in order, each in its own transaction, recorded in `schema_migrations`. Versions
 * 1–99 are the schemas each dialect wrote before the store was written once (../sqlite/migrations.ts,
 * ../postgres/migrations.ts; never edited); from 100 on a migration is written once (./migrations.ts), its DDL
 * types named through `DdlTypes`, so that a new table is one text for both stores.
 */
import type { SqlPort } from './port.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** A migration written once: its SQL from the dialect's column types. */
export interface SharedMigration {
  readonly version: number;
  readonly name: string;
  sql(types: DdlTypes): string;
}

/** The first version of the migrations written once; the dialect ones stay below it. */
export const FIRST_SHARED_VERSION = 100;

/**
 * Column types by what they hold. Text that lists are ordered or ranged by is `key` (byte order in both, as
 * SQLite compares: COLLATE "C" in PostgreSQL); instants and dates are text (RFC 3339, compared as text).
 */
export interface DdlTypes {
  /** An integer primary key the database assigns (`INSERT … RETURNING id`). */
  readonly id: string;
  /** A column that refers to an `id`. */
  readonly ref: string;
  readonly integer: string;
  /** Counts and sums that may pass 2^31. */
  readonly bigint: string;
  readonly real: string;
  readonly text: string;
  /** Text that is compared, ordered or ranged (byte order). */
  readonly key: string;
  /** true/false (bound as booleans; read with `dialect.columns.flag`). */
  readonly flag: string;
  /** A list of strings (bound as an array; read with `dialect.columns.list`). */
  readonly list: string;
}

/** The dialect's migrations then the shared ones, with their SQL for `types`, by version. */
export function migrationsFor(dialect: readonly Migration[], shared: readonly SharedMigration[], types: DdlTypes): Migration[] {
  const all = [...dialect, ...shared.map((m) => ({ version: m.version, name: m.name, sql: m.sql(types) }))];
  const versions = new Set(all.map((m) => m.version));
  if (versions.size !== all.length) throw new Error('two migrations have the same version');
  return all.sort((a, b) => a.version - b.version);
}

/**
 * Applies the migrations not yet recorded, each with its record in one transaction, and seeds the data version.
 * Idempotent; concurrent instances must be kept apart by the caller (PostgreSQL: a session lock).
 */
export async function applyMigrations(port: SqlPort, migrations: readonly Migration[], now: () => string): Promise<void> {
  await port.script(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
  );
  const applied = new Set((await port.query('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await port.transaction(async (tx) => {
      await tx.script(migration.sql);
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        now(),
      ]);
    });
  }
  await port.run("INSERT INTO meta (key, value) VALUES ('data_version', '1') ON CONFLICT (key) DO NOTHING");
}
