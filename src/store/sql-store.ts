/**
 * The store, written once over the SQL port (./sql/port.ts): each behaviour lives in one module of its area
 * (./access, ./reference, ./journal, ./agents, …) and runs on both databases. The SQLite and PostgreSQL stores
 * extend this class with their connections and with what their SQL truly does differently (docs/architecture.md,
 * "The store").
 *
 * What each method guarantees is said once, on the role interfaces of ./store.ts, which the subclasses implement;
 * here a method is, most often, one line naming the area's function and the port it runs on, its signature that
 * function's.
 */

import { isDemoIndicatorSource } from '../lib/provenance.js';
import { observedPort } from '../observability/store-observer.js';
import { SqlAccessStore } from './access/access-store.js';
import { SqlAgentHostStore } from './agents/agent-host-store.js';
import { readChangedIds } from './changes/changed-since.js';
import { ConsoleSqlStore } from './console/console-sql-store.js';
import {
  changesDatedBefore,
  getWatermark,
  lastChangeSeq,
  readChanges,
  readChangesBefore,
  setWatermark,
} from './journal/journal.js';
import {
  bumpAccessVersion,
  bumpDataVersion,
  readAccessVersion,
  readDataVersion,
  readProcurementVersion,
  readSecret,
} from './meta.js';
import { OAuthSqlStore } from './oauth/oauth-sql-store.js';
import { PipelineSqlStore } from './pipeline/pipeline-sql-store.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { listAmendmentIds } from './procurement/amendment-list.js';
import { loadAmendments, loadContractAmendments } from './procurement/amendment-rows.js';
import { listAnnouncements, loadAnnouncements } from './procurement/announcement-read.js';
import { writeBatch } from './procurement/batch-write.js';
import type { BulkLoad } from './procurement/bulk-load.js';
import { buyerPrices } from './procurement/buyer-prices.js';
import { contractBuyers } from './procurement/contract-buyers.js';
import { contractIdOfRecord } from './procurement/contract-id-of-record.js';
import { contractIdsByParty } from './procurement/contract-ids-by-party.js';
import { listContractIds } from './procurement/contract-list.js';
import { loadContractDetail, loadContracts } from './procurement/contract-rows.js';
import { keepCorpusStatistic, keptCorpusStatistic } from './procurement/corpus-statistics.js';
import { countCpvs, cpvVocabulary, saveCpvs } from './procurement/cpv-write.js';
import { entityCounterparts, entityYears, getEntity, listEntities } from './procurement/entity-read.js';
import { entityRecordSources } from './procurement/entity-sources.js';
import { noticeContracts } from './procurement/notice-contracts.js';
import { noticePeriods } from './procurement/notice-periods.js';
import { loadProcessContracts } from './procurement/process-read.js';
import { refreshEntityTotals } from './procurement/rollups.js';
import { municipalBuyersBySource, procurementSourceCounts } from './procurement/source-counts.js';
import { supplierVarieties } from './procurement/supplier-variety.js';
import { tendererBids } from './procurement/tenderer-bids.js';
import type { TextSearch } from './procurement/text-search.js';
import type {
  AmendmentFilter,
  AnnouncementFilter,
  ContractFilter,
  DatePosition,
  EntityFilter,
  KeysetPage,
} from './procurement-queries.js';
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractRecord,
  CpvRecord,
  EntityRecord,
} from './procurement-records.js';
import type { WriteSummary } from './records.js';
import { SqlReferenceStore } from './reference/reference-store.js';
import { type DemoRemovalSummary, removeDemoRecords } from './shared/demo-removal.js';
import type { InstantPosition, SignalFilter } from './signal-queries.js';
import type { AlertRuleEdit, AlertRuleInput, AlertTemplateInput, CaseUpdate, SignalRecord } from './signal-records.js';
import { findAlertFeedRule, revokeAlertFeed, setAlertFeedToken } from './signals/alert-feeds.js';
import { alertMatchCounts } from './signals/alert-match-counts.js';
import {
  dismissAlertMatch,
  getAlertMatch,
  listAlertMatches,
  recordAlertMatches,
  restoreAlertMatch,
} from './signals/alert-matches.js';
import {
  createAlertRule,
  deleteAlertRule,
  getAlertRule,
  listAlertRules,
  listAlertTemplates,
  saveAlertTemplates,
  setAlertRuleEnabled,
  updateAlertRule,
} from './signals/alert-rules.js';
import { getCase, listCases } from './signals/case-read.js';
import { findCaseId, type PendingMarks, pendingCases, saveCases } from './signals/case-write.js';
import { readInstantIds } from './signals/instant-keyset.js';
import { integrityFlagCounts } from './signals/integrity-flag-counts.js';
import { changedSignalQuery, signalQuery } from './signals/signal-list.js';
import { loadMatchableSignals, loadSignals, loadSignalsByKeys } from './signals/signal-rows.js';
import { writeSignals } from './signals/signal-write.js';
import type { SqlPort, SqlPorts } from './sql/port.js';
import type { AlertStore, ProcurementBatch, ProcurementBatchSummary, SignalWriteStore } from './store.js';
import { WebhookSqlStore } from './webhooks/webhook-store.js';

