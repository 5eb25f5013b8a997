/**
 * The embedded store: one SQLite file through better-sqlite3 (WAL), behind the SQL port (./connection.ts). Every
 * behaviour written once lives in ../sql-store.ts; what is here is SQLite's own: its full-text search and bulk
 * loads (FTS5, prepared per-row writes, ./procurement/) and the latest point per group.
 */
import type Database from 'better-sqlite3';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import type { AggregateQuery, AggregateResult } from '../procurement-queries.js';
import type { EntityRecord } from '../procurement-records.js';
import type { IndicatorObservationRow, ObservationRow } from '../records.js';
import {
  DEMO_CONTRACT_FACTS,
  DEMO_CONTRACT_PLACES,
  type DemoRemovalSummary,
  demoRemovalCounts,
  demoRemovalStatements,
  demoSets,
  removeFromRollups,
} from '../shared/demo-removal.js';
import { RollupDeltas } from '../shared/rollup-deltas.js';
import { applyMigrations, migrationsFor } from '../sql/migration.js';
import { SHARED_MIGRATIONS } from '../sql/migrations.js';
import { SqlStore } from '../sql-store.js';
import type { ProcurementBatch, ProcurementBatchSummary, Store } from '../store.js';
import { openSqliteDatabase, SqlitePort } from './connection.js';
import { SQLITE_MIGRATIONS, SQLITE_TYPES } from './migrations.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { writeBatch } from './procurement/batch.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { flushRollups, refreshEntityTotals } from './procurement/rollups.js';
import type { Sql } from './procurement/sql.js';
import { SQLITE_TEXT_SEARCH } from './procurement/text-search.js';

type Row = Record<string, unknown>;

/** Every migration of the SQLite store, in order. */
export const SQLITE_SCHEMA = migrationsFor(SQLITE_MIGRATIONS, SHARED_MIGRATIONS, SQLITE_TYPES);

export function openSqliteStore(path: string): SqliteStore {
  return new SqliteStore(new SqlitePort(openSqliteDatabase(path)));
}

export class SqliteStore extends SqlStore implements Store {
  readonly #port: SqlitePort;
  readonly #db: Database.Database;

  constructor(port: SqlitePort) {
    super({ primary: port, replica: port });
    this.#port = port;
    this.#db = port.db;
  }

  /** Prepared statements are cached by their text: preparing is the costly part of a query. */
  #sql(text: string): Database.Statement {
    return this.#port.statement(text);
  }

  /** The statement cache as the SQL modules (./procurement/, ./signals/) take it. */
  readonly #prepared: Sql = (text) => this.#sql(text);

  async migrate(): Promise<void> {
    await applyMigrations(this.#port, SQLITE_SCHEMA, () => new Date().toISOString());
  }

  #bumpDataVersion(): void {
    this.#sql("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'data_version'").run();
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
      `SELECT indicator, municipality_id, max(reference_date) AS reference_date, value, value_norm, treatment FROM observations
       WHERE municipality_id = ? AND value IS NOT NULL GROUP BY indicator ORDER BY indicator`,
    ).all(municipalityId) as IndicatorObservationRow[];
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  async writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return writeBatch(this.#db, this.#prepared, batch, () => this.#bumpDataVersion());
  }

  async refreshProcurementRollups(): Promise<void> {
    this.#db.transaction(() => {
      if (refreshEntityTotals(this.#prepared)) this.#bumpDataVersion();
    })();
  }

  /** SQLite's own: the FTS5 rows of what is removed go with it, and the rollups are flushed by prepared statements. */
  async removeDemoData(): Promise<DemoRemovalSummary> {
    const demoIndicators = (await this.listIndicators()).filter((i) => isDemoIndicatorSource(i.source)).map((i) => i.key);
    const sets = demoSets(demoIndicators);
    return this.#db.transaction((): DemoRemovalSummary => {
      const counts = this.#db.prepare(demoRemovalCounts(demoIndicators)).get() as Row;
      const deltas = new RollupDeltas();
      removeFromRollups(
        deltas,
        this.#db.prepare(DEMO_CONTRACT_FACTS).all() as Row[],
        this.#db.prepare(DEMO_CONTRACT_PLACES).all() as Row[],
      );
      const { before, entities } = demoRemovalStatements(demoIndicators, {
        contracts: [`DELETE FROM contracts_fts WHERE rowid IN (${sets.contracts})`],
        announcements: [`DELETE FROM announcements_fts WHERE rowid IN (${sets.announcements})`],
        entities: [`DELETE FROM entities_fts WHERE rowid IN (SELECT id FROM entities WHERE ${sets.orphanEntities})`],
      });
      for (const statement of before) this.#db.prepare(statement).run();
      flushRollups(this.#prepared, deltas);
      const orphans = Number((this.#db.prepare(`SELECT count(*) AS n FROM entities WHERE ${sets.orphanEntities}`).get() as Row).n);
      for (const statement of entities) this.#db.prepare(statement).run();
      refreshEntityTotals(this.#prepared);
      this.#bumpDataVersion();
      return {
        contracts: Number(counts.contracts),
        announcements: Number(counts.announcements),
        amendments: Number(counts.amendments),
        entities: orphans,
        observations: Number(counts.observations),
        indicators: demoIndicators,
        signals: Number(counts.signals),
        cases: Number(counts.cases),
        alert_matches: Number(counts.alert_matches),
      };
    })();
  }

  async aggregateContracts(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateContracts(this.#prepared, query);
  }

  /** `q` through FTS5 (./procurement/text-search.ts), for the lists written once (../procurement/). */
  protected readonly textSearch = SQLITE_TEXT_SEARCH;

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.ports.replica, text, limit);
  }

  // ── journal, signals, cases, alerts (SQL in ./signals/) ──────────────────
}
