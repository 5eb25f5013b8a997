/**
 * The store, written once over the SQL port (./sql/port.ts): each behaviour lives in one module of its area
 * (./access, ./reference, ./journal, ./agents, …) and runs on both databases. The SQLite and PostgreSQL stores
 * extend this class with their connections and with what their SQL truly does differently (docs/architecture.md,
 * "The store"). What each method guarantees is said once, on the interfaces of ./store.ts.
 *
 * A method that is an area's function run on one port, or a method of the access or reference area, is not written
 * out here: the tables below name it once and ./sql/bind-methods.ts adds it to the class, typed from the function.
 * What is written out does more than that (a transaction, the data version, two steps).
 */

import { isDemoIndicatorSource } from '../lib/provenance.js';
import { SqlAccessStore } from './access/access-store.js';
import { SqlAgentHostStore } from './agents/agent-host-store.js';
import { ConsoleSqlStore } from './console/console-sql-store.js';
import { getWatermark, lastChangeSeq, readChanges, setWatermark } from './journal/journal.js';
import { bumpAccessVersion, bumpDataVersion, readAccessVersion, readDataVersion, readSecret } from './meta.js';
import { OAuthSqlStore } from './oauth/oauth-sql-store.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { listAmendmentIds } from './procurement/amendment-list.js';
import { loadAmendments, loadContractAmendments } from './procurement/amendment-rows.js';
import { listAnnouncements, loadAnnouncements } from './procurement/announcement-read.js';
import { writeBatch } from './procurement/batch-write.js';
import type { BulkLoad } from './procurement/bulk-load.js';
import { listContractIds } from './procurement/contract-list.js';
import { loadContractDetail, loadContracts } from './procurement/contract-rows.js';
import { countCpvs, saveCpvs } from './procurement/cpv-write.js';
import { entityCounterparts, entityYears, getEntity, listEntities } from './procurement/entity-read.js';
import { entitiesWithContractsFrom } from './procurement/entity-sources.js';
import { loadProcessContracts } from './procurement/process-read.js';
import { refreshEntityTotals } from './procurement/rollups.js';
import { procurementSourceCounts } from './procurement/source-counts.js';
import type { TextSearch } from './procurement/text-search.js';
import type { AmendmentFilter, AnnouncementFilter, ContractFilter, DatePosition, EntityFilter, KeysetPage } from './procurement-queries.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord, CpvRecord, EntityRecord } from './procurement-records.js';
import type { WriteSummary } from './records.js';
import { SqlReferenceStore } from './reference/reference-store.js';
import { type DemoRemovalSummary, removeDemoRecords } from './shared/demo-removal.js';
import type { InstantPosition, SignalFilter } from './signal-queries.js';
import type {
  AlertMatchInput,
  AlertRuleInput,
  AlertRuleRecord,
  AlertTemplateInput,
  CaseUpdate,
  SignalInput,
  SignalRecord,
  SignalWriteSummary,
} from './signal-records.js';
import { dismissAlertMatch, getAlertMatch, listAlertMatches, recordAlertMatches } from './signals/alert-matches.js';
import {
  createAlertRule,
  getAlertRule,
  listAlertRules,
  listAlertTemplates,
  saveAlertTemplates,
  setAlertRuleEnabled,
} from './signals/alert-rules.js';
import { getCase, listCases } from './signals/case-read.js';
import { findCaseId, type PendingMarks, pendingCases, saveCases } from './signals/case-write.js';
import { readInstantIds } from './signals/instant-keyset.js';
import { signalQuery } from './signals/signal-list.js';
import { loadSignals, loadSignalsByKeys } from './signals/signal-rows.js';
import { writeSignals } from './signals/signal-write.js';
import { forwardTo, type OnPorts, runOnPort } from './sql/bind-methods.js';
import type { SqlPort, SqlPorts } from './sql/port.js';
import type { ProcurementBatch, ProcurementBatchSummary } from './store.js';

/**
 * Reads by writers and consumers (detectors, the alert matcher, the journal's watermarks), on the primary: a replica
 * may lag behind what they are about to process.
 */
const ON_PRIMARY = {
  secret: readSecret,
  readChanges,
  lastChangeSeq,
  getWatermark,
  setWatermark,
  getSignalsByKeys: loadSignalsByKeys,
  getSignals: loadSignals,
  findCaseId,
};

