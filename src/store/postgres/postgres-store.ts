/**
 * The scale-out store: PostgreSQL through `pg` pools, a primary for writes and (optionally) a replica for reads,
 * behind the SQL port (./db.ts). Every behaviour written once lives in ../sql-store.ts; what is here is
 * PostgreSQL's own: its full-text search and bulk loads (pg_trgm, COPY, ./procurement/), DISTINCT ON reads and
 * the access version heard through LISTEN.
 */
import type { BulkLoad } from '../procurement/bulk-load.js';
import type { EntityRecord } from '../procurement-records.js';
import type { IndicatorObservationRow, ObservationRow } from '../records.js';
import type { AppliedMigration } from '../sql/migration.js';
import type { SqlPort } from '../sql/port.js';
import { SqlStore } from '../sql-store.js';
import type { Store } from '../store.js';
import { AccessVersionWatch, notifyAccessVersion } from './access-version.js';
import {
  closePools,
  insideTransaction,
  inTransaction,
  openPools,
  type Pools,
  postgresPort,
  type Sql,
  sqlOn,
} from './db.js';
import { migratePostgres } from './migrate.js';
import { PostgresBulkLoad } from './procurement/batch.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { POSTGRES_TEXT_SEARCH } from './procurement/text-search.js';

export interface PostgresStoreOptions {
  /** The primary (`postgres://…`): writes, migrations, and reads that must see their own writes. */
  url: string;
  /** A read replica for every other read; the primary when absent. */
  readUrl?: string;
  /** Connections per pool at most (10 by default). */
  poolSize?: number;
  /** How long to wait for a connection and for each statement (./db.ts, openPools); unbounded when absent. */
  timeoutMs?: number;
}

export function openPostgresStore(options: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(openPools(options.url, options.readUrl, options.poolSize, options.timeoutMs), options.url);
}

export class PostgresStore extends SqlStore implements Store {
  readonly #pools: Pools;
  /** Statements on the primary, outside any transaction. */
  readonly #primary: Sql;
  /** Statements on the replica (the primary when there is none). */
  readonly #read: Sql;
  /** The access version, heard through LISTEN (./access-version.ts). */
  readonly #accessWatch: AccessVersionWatch;

  constructor(pools: Pools, url: string) {
    const primary = postgresPort(pools.primary);
    super({ primary, replica: pools.replica === pools.primary ? primary : postgresPort(pools.replica) });
    this.#pools = pools;
    this.#primary = sqlOn(pools.primary);
    this.#read = sqlOn(pools.replica);
    this.#accessWatch = new AccessVersionWatch(url, this.ports.primary);
  }

  migrate(): Promise<AppliedMigration[]> {
    return migratePostgres(this.#pools.primary);
  }

  async close(): Promise<void> {
    await this.#accessWatch.close();
    await closePools(this.#pools);
  }

  // ── the access version: held from LISTEN, announced by NOTIFY (./access-version.ts) ──

  override accessVersion(): number | Promise<number> {
    return this.#accessWatch.current();
  }

  protected override announceAccessVersion(tx: SqlPort, version: number): Promise<void> {
    return notifyAccessVersion(tx, version);
  }

  protected override accessVersionCommitted(version: number): void {
    this.#accessWatch.advance(version);
  }

  // ── observations: the latest point per group ──────────────────────────────

  async latestPerMunicipality(indicator: string, asOf = '9999-12-31'): Promise<ObservationRow[]> {
    return (await this.#read(
      `SELECT DISTINCT ON (municipality_id) municipality_id, reference_date, value, value_norm, treatment
       FROM observations WHERE indicator = $1 AND value IS NOT NULL AND reference_date <= $2
       ORDER BY municipality_id, reference_date DESC`,
      [indicator, asOf],
    )) as unknown as ObservationRow[];
  }

  async latestForMunicipality(municipalityId: number): Promise<IndicatorObservationRow[]> {
    return (await this.#read(
      `SELECT DISTINCT ON (indicator) indicator, municipality_id, reference_date, value, value_norm, treatment
       FROM observations WHERE municipality_id = $1 AND value IS NOT NULL ORDER BY indicator, reference_date DESC`,
      [municipalityId],
    )) as unknown as IndicatorObservationRow[];
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  protected override bulkTransaction<T>(work: (tx: SqlPort, load: BulkLoad) => Promise<T>): Promise<T> {
    return inTransaction(this.#pools.primary, (_sql, client) =>
      work(insideTransaction(client), new PostgresBulkLoad(client)),
    );
  }

  /** `q` through pg_trgm (./procurement/text-search.ts), for the lists written once (../procurement/). */
  protected readonly textSearch = POSTGRES_TEXT_SEARCH;

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.ports.replica, text, limit);
  }
}
