/**
 * The scale-out store: PostgreSQL through `pg` pools, a primary for writes and (optionally) a replica for reads,
 * behind the SQL port (./db.ts). Every behaviour written once lives in ../sql-store.ts; what is here is
 * PostgreSQL's own: its full-text search and bulk loads (pg_trgm, COPY, ./procurement/) and DISTINCT ON reads.
 */
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
import type { SqlPort } from '../sql/port.js';
import { SqlStore } from '../sql-store.js';
import type { ProcurementBatch, ProcurementBatchSummary, Store } from '../store.js';
import { AccessVersionWatch, notifyAccessVersion } from './access-version.js';
import { bumpDataVersion } from './data-version.js';
import { closePools, inTransaction, openPools, type Pools, postgresPort, type Sql, sqlOn } from './db.js';
import { migratePostgres } from './migrate.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { writeBatch } from './procurement/batch.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { flushRollups, refreshEntityTotals } from './procurement/rollups.js';
import { POSTGRES_TEXT_SEARCH } from './procurement/text-search.js';

export interface PostgresStoreOptions {
  /** The primary (`postgres://…`): writes, migrations, and reads that must see their own writes. */
  url: string;
  /** A read replica for every other read; the primary when absent. */
  readUrl?: string;
  /** Connections per pool at most (10 by default). */
  poolSize?: number;
}

export function openPostgresStore(options: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(openPools(options.url, options.readUrl, options.poolSize), options.url);
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

  #transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.#pools.primary, (sql) => work(sql));
  }

  async migrate(): Promise<void> {
    await migratePostgres(this.#pools.primary);
  }

  async close(): Promise<void> {
    await this.#accessWatch.close();
    await closePools(this.#pools);
  }

  // ── the access version: held from LISTEN, announced by NOTIFY (./access-version.ts) ──

  override accessVersion(): Promise<number> {
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
      `SELECT DISTINCT ON (municipality_id) municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = $1 AND value IS NOT NULL AND reference_date <= $2 ORDER BY municipality_id, reference_date DESC`,
      [indicator, asOf],
    )) as unknown as ObservationRow[];
  }

  async latestForMunicipality(municipalityId: number): Promise<IndicatorObservationRow[]> {
    return (await this.#read(
      `SELECT DISTINCT ON (indicator) indicator, municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE municipality_id = $1 AND value IS NOT NULL ORDER BY indicator, reference_date DESC`,
      [municipalityId],
    )) as unknown as IndicatorObservationRow[];
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  async writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return inTransaction(this.#pools.primary, (sql, client) => writeBatch(sql, client, batch));
  }

  async refreshProcurementRollups(): Promise<void> {
    await this.#transaction(async (sql) => {
      if (await refreshEntityTotals(sql)) await bumpDataVersion(sql);
    });
  }

  async removeDemoData(): Promise<DemoRemovalSummary> {
    const demoIndicators = (await this.listIndicators()).filter((i) => isDemoIndicatorSource(i.source)).map((i) => i.key);
    const sets = demoSets(demoIndicators);
    return this.#transaction(async (sql): Promise<DemoRemovalSummary> => {
      const [counts] = await sql(demoRemovalCounts(demoIndicators));
      const deltas = new RollupDeltas();
      removeFromRollups(deltas, await sql(DEMO_CONTRACT_FACTS), await sql(DEMO_CONTRACT_PLACES));
      const { before, entities } = demoRemovalStatements(demoIndicators);
      for (const statement of before) await sql(statement);
      await flushRollups(sql, deltas);
      const [orphans] = await sql(`SELECT count(*) AS n FROM entities WHERE ${sets.orphanEntities}`);
      for (const statement of entities) await sql(statement);
      await refreshEntityTotals(sql);
      await bumpDataVersion(sql);
      return {
        contracts: Number(counts.contracts),
        announcements: Number(counts.announcements),
        amendments: Number(counts.amendments),
        entities: Number(orphans.n),
        observations: Number(counts.observations),
        indicators: demoIndicators,
        signals: Number(counts.signals),
        cases: Number(counts.cases),
        alert_matches: Number(counts.alert_matches),
      };
    });
  }

  async aggregateContracts(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateContracts(this.#read, query);
  }

  /** `q` through pg_trgm (./procurement/text-search.ts), for the lists written once (../procurement/). */
  protected readonly textSearch = POSTGRES_TEXT_SEARCH;

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.ports.replica, text, limit);
  }

  // ── journal, signals, cases, alerts (SQL in ./signals/) ──────────────────
  // Consumers (detectors, the alert matcher) read the journal, signals and cases they are about to process from
  // the primary: a replica may lag behind the watermark they keep there.
}