/** Reads served to callers, on the replica. */
const ON_REPLICA = {
  dataVersion: readDataVersion,
  listCases,
  getCase,
  listAlertTemplates,
  getAlertRule,
  listAlertRules,
  listAlertMatches,
  getAlertMatch,
  countCpvs,
  getAnnouncements: loadAnnouncements,
  getEntity,
  entityYears,
  entityCounterparts,
  aggregateContracts,
  getContract: loadContractDetail,
  getContracts: loadContracts,
  getAmendments: loadAmendments,
  contractAmendments: loadContractAmendments,
  processContracts: loadProcessContracts,
  entitiesWithContractsFrom,
  procurementSources: procurementSourceCounts,
};

/** Plans, accounts, keys and usage (./access/): all but the revocation, which moves the access version here. */
const ACCESS_METHODS = [
  'listPlans',
  'getPlan',
  'savePlan',
  'createAccount',
  'listAccounts',
  'getAccount',
  'createApiKey',
  'listApiKeys',
  'findKeyGrant',
  'listBetaGates',
  'setBetaGate',
  'getUsage',
  'addUsage',
] as const satisfies readonly (keyof SqlAccessStore)[];

/** Municipalities, the catalogue and observations (./reference/). */
const REFERENCE_METHODS = [
  'listMunicipalities',
  'saveMunicipalities',
  'listIndicators',
  'saveIndicators',
  'setIndicatorSource',
  'series',
  'countObservations',
  'writeObservations',
] as const satisfies readonly (keyof SqlReferenceStore)[];

// The methods the tables above add to the class (see the static block), typed from what they run.
export interface SqlStore
  extends OnPorts<typeof ON_PRIMARY>,
    OnPorts<typeof ON_REPLICA>,
    Pick<SqlAccessStore, (typeof ACCESS_METHODS)[number]>,
    Pick<SqlReferenceStore, (typeof REFERENCE_METHODS)[number]> {}

export abstract class SqlStore {
  protected readonly ports: SqlPorts;
  readonly #access: SqlAccessStore;
  readonly #reference: SqlReferenceStore;
  /** The company-agent host's records (./agents/), on the primary. */
  readonly agents: SqlAgentHostStore;
  /** The account console's records (./console/), on the primary. */
  readonly console: ConsoleSqlStore;
  /** The OAuth authorization server's records (./oauth/), on the primary; a revoked grant moves the access version. */
  readonly oauth: OAuthSqlStore;

  static {
    const ports = (store: SqlStore) => store.ports;
    runOnPort(SqlStore.prototype, ports, 'primary', ON_PRIMARY);
    runOnPort(SqlStore.prototype, ports, 'replica', ON_REPLICA);
    forwardTo(SqlStore.prototype, (store: SqlStore) => store.#access, ACCESS_METHODS);
    forwardTo(SqlStore.prototype, (store: SqlStore) => store.#reference, REFERENCE_METHODS);
  }

  constructor(ports: SqlPorts) {
    this.ports = ports;
    this.#access = new SqlAccessStore(ports);
    this.#reference = new SqlReferenceStore(ports);
    this.agents = new SqlAgentHostStore(ports.primary);
    this.console = new ConsoleSqlStore(ports.primary);
    this.oauth = new OAuthSqlStore(ports.primary, () => this.#moveAccessVersion());
  }

  /**
   * `work` in one transaction on the primary, the data version moved in it when `changed` says that what `work`
   * did changes what callers are served.
   */
  #write<T>(work: (tx: SqlPort) => Promise<T>, changed: (result: T) => boolean): Promise<T> {
    return this.ports.primary.transaction(async (tx) => {
      const result = await work(tx);
      if (changed(result)) await bumpDataVersion(tx);
      return result;
    });
  }

  // ── keys and the access version ──────────────────────────────────────────

  async revokeApiKey(id: number, now: string): Promise<boolean> {
    const version = await this.#access.revokeApiKey(id, now, (tx) => this.#bumpAccess(tx));
    if (version !== undefined) this.accessVersionCommitted(version);
    return version !== undefined;
  }

  /** Read on every request: one indexed row (SQLite overrides this to share the read); PostgreSQL holds it from LISTEN. */
  accessVersion(): number | Promise<number> {
    return readAccessVersion(this.ports.primary);
  }

  /** Inside the transaction that moved the access version: PostgreSQL tells the other instances there. */
  protected announceAccessVersion(_tx: SqlPort, _version: number): Promise<void> {
    return Promise.resolve();
  }

  /** After that transaction committed: this process knows the new version without waiting to hear it. */
  protected accessVersionCommitted(_version: number): void {}

  async #bumpAccess(tx: SqlPort): Promise<number> {
    const version = await bumpAccessVersion(tx);
    await this.announceAccessVersion(tx, version);
    return version;
  }

  async #moveAccessVersion(): Promise<void> {
    const version = await this.ports.primary.transaction((tx) => this.#bumpAccess(tx));
    this.accessVersionCommitted(version);
  }

  // ── signals, cases, alerts (./signals/) ─────────────────────────────────

  writeSignals(batch: {
    signals: readonly SignalInput[];
    now: string;
    watermark?: { name: string; value: string };
  }): Promise<SignalWriteSummary> {
    return this.#write(
      async (tx) => {
        const summary = await writeSignals(tx, batch.signals, batch.now);
        if (batch.watermark) await setWatermark(tx, batch.watermark.name, batch.watermark.value);
        return summary;
      },
      (summary) => summary.inserted + summary.updated > 0,
    );
  }