/**
 * Holds the ports before SqlStore's fields are made from them: a base class is constructed before its subclass's
 * fields.
 */
abstract class OnPorts {
  protected readonly ports: SqlPorts;
  readonly #unobserved: SqlPorts;

  constructor(ports: SqlPorts) {
    this.#unobserved = ports;
    this.ports = this.portsOf('data');
  }

  /** The ports as one area of the store: its statements counted and traced under that name (docs/deploy.md). */
  protected portsOf(area: string): SqlPorts {
    const { primary, replica } = this.#unobserved;
    const observed = observedPort(primary, area);
    return { primary: observed, replica: replica === primary ? observed : observedPort(replica, area) };
  }
}

export abstract class SqlStore extends OnPorts {
  readonly #access = new SqlAccessStore(this.portsOf('access'));
  readonly #reference = new SqlReferenceStore(this.portsOf('reference'));
  /** The company-agent host's records (./agents/), on the primary. */
  readonly agents = new SqlAgentHostStore(this.portsOf('agents').primary);
  /** The account console's records (./console/), on the primary. */
  readonly console = new ConsoleSqlStore(this.portsOf('console').primary);
  /** The OAuth authorization server's records (./oauth/), on the primary; a revoked grant moves the access version. */
  readonly oauth = new OAuthSqlStore(this.portsOf('oauth').primary, () => this.#moveAccessVersion());
  /** The pipeline's leases and step statuses (./pipeline/), on the primary: a replica may lag behind a lease. */
  readonly pipeline = new PipelineSqlStore(this.portsOf('pipeline').primary);
  /** Webhook endpoints and the outbox (./webhooks/), on the primary. */
  readonly webhooks = new WebhookSqlStore(this.portsOf('webhooks').primary);

  /** `read` as a method of this store, on the replica (reads that serve callers). */
  #onReplica<A extends unknown[], R>(read: (port: SqlPort, ...args: A) => R): (...args: A) => R {
    return (...args) => read(this.ports.replica, ...args);
  }

