/**
 * The embedded store: one SQLite file through better-sqlite3 (WAL), behind the SQL port (./connection.ts). Every
 * behaviour written once lives in ../sql-store.ts; what is here is SQLite's own: its full-text search and bulk
 * loads (FTS5, prepared per-row writes, ./procurement/) and the latest point per group.
 */
import type Database from 'better-sqlite3';
import { ACCESS_VERSION_SQL } from '../meta.js';
import type { BulkLoad } from '../procurement/bulk-load.js';
import type { EntityRecord } from '../procurement-records.js';
import type { IndicatorObservationRow, ObservationRow } from '../records.js';
import { type AppliedMigration, applyMigrations, migrationsFor } from '../sql/migration.js';
import { SHARED_MIGRATIONS } from '../sql/migrations.js';
import type { SqlPort } from '../sql/port.js';
import { SqlStore } from '../sql-store.js';
import type { Store } from '../store.js';
import { openSqliteDatabase, SqlitePort } from './connection.js';
import { SQLITE_MIGRATIONS, SQLITE_TYPES } from './migrations.js';
import { SqliteBulkLoad } from './procurement/batch.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { SQLITE_TEXT_SEARCH } from './procurement/text-search.js';
import { SharedRead } from './shared-read.js';

/** Every migration of the SQLite store, in order. */
export const SQLITE_SCHEMA = migrationsFor(SQLITE_MIGRATIONS, SHARED_MIGRATIONS, SQLITE_TYPES);

export function openSqliteStore(path: string): SqliteStore {
  return new SqliteStore(new SqlitePort(openSqliteDatabase(path)));
}

export class SqliteStore extends SqlStore implements Store {
  readonly #port: SqlitePort;

  constructor(port: SqlitePort) {
    super({ primary: port, replica: port });
    this.#port = port;
  }

  /** Prepared statements are cached by their text: preparing is the costly part of a query. */
  #sql(text: string): Database.Statement {
    return this.#port.statement(text);
  }

  /**
   * Asked on every request (docs/architecture.md, Revocation): the requests of one turn of the event loop share one
   * read of the row (./shared-read.ts), which starts after each of them asked. The read is one prepared statement run
   * at once when no transaction holds the connection (otherwise it waits for the transaction, as every statement
   * does); most of its cost is the read transaction SQLite opens on the file for it, two file-lock system calls.
   */
  override accessVersion(): Promise<number> {
    return this.#accessVersion.get();
  }

  readonly #accessVersion = new SharedRead(() => {
    if (this.#port.busy) return super.accessVersion();
    this.#accessVersionRead ??= this.#port.db.prepare(ACCESS_VERSION_SQL).pluck();
    return Number(this.#accessVersionRead.get() ?? 0);
  });

  #accessVersionRead: Database.Statement | undefined;

  migrate(): Promise<AppliedMigration[]> {
    return applyMigrations(this.#port, SQLITE_SCHEMA, () => new Date().toISOString());
  }

  async close(): Promise<void> {
    this.#port.close();
  }

  // ── observations: the latest point per group (SQLite returns the other columns of the row holding max()) ──

  async latestPerMunicipality(indicator: string, asOf = '9999-12-31'): Promise<ObservationRow[]> {
    // SQLite returns the other columns of the row holding max(): the latest non-null point per municipality.
    return this.#sql(
      `SELECT municipality_id, max(reference_date) AS reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = ? AND value IS NOT NULL AND reference_date <= ? GROUP BY municipality_id`,
    ).all(indicator, asOf) as ObservationRow[];
  }

  async latestForMunicipality(municipalityId: number): Promise<IndicatorObservationRow[]> {
    return this.#sql(
      `SELECT indicator, municipality_id, max(reference_date) AS reference_date, value, value_norm, treatment
       FROM observations WHERE municipality_id = ? AND value IS NOT NULL GROUP BY indicator ORDER BY indicator`,
    ).all(municipalityId) as IndicatorObservationRow[];
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  protected override bulkTransaction<T>(work: (tx: SqlPort, load: BulkLoad) => Promise<T>): Promise<T> {
    return this.#port.transaction((tx) => work(tx, new SqliteBulkLoad(this.#port, tx)));
  }

  /** `q` through FTS5 (./procurement/text-search.ts), for the lists written once (../procurement/). */
  protected readonly textSearch = SQLITE_TEXT_SEARCH;

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.ports.replica, text, limit);
  }
}