  /** The pending mark of each case handed out by pendingCases, which saveCases clears (see ./signals/case-write.ts). */
  readonly #pendingMarks: PendingMarks = new Map();

  pendingCases(limit: number) {
    return pendingCases(this.ports.primary, limit, this.#pendingMarks);
  }

  async saveCases(updates: readonly CaseUpdate[]): Promise<void> {
    await this.#write(
      (tx) => saveCases(tx, updates, this.#pendingMarks),
      () => updates.length > 0,
    );
    // Once committed: a rolled-back save still needs its marks.
    for (const update of updates) this.#pendingMarks.delete(update.id);
  }

  async listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]> {
    const port = this.ports.replica;
    return loadSignals(port, await readInstantIds(port, signalQuery(port.dialect, filter, page)));
  }

  async getSignal(id: number): Promise<SignalRecord | undefined> {
    return (await loadSignals(this.ports.replica, [id]))[0];
  }

  async saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void> {
    await this.#write(
      (tx) => saveAlertTemplates(tx, rows),
      (changed) => changed,
    );
  }

  createAlertRule(input: AlertRuleInput): Promise<AlertRuleRecord> {
    return this.#write(
      (tx) => createAlertRule(tx, input),
      () => true,
    );
  }

  async setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean> {
    return (
      await this.#write(
        (tx) => setAlertRuleEnabled(tx, id, enabled),
        ({ changed }) => changed,
      )
    ).found;
  }

  recordAlertMatches(batch: {
    matches: readonly AlertMatchInput[];
    matchedSeq: readonly { ruleId: number; seq: number }[];
  }): Promise<{ inserted: number; skipped: number }> {
    return this.#write(
      (tx) => recordAlertMatches(tx, batch.matches, batch.matchedSeq),
      ({ inserted }) => inserted > 0,
    );
  }

  dismissAlertMatch(id: number): Promise<boolean> {
    return this.#write(
      (tx) => dismissAlertMatch(tx, id),
      (dismissed) => dismissed,
    );
  }

  // ── procurement (./procurement/) ─────────────────────────────────────────

  saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary> {
    return this.ports.primary.transaction((tx) => saveCpvs(tx, rows));
  }

  /** `q` as the dialect searches text (FTS5, pg_trgm), for the lists written once. */
  protected abstract readonly textSearch: TextSearch;

  async listContracts(filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<ContractRecord[]> {
    const port = this.ports.replica;
    return loadContracts(port, await listContractIds(port, this.textSearch, filter, page));
  }

  async listAmendments(filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<AmendmentRecord[]> {
    const port = this.ports.replica;
    return loadAmendments(port, await listAmendmentIds(port, filter, page));
  }

  listAnnouncements(filter: AnnouncementFilter, page: KeysetPage<DatePosition>): Promise<AnnouncementRecord[]> {
    return listAnnouncements(this.ports.replica, this.textSearch, filter, page);
  }

  listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]> {
    return listEntities(this.ports.replica, this.textSearch, filter, page);
  }

  refreshProcurementRollups(): Promise<void> {
    return this.#write(refreshEntityTotals, (changed) => changed).then(() => undefined);
  }

  writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return this.bulkTransaction((tx, load) => writeBatch(tx, load, batch));
  }

  async removeDemoData(): Promise<DemoRemovalSummary> {
    const demoIndicators = (await this.listIndicators()).filter((i) => isDemoIndicatorSource(i.source)).map((i) => i.key);
    return this.bulkTransaction((tx, load) => removeDemoRecords(tx, load, demoIndicators));
  }

  /** Runs `work` in one transaction on the primary, with the dialect's bulk load (./procurement/bulk-load.ts) on its connection. */
  protected abstract bulkTransaction<T>(work: (tx: SqlPort, load: BulkLoad) => Promise<T>): Promise<T>;
}