  /** `work` as a method of this store, on the primary (writes, and reads by writers and consumers). */
  #onPrimary<A extends unknown[], R>(work: (port: SqlPort, ...args: A) => R): (...args: A) => R {
    return (...args) => work(this.ports.primary, ...args);
  }

  /**
   * Runs `work` in one transaction on the primary, bumping the data version there when `changed` says it changed
   * something.
   */
  #write<T>(work: (tx: SqlPort) => Promise<T>, changed: (result: T) => boolean): Promise<T> {
    return this.ports.primary.transaction(async (tx) => {
      const result = await work(tx);
      if (changed(result)) await bumpDataVersion(tx);
      return result;
    });
  }

  // ── meta ──────────────────────────────────────────────────────────────────

  readonly dataVersion = this.#onReplica(readDataVersion);
  readonly procurementVersion = this.#onReplica(readProcurementVersion);
  readonly secret = this.#onPrimary(readSecret);

  // ── plans, accounts, keys, usage (./access/) ─────────────────────────────

  readonly listPlans = this.#access.listPlans.bind(this.#access);
  readonly getPlan = this.#access.getPlan.bind(this.#access);
  readonly savePlan = this.#access.savePlan.bind(this.#access);
  readonly createAccount = this.#access.createAccount.bind(this.#access);
  readonly listAccounts = this.#access.listAccounts.bind(this.#access);
  readonly getAccount = this.#access.getAccount.bind(this.#access);
  readonly createApiKey = this.#access.createApiKey.bind(this.#access);
  readonly listApiKeys = this.#access.listApiKeys.bind(this.#access);
  readonly findKeyGrant = this.#access.findKeyGrant.bind(this.#access);
  readonly listBetaGates = this.#access.listBetaGates.bind(this.#access);
  readonly setBetaGate = this.#access.setBetaGate.bind(this.#access);
  readonly getUsage = this.#access.getUsage.bind(this.#access);
  readonly addUsage = this.#access.addUsage.bind(this.#access);

  async revokeApiKey(id: number, now: string): Promise<boolean> {
    const version = await this.#access.revokeApiKey(id, now, (tx) => this.#bumpAccess(tx));
    if (version !== undefined) this.accessVersionCommitted(version);
    return version !== undefined;
  }

  /**
   * Read on every request: one indexed row (SQLite overrides this to share the read per turn); PostgreSQL holds it from
   * LISTEN.
   */
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

  // ── reference data and observations (./reference/) ──────────────────────

  readonly listMunicipalities = this.#reference.listMunicipalities.bind(this.#reference);
  readonly saveMunicipalities = this.#reference.saveMunicipalities.bind(this.#reference);
  readonly listIndicators = this.#reference.listIndicators.bind(this.#reference);
  readonly saveIndicators = this.#reference.saveIndicators.bind(this.#reference);
  readonly setIndicatorSource = this.#reference.setIndicatorSource.bind(this.#reference);
  readonly series = this.#reference.series.bind(this.#reference);
  readonly countObservations = this.#reference.countObservations.bind(this.#reference);
  readonly seriesCoverage = this.#reference.seriesCoverage.bind(this.#reference);
  readonly indicatorPoints = this.#reference.indicatorPoints.bind(this.#reference);
  readonly writeObservations = this.#reference.writeObservations.bind(this.#reference);

  // ── the change journal (./journal/) ─────────────────────────────────────
  // Consumers (detectors, the alert matcher) read it from the primary: a replica may lag behind their watermarks.

  readonly readChanges = this.#onPrimary(readChanges);
  readonly readChangesBefore = this.#onPrimary(readChangesBefore);
  readonly lastChangeSeq = this.#onPrimary(lastChangeSeq);
  readonly changesDatedBefore = this.#onPrimary(changesDatedBefore);
  readonly getWatermark = this.#onPrimary(getWatermark);
  readonly setWatermark = this.#onPrimary(setWatermark);

  // ── signals, cases, alerts (./signals/) ─────────────────────────────────
  // What detectors and the matcher are about to process is read from the primary, lists served to callers from
  // the replica.

  writeSignals(batch: Parameters<SignalWriteStore['writeSignals']>[0]) {
    return this.bulkTransaction(async (tx, load) => {
      const summary = await writeSignals(tx, load, batch.signals, batch.now);
      if (batch.watermark) await setWatermark(tx, batch.watermark.name, batch.watermark.value);
      return summary;
    });
  }

  readonly getSignalsByKeys = this.#onPrimary(loadSignalsByKeys);
  readonly getSignals = this.#onPrimary(loadSignals);
  readonly getMatchableSignals = this.#onPrimary(loadMatchableSignals);

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

  readonly findCaseId = this.#onPrimary(findCaseId);

  async listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]> {
    const port = this.ports.replica;
    const ids =
      filter.updatedSince === undefined
        ? await readInstantIds(port, signalQuery(port.dialect, filter, page))
        : await readChangedIds(port, changedSignalQuery(port.dialect, filter, filter.updatedSince, page));
    return loadSignals(port, ids);
  }

  async getSignal(id: number): Promise<SignalRecord | undefined> {
    return (await loadSignals(this.ports.replica, [id]))[0];
  }

  readonly listCases = this.#onReplica(listCases);
  readonly getCase = this.#onReplica(getCase);
  readonly integrityFlagCounts = this.#onReplica(integrityFlagCounts);

  async saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void> {
    await this.#write(
      (tx) => saveAlertTemplates(tx, rows),
      (changed) => changed,
    );
  }

  readonly listAlertTemplates = this.#onReplica(listAlertTemplates);

  createAlertRule(input: AlertRuleInput) {
    return this.#write(
      (tx) => createAlertRule(tx, input),
      () => true,
    );
  }

  readonly getAlertRule = this.#onReplica(getAlertRule);
  readonly listAlertRules = this.#onReplica(listAlertRules);

  async setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean> {
    const { found } = await this.#write(
      (tx) => setAlertRuleEnabled(tx, id, enabled),
      ({ changed }) => changed,
    );
    return found;
  }

  updateAlertRule(id: number, edit: AlertRuleEdit, rematch: boolean): Promise<boolean> {
    return this.#write(
      (tx) => updateAlertRule(tx, id, edit, rematch),
      (found) => found,
    );
  }

  deleteAlertRule(id: number): Promise<boolean> {
    return this.#write(
      (tx) => deleteAlertRule(tx, id),
      (found) => found,
    );
  }

  recordAlertMatches(batch: Parameters<AlertStore['recordAlertMatches']>[0]) {
    return this.#write(
      (tx) => recordAlertMatches(tx, batch.matches, batch.matchedSeq),
      ({ inserted }) => inserted > 0,
    );
  }

  readonly listAlertMatches = this.#onReplica(listAlertMatches);
  readonly alertMatchCounts = this.#onReplica(alertMatchCounts);
  readonly getAlertMatch = this.#onReplica(getAlertMatch);

  readonly setAlertFeedToken = this.#onPrimary(setAlertFeedToken);
  readonly revokeAlertFeed = this.#onPrimary(revokeAlertFeed);
  // On the primary: a feed revoked (or a token just issued) holds at once, whatever a replica's lag.
  readonly findAlertFeedRule = this.#onPrimary(findAlertFeedRule);

  dismissAlertMatch(id: number): Promise<boolean> {
    return this.#write(
      (tx) => dismissAlertMatch(tx, id),
      (dismissed) => dismissed,
    );
  }

  restoreAlertMatch(id: number): Promise<boolean> {
    return this.#write(
      (tx) => restoreAlertMatch(tx, id),
      (restored) => restored,
    );
  }

  // ── procurement (./procurement/) ─────────────────────────────────────────

  saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary> {
    return this.ports.primary.transaction((tx) => saveCpvs(tx, rows));
  }

  readonly countCpvs = this.#onReplica(countCpvs);
  readonly cpvVocabulary = this.#onReplica(cpvVocabulary);

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

  readonly getAnnouncements = this.#onReplica(loadAnnouncements);
  readonly noticePeriods = this.#onReplica(noticePeriods);

  listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]> {
    return listEntities(this.ports.replica, this.textSearch, filter, page);
  }

  readonly getEntity = this.#onReplica(getEntity);
  readonly entityYears = this.#onReplica(entityYears);
  readonly entityCounterparts = this.#onReplica(entityCounterparts);
  readonly aggregateContracts = this.#onReplica(aggregateContracts);

  async refreshProcurementRollups(): Promise<void> {
    await this.#write(refreshEntityTotals, (changed) => changed);
  }

  writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return this.bulkTransaction((tx, load) => writeBatch(tx, load, batch));
  }

  async removeDemoData(): Promise<DemoRemovalSummary> {
    const demoIndicators = (await this.listIndicators())
      .filter((i) => isDemoIndicatorSource(i.source))
      .map((i) => i.key);
    return this.bulkTransaction((tx, load) => removeDemoRecords(tx, load, demoIndicators));
  }

  /**
   * Runs `work` in one transaction on the primary, with the dialect's bulk load (./procurement/bulk-load.ts) on its
   * connection.
   */
  protected abstract bulkTransaction<T>(work: (tx: SqlPort, load: BulkLoad) => Promise<T>): Promise<T>;

  readonly getContract = this.#onReplica(loadContractDetail);
  readonly contractIdOfRecord = this.#onReplica(contractIdOfRecord);
  readonly getContracts = this.#onReplica(loadContracts);
  readonly getAmendments = this.#onReplica(loadAmendments);
  readonly contractAmendments = this.#onReplica(loadContractAmendments);
  readonly processContracts = this.#onReplica(loadProcessContracts);
  readonly entityRecordSources = this.#onReplica(entityRecordSources);
  readonly procurementSources = this.#onReplica(procurementSourceCounts);
  readonly municipalBuyersBySource = this.#onReplica(municipalBuyersBySource);
  readonly supplierVarieties = this.#onReplica(supplierVarieties);
  readonly tendererBids = this.#onReplica(tendererBids);
  readonly keptCorpusStatistic = this.#onReplica(keptCorpusStatistic);
  readonly keepCorpusStatistic = this.#onPrimary(keepCorpusStatistic);
  readonly buyerPrices = this.#onReplica(buyerPrices);
  readonly contractBuyers = this.#onReplica(contractBuyers);
  readonly contractIdsByParty = this.#onReplica(contractIdsByParty);
  readonly noticeContracts = this.#onReplica(noticeContracts);
}
