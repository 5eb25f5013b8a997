/**
 * Migrations: numbered, applied in order, each in its own transaction, recorded in `schema_migrations`. Every
 * table is written once, its column types and the few forms the databases write differently named through
 * `DdlTypes`, so that a table is one text for both stores (test/__schema__/ holds what each database makes of it).
 * Versions 1–99 were released per dialect, each with its own numbering (../sqlite/migrations.ts,
 * ../postgres/migrations.ts list them over the texts of ../schema/); from 100 on a migration has one version on
 * both (./migrations.ts).
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
 * Column types by what they hold, and the few table and index forms the databases write differently. Text that
 * lists are ordered or ranged by is `key` (byte order in both, as SQLite compares: COLLATE "C" in PostgreSQL);
 * instants and dates are text (RFC 3339, compared as text).
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
  /** A primary key the database assigns in increasing order and never reuses (the change journal's `seq`). */
  readonly sequence: string;
  /** A flag's values as a default is written. */
  readonly false: string;
  readonly true: string;
  /**
   * The condition that a flag column is true: the dialect's own (`Dialect.isTrue`), as the queries that use a partial
   * index state it.
   */
  isTrue(column: string): string;
  /** Written after a table's closing parenthesis: the rows stored in primary-key order (SQLite's WITHOUT ROWID). */
  readonly clustered: string;
  /** An index's columns: `keys` ordered, `carried` only read from it (PostgreSQL's INCLUDE; more keys in SQLite). */
  covering(keys: string, carried: string): string;
  /**
   * Makes an existing table's primary key carry the `carried` columns too, so that reading them by a range of the key
   * is index-only: PostgreSQL's INCLUDE (the heap holds rows in no order, so a range of one key's rows visits pages
   * spread over the whole table); nothing in SQLite, whose clustered table is its primary key's b-tree already.
   */
  carryInPrimaryKey(table: string, keys: string, carried: string): string;
  /** The text search's tables and indexes (each dialect's ./procurement/text-search.ts). */
  readonly search: TextSearchDdl;
}

/** What `q` and the name lookups read: FTS5 tables in SQLite, pg_trgm indexes in PostgreSQL. */
export interface TextSearchDdl {
  /** Before the first of them (PostgreSQL's extension). */
  readonly setup: string;
  /** The key columns of a searched table whose key is `column` (FTS5 finds rows by an integer rowid). */
  naturalKey(column: string, type: string): string;
  /** What finds `table`'s rows by the words of their `search_text`. */
  index(table: string): string;
  /** What the typo-tolerant entity lookups read (the trigrams of `entities.name_key`). */
  readonly entityNames: string;
}

/** The dialect's migrations then the shared ones, with their SQL for `types`, by version. */
export function migrationsFor(
  dialect: readonly Migration[],
  shared: readonly SharedMigration[],
  types: DdlTypes,
): Migration[] {
  const all = [...dialect, ...shared.map((m) => ({ version: m.version, name: m.name, sql: m.sql(types) }))];
  const versions = new Set(all.map((m) => m.version));
  if (versions.size !== all.length) throw new Error('two migrations have the same version');
  return all.sort((a, b) => a.version - b.version);
}

/** A migration this run applied. */
export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

/**
 * Applies the migrations not yet recorded, each with its record in one transaction, and seeds the data version;
 * returns those it applied, in order. Idempotent; concurrent instances must be kept apart by the caller
 * (PostgreSQL: a session lock).
 */
export async function applyMigrations(
  port: SqlPort,
  migrations: readonly Migration[],
  now: () => string,
): Promise<AppliedMigration[]> {
  await port.script(
    'CREATE TABLE IF NOT EXISTS schema_migrations ' +
      '(version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
  );
  const applied = new Set((await port.query('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
  const appliedNow: AppliedMigration[] = [];
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
    appliedNow.push({ version: migration.version, name: migration.name });
  }
  await port.run("INSERT INTO meta (key, value) VALUES ('data_version', '1') ON CONFLICT (key) DO NOTHING");
  return appliedNow;
}
