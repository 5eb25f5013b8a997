import { loadAmendments } from '../procurement/amendment-rows.js';
import type { BulkLoad } from '../procurement/bulk-load.js';
import { loadContracts } from '../procurement/contract-rows.js';
import type {
  AmendmentFilter,
  AnnouncementFilter,
  ContractFilter,
  CounterpartRecord,
  DatePosition,
  EntityFilter,
  EntityYearRecord,
  KeysetPage,
} from '../procurement-queries.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord, EntityRecord } from '../procurement-records.js';
import type { IndicatorObservationRow, ObservationRow } from '../records.js';
import type { SqlPort } from '../sql/port.js';
import { SqlStore } from '../sql-store.js';
import type { Store } from '../store.js';
import { AccessVersionWatch, notifyAccessVersion } from './access-version.js';
import { closePools, insideTransaction, inTransaction, openPools, type Pools, postgresPort, type Sql, sqlOn } from './db.js';
import { migratePostgres } from './migrate.js';
import { listAmendmentIds } from './procurement/amendment-rows.js';
import { listAnnouncements, loadAnnouncements } from './procurement/announcement-read.js';
import { PostgresBulkLoad } from './procurement/batch.js';
import { listContractIds } from './procurement/contract-list.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { entityCounterparts, entityYears, getEntity, listEntities } from './procurement/entity-read.js';

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

  protected override bulkTransaction<T>(work: (tx: SqlPort, load: BulkLoad) => Promise<T>): Promise<T> {
    return inTransaction(this.#pools.primary, (_sql, client) => work(insideTransaction(client), new PostgresBulkLoad(client)));
  }

  async listContracts(filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<ContractRecord[]> {
    return loadContracts(this.ports.replica, await listContractIds(this.#read, filter, page));
  }

  async listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]> {
    return listEntities(this.#read, filter, page);
  }

  async getEntity(nif: string): Promise<EntityRecord | undefined> {
    return getEntity(this.#read, nif);
  }

  async entityYears(nif: string): Promise<EntityYearRecord[]> {
    return entityYears(this.#read, nif);
  }

  async entityCounterparts(nif: string, as: 'buyer' | 'supplier', limit: number): Promise<CounterpartRecord[]> {
    return entityCounterparts(this.#read, nif, as, limit);
  }

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.#read, text, limit);
  }

  async listAnnouncements(filter: AnnouncementFilter, page: KeysetPage<DatePosition>): Promise<AnnouncementRecord[]> {
    return listAnnouncements(this.#read, filter, page);
  }

  async listAmendments(filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<AmendmentRecord[]> {
    return loadAmendments(this.ports.replica, await listAmendmentIds(this.#read, filter, page));
  }

  async getAnnouncements(ids: readonly number[]): Promise<AnnouncementRecord[]> {
    return loadAnnouncements(this.#read, ids);
  }

  // ── journal, signals, cases, alerts (SQL in ./signals/) ──────────────────
  // Consumers (detectors, the alert matcher) read the journal, signals and cases they are about to process from
  // the primary: a replica may lag behind the watermark they keep there.
}
