/**
 * The store, written once over the SQL port (./sql/port.ts): each behaviour lives in one module of its area
 * (./access, ./reference, ./journal, ./agents, …) and runs on both databases. The SQLite and PostgreSQL stores
 * extend this class with their connections and with what their SQL truly does differently (docs/architecture.md,
 * "The store").
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
import type {
  AggregateQuery,
  AggregateResult,
  AmendmentFilter,
  AnnouncementFilter,
  ContractFilter,
  CounterpartRecord,
  DatePosition,
  EntityFilter,
  EntityYearRecord,
  KeysetPage,
  ProcessKey,
  ProcurementSourceCount,
} from './procurement-queries.js';
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractDetailRecord,
  ContractRecord,
  CpvRecord,
  EntityRecord,
} from './procurement-records.js';
import type {
  AccountRecord,
  ApiKeyRecord,
  IndicatorRecord,
  KeyGrant,
  MunicipalityRecord,
  NewApiKey,
  ObservationInput,
  ObservationRow,
  PlanRecord,
  WriteSummary,
} from './records.js';
import { SqlReferenceStore } from './reference/reference-store.js';
import { type DemoRemovalSummary, removeDemoRecords } from './shared/demo-removal.js';
import type { AlertMatchFilter, AlertRuleFilter, CaseFilter, InstantPosition, SignalFilter } from './signal-queries.js';
import type {
  AlertMatchInput,
  AlertMatchRecord,
  AlertRuleInput,
  AlertRuleRecord,
  AlertTemplateInput,
  AlertTemplateRecord,
  CaseDetailRecord,
  CaseRecord,
  CaseUpdate,
  ChangeEntry,
  PendingCase,
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
import type { SqlPort, SqlPorts } from './sql/port.js';
import type { ProcurementBatch, ProcurementBatchSummary, SeriesQuery } from './store.js';

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

  constructor(ports: SqlPorts) {
    this.ports = ports;
    this.#access = new SqlAccessStore(ports);
    this.#reference = new SqlReferenceStore(ports);
    this.agents = new SqlAgentHostStore(ports.primary);
    this.console = new ConsoleSqlStore(ports.primary);
    this.oauth = new OAuthSqlStore(ports.primary, () => this.#moveAccessVersion());
  }

  // ── meta ──────────────────────────────────────────────────────────────────

  dataVersion(): Promise<number> {
    return readDataVersion(this.ports.replica);
  }

  secret(name: string): Promise<string> {
    return readSecret(this.ports.primary, name);
  }

  // ── plans, accounts, keys, usage (./access/) ─────────────────────────────

  listPlans(): Promise<PlanRecord[]> {
    return this.#access.listPlans();
  }

  getPlan(code: string): Promise<PlanRecord | undefined> {
    return this.#access.getPlan(code);
  }

  savePlan(plan: PlanRecord): Promise<void> {
    return this.#access.savePlan(plan);
  }

  createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord> {
    return this.#access.createAccount(input);
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.#access.listAccounts();
  }

  getAccount(id: number): Promise<AccountRecord | undefined> {
    return this.#access.getAccount(id);
  }

  createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    return this.#access.createApiKey(input);
  }

  listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return this.#access.listApiKeys(accountId);
  }

  async revokeApiKey(id: number, now: string): Promise<boolean> {
    const version = await this.#access.revokeApiKey(id, now, (tx) => this.#bumpAccess(tx));
    if (version !== undefined) this.accessVersionCommitted(version);
    return version !== undefined;
  }

  /** Read on every request: one indexed row (SQLite overrides this to read it at once); PostgreSQL holds it from LISTEN. */
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

  findKeyGrant(lookup: string): Promise<KeyGrant | undefined> {
    return this.#access.findKeyGrant(lookup);
  }

  listBetaGates(): Promise<string[]> {
    return this.#access.listBetaGates();
  }

  setBetaGate(target: string, on: boolean): Promise<void> {
    return this.#access.setBetaGate(target, on);
  }

  getUsage(accountId: number, period: string): Promise<number> {
    return this.#access.getUsage(accountId, period);
  }

  addUsage(entries: readonly { accountId: number; period: string; count: number }[]): Promise<void> {
    return this.#access.addUsage(entries);
  }

  // ── reference data and observations (./reference/) ──────────────────────

  listMunicipalities(): Promise<MunicipalityRecord[]> {
    return this.#reference.listMunicipalities();
  }

  saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary> {
    return this.#reference.saveMunicipalities(rows);
  }

  listIndicators(): Promise<IndicatorRecord[]> {
    return this.#reference.listIndicators();
  }

  saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary> {
    return this.#reference.saveIndicators(rows);
  }

  setIndicatorSource(key: string, source: string): Promise<void> {
    return this.#reference.setIndicatorSource(key, source);
  }

  series(query: SeriesQuery): Promise<ObservationRow[]> {
    return this.#reference.series(query);
  }

  countObservations(indicator?: string): Promise<number> {
    return this.#reference.countObservations(indicator);
  }

  writeObservations(indicator: string, rows: readonly ObservationInput[], options?: { replace?: boolean }): Promise<WriteSummary> {
    return this.#reference.writeObservations(indicator, rows, options);
  }

  // ── the change journal (./journal/) ─────────────────────────────────────
  // Consumers (detectors, the alert matcher) read it from the primary: a replica may lag behind their watermarks.

  readChanges(afterSeq: number, limit: number): Promise<ChangeEntry[]> {
    return readChanges(this.ports.primary, afterSeq, limit);
  }

  lastChangeSeq(): Promise<number> {
    return lastChangeSeq(this.ports.primary);
  }

  getWatermark(name: string): Promise<string | null> {
    return getWatermark(this.ports.primary, name);
  }

  setWatermark(name: string, value: string): Promise<void> {
    return setWatermark(this.ports.primary, name, value);
  }

  // ── signals, cases, alerts (./signals/) ─────────────────────────────────
  // What detectors and the matcher are about to process is read from the primary, lists served to callers from
  // the replica.

  writeSignals(batch: {
    signals: readonly SignalInput[];
    now: string;
    watermark?: { name: string; value: string };
  }): Promise<SignalWriteSummary> {
    return this.ports.primary.transaction(async (tx) => {
      const summary = await writeSignals(tx, batch.signals, batch.now);
      if (batch.watermark) await setWatermark(tx, batch.watermark.name, batch.watermark.value);
      if (summary.inserted + summary.updated > 0) await bumpDataVersion(tx);
      return summary;
    });
  }

  getSignalsByKeys(keys: readonly string[]): Promise<SignalRecord[]> {
    return loadSignalsByKeys(this.ports.primary, keys);
  }

  getSignals(ids: readonly number[]): Promise<SignalRecord[]> {
    return loadSignals(this.ports.primary, ids);
  }

  /** The pending mark of each case handed out by pendingCases, which saveCases clears (see ./signals/case-write.ts). */
  readonly #pendingMarks: PendingMarks = new Map();

  pendingCases(limit: number): Promise<PendingCase[]> {
    return pendingCases(this.ports.primary, limit, this.#pendingMarks);
  }

  async saveCases(updates: readonly CaseUpdate[]): Promise<void> {
    await this.ports.primary.transaction(async (tx) => {
      await saveCases(tx, updates, this.#pendingMarks);
      if (updates.length > 0) await bumpDataVersion(tx);
    });
    // Once committed: a rolled-back save still needs its marks.
    for (const update of updates) this.#pendingMarks.delete(update.id);
  }

  findCaseId(key: string): Promise<number | undefined> {
    return findCaseId(this.ports.primary, key);
  }

  async listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]> {
    const port = this.ports.replica;
    return loadSignals(port, await readInstantIds(port, signalQuery(port.dialect, filter, page)));
  }

  async getSignal(id: number): Promise<SignalRecord | undefined> {
    return (await loadSignals(this.ports.replica, [id]))[0];
  }

  listCases(filter: CaseFilter, page: KeysetPage<InstantPosition>): Promise<CaseRecord[]> {
    return listCases(this.ports.replica, filter, page);
  }

  getCase(id: number): Promise<CaseDetailRecord | undefined> {
    return getCase(this.ports.replica, id);
  }

  async saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void> {
    await this.ports.primary.transaction(async (tx) => {
      if (await saveAlertTemplates(tx, rows)) await bumpDataVersion(tx);
    });
  }

  listAlertTemplates(): Promise<AlertTemplateRecord[]> {
    return listAlertTemplates(this.ports.replica);
  }

  createAlertRule(input: AlertRuleInput): Promise<AlertRuleRecord> {
    return this.ports.primary.transaction(async (tx) => {
      const rule = await createAlertRule(tx, input);
      await bumpDataVersion(tx);
      return rule;
    });
  }

  getAlertRule(id: number): Promise<AlertRuleRecord | undefined> {
    return getAlertRule(this.ports.replica, id);
  }

  listAlertRules(filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]> {
    return listAlertRules(this.ports.replica, filter, page);
  }

  setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean> {
    return this.ports.primary.transaction(async (tx) => {
      const { found, changed } = await setAlertRuleEnabled(tx, id, enabled);
      if (changed) await bumpDataVersion(tx);
      return found;
    });
  }

  recordAlertMatches(batch: {
    matches: readonly AlertMatchInput[];
    matchedSeq: readonly { ruleId: number; seq: number }[];
  }): Promise<{ inserted: number; skipped: number }> {
    return this.ports.primary.transaction(async (tx) => {
      const counts = await recordAlertMatches(tx, batch.matches, batch.matchedSeq);
      if (counts.inserted > 0) await bumpDataVersion(tx);
      return counts;
    });
  }

  listAlertMatches(filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): Promise<AlertMatchRecord[]> {
    return listAlertMatches(this.ports.replica, filter, page);
  }

  getAlertMatch(id: number): Promise<AlertMatchRecord | undefined> {
    return getAlertMatch(this.ports.replica, id);
  }

  dismissAlertMatch(id: number): Promise<boolean> {
    return this.ports.primary.transaction(async (tx) => {
      const dismissed = await dismissAlertMatch(tx, id);
      if (dismissed) await bumpDataVersion(tx);
      return dismissed;
    });
  }

  // ── procurement (./procurement/) ─────────────────────────────────────────

  saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary> {
    return this.ports.primary.transaction((tx) => saveCpvs(tx, rows));
  }

  countCpvs(): Promise<number> {
    return countCpvs(this.ports.replica);
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

  getAnnouncements(ids: readonly number[]): Promise<AnnouncementRecord[]> {
    return loadAnnouncements(this.ports.replica, ids);
  }

  listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]> {
    return listEntities(this.ports.replica, this.textSearch, filter, page);
  }

  getEntity(nif: string): Promise<EntityRecord | undefined> {
    return getEntity(this.ports.replica, nif);
  }

  entityYears(nif: string): Promise<EntityYearRecord[]> {
    return entityYears(this.ports.replica, nif);
  }

  entityCounterparts(nif: string, as: 'buyer' | 'supplier', limit: number): Promise<CounterpartRecord[]> {
    return entityCounterparts(this.ports.replica, nif, as, limit);
  }

  aggregateContracts(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateContracts(this.ports.replica, query);
  }

  refreshProcurementRollups(): Promise<void> {
    return this.ports.primary.transaction(async (tx) => {
      if (await refreshEntityTotals(tx)) await bumpDataVersion(tx);
    });
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

  getContract(id: number): Promise<ContractDetailRecord | undefined> {
    return loadContractDetail(this.ports.replica, id);
  }

  getContracts(ids: readonly number[]): Promise<ContractRecord[]> {
    return loadContracts(this.ports.replica, ids);
  }

  getAmendments(ids: readonly number[]): Promise<AmendmentRecord[]> {
    return loadAmendments(this.ports.replica, ids);
  }

  contractAmendments(contractIds: readonly number[]): Promise<AmendmentRecord[]> {
    return loadContractAmendments(this.ports.replica, contractIds);
  }

  processContracts(source: string, process: ProcessKey): Promise<ContractRecord[]> {
    return loadProcessContracts(this.ports.replica, source, process);
  }

  entitiesWithContractsFrom(nifs: readonly string[], source: string): Promise<Set<string>> {
    return entitiesWithContractsFrom(this.ports.replica, nifs, source);
  }

  procurementSources(): Promise<ProcurementSourceCount[]> {
    return procurementSourceCounts(this.ports.replica);
  }
}
