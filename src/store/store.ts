import type { UsageBatch } from './access/usage-batches.js';
import type { AgentHostStore } from './agents/agent-host-store.js';
import type { ConsoleStore } from './console/console-sql-store.js';
import type { OAuthStore } from './oauth/oauth-sql-store.js';
import type { PipelineStore } from './pipeline/pipeline-sql-store.js';
import type { ContractBuyersRecord } from './procurement/contract-buyers.js';
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
  NoticeContract,
  NoticePeriodCount,
  NoticePeriodQuery,
  ProcessKey,
  ProcurementRecordRef,
  ProcurementSourceCount,
  SupplierVarietyRecord,
  TendererBidsRecord,
} from './procurement-queries.js';
import type {
  AmendmentInput,
  AmendmentRecord,
  AnnouncementInput,
  AnnouncementRecord,
  BuyerPriceRecord,
  ContractDetailRecord,
  ContractInput,
  ContractRecord,
  CpvRecord,
  EntityInput,
  EntityRecord,
  EntityRecordSources,
  ProcurementWriteSummary,
} from './procurement-records.js';
import type {
  AccountRecord,
  ApiKeyRecord,
  IndicatorObservationRow,
  IndicatorRecord,
  KeyGrant,
  MunicipalityRecord,
  NewApiKey,
  ObservationInput,
  ObservationRow,
  PlanRecord,
  SeriesCoverage,
  WriteSummary,
} from './records.js';
import type { DemoRemovalSummary } from './shared/demo-removal.js';
import type {
  AlertMatchFilter,
  AlertRuleFilter,
  CaseFilter,
  InstantPosition,
  IntegrityPlaceCount,
  SignalFilter,
} from './signal-queries.js';
import type {
  AlertMatchInput,
  AlertMatchRecord,
  AlertRuleEdit,
  AlertRuleInput,
  AlertRuleRecord,
  AlertTemplateInput,
  AlertTemplateRecord,
  CaseDetailRecord,
  CaseRecord,
  CaseUpdate,
  ChangeEntry,
  ChangeKind,
  MatchableSignal,
  PendingCase,
  SignalInput,
  SignalRecord,
  SignalWriteSummary,
} from './signal-records.js';
import type { RuleMatchCount } from './signals/alert-match-counts.js';
import type { AppliedMigration } from './sql/migration.js';
import type { WebhookStore } from './webhooks/webhook-store.js';

/**
 * Every method below holds for both databases (src/store/sql-store.ts writes each once). Unless a method says
 * otherwise: a write is one transaction, all of it or none; a write that changes what callers are served bumps
 * the data version in that transaction; reads that serve callers may go to a replica (they see writes once it
 * has them), and reads by writers and consumers go to the primary.
 */
export interface AccessStore {
  /** By code. */
  listPlans(): Promise<PlanRecord[]>;
  getPlan(code: string): Promise<PlanRecord | undefined>;
  /** Creates or replaces a plan (by code); idempotent. */
  savePlan(plan: PlanRecord): Promise<void>;

  /** A new account with a new id (ids only grow). */
  createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord>;
  /** By id. */
  listAccounts(): Promise<AccountRecord[]>;
  getAccount(id: number): Promise<AccountRecord | undefined>;

  /** A new key; fails when the lookup part is taken (it is unique). */
  createApiKey(input: NewApiKey): Promise<ApiKeyRecord>;
  /** An account's keys by id, revoked ones included. */
  listApiKeys(accountId: number): Promise<ApiKeyRecord[]>;
  /**
   * Marks a key revoked, once, and moves the access version: false when there is no such key or it was already revoked
   * (its revoked_at stays).
   */
  revokeApiKey(id: number, now: string): Promise<boolean>;
  /**
   * A number that moves whenever a key is revoked, seen by every process at once; cheap enough to read on every
   * request, so that cached grants are dropped at the next one (docs/architecture.md, Revocation): always from a read
   * that started after the call. A number when it is known without waiting (PostgreSQL's value held from LISTEN):
   * the hot path then takes no promise; SQLite's is a promise of the read the turn's requests share.
   */
  accessVersion(): number | Promise<number>;
  /** The key with this lookup part, its account and plan, read together in one statement. */
  findKeyGrant(lookup: string): Promise<KeyGrant | undefined>;

  /** Operation names and domains that only beta accounts may call, sorted. */
  listBetaGates(): Promise<string[]>;
  /** Idempotent; the data version moves only when the gate changed. */
  setBetaGate(target: string, on: boolean): Promise<void>;
}

export interface UsageStore {
  /** Committed requests of an account in a monthly period (`YYYY-MM`), from the primary; 0 before any. */
  getUsage(accountId: number, period: string): Promise<number>;
  /**
   * Adds counts to the persisted usage, atomically for the whole batch (entries of one account and period are summed).
   * Each call adds, save a numbered `batch` already applied (./access/usage-batches.ts): that one adds nothing.
   */
  addUsage(entries: readonly { accountId: number; period: string; count: number }[], batch?: UsageBatch): Promise<void>;
}

export interface ReferenceStore {
  /** By code. */
  listMunicipalities(): Promise<MunicipalityRecord[]>;
  /**
   * Inserts or updates by id, counting inserted, updated and unchanged rows (an unchanged row is not written);
   * idempotent. A row given twice is compared with the one given before it.
   */
  saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary>;
  /** By key. */
  listIndicators(): Promise<IndicatorRecord[]>;
  /** As saveMunicipalities, by key. */
  saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary>;
  /** Sets the `source` label of an indicator (an importer does when its data replaces another source); idempotent. */
  setIndicatorSource(key: string, source: string): Promise<void>;
}

export interface SeriesQuery {
  indicator: string;
  municipalityId: number;
  /** Inclusive bounds on reference_date (YYYY-MM-DD). */
  from?: string;
  to?: string;
  /** Keyset position: only points after this reference_date. */
  after?: string;
  limit: number;
}

export interface ObservationStore {
  /** Points of one indicator for one municipality, by reference_date ascending. */
  series(query: SeriesQuery): Promise<ObservationRow[]>;
  /** Every point of one indicator, by municipality id then reference_date (one read for a whole indicator). */
  indicatorPoints(indicator: string): Promise<ObservationRow[]>;
  /**
   * The latest point with a value of each municipality that has one, for one indicator, by municipality id; with
   * `asOf`, the latest on or before it.
   */
  latestPerMunicipality(indicator: string, asOf?: string): Promise<ObservationRow[]>;
  /** The latest point with a value of every indicator for one municipality, by indicator key. */
  latestForMunicipality(municipalityId: number): Promise<IndicatorObservationRow[]>;
  /**
   * Writes observations of one indicator (insert or update by municipality and reference date; a point given
   * twice is written as last given) and recomputes the normalized values of the reference dates touched. With
   * `replace`, the indicator's other observations are removed, in the same transaction. Appends one
   * `observation` journal entry per municipality whose points changed. Idempotent: an unchanged point is counted,
   * not written.
   */
  writeObservations(
    indicator: string,
    rows: readonly ObservationInput[],
    options?: { replace?: boolean },
  ): Promise<WriteSummary>;
  countObservations(indicator?: string): Promise<number>;
  seriesCoverage(): Promise<SeriesCoverage[]>;
}

/** A batch of procurement records written in one transaction: all of it, or (on any error) none of it. */
export interface ProcurementBatch {
  entities?: readonly EntityInput[];
  contracts?: readonly ContractInput[];
  announcements?: readonly AnnouncementInput[];
  amendments?: readonly AmendmentInput[];
}

export interface ProcurementBatchSummary {
  entities: ProcurementWriteSummary;
  contracts: ProcurementWriteSummary;
  announcements: ProcurementWriteSummary;
  amendments: ProcurementWriteSummary;
  /** Amendments whose contract (by source and source id) is in neither the batch nor the store: not written. */
  orphan_amendments: string[];
}

export interface ProcurementWriteStore {
  /** The CPV vocabulary (codes without check digit, Portuguese and English labels), upserted by code; idempotent. */
  saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary>;
  /**
   * Upserts by (source, source_id) — entities by tax number — in one transaction. A party of a contract
   * that is not yet an entity becomes one (kind guessed from its tax number and name). Unchanged records
   * are counted as such and not rewritten.
   */
  writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary>;
  /**
   * Recomputes derived figures (entity totals and counts) after loads, in one transaction; idempotent, and cheap when
   * nothing changed.
   */
  refreshProcurementRollups(): Promise<void>;
  /**
   * Deletes every record the demo generated and what was derived from it (store/shared/demo-removal.ts), in one
   * transaction: imported data, accounts, keys, rules and usage stay.
   */
  removeDemoData(): Promise<DemoRemovalSummary>;
}

/**
 * Reads of the procurement domain. Lists are keyset pages in a fixed order (see each method); pass
 * `limit + 1` to learn whether a next page exists.
 */
export interface ProcurementReadStore {
  /** Codes in the CPV vocabulary (0 before it is loaded). */
  countCpvs(): Promise<number>;
  /** The whole CPV vocabulary, by code. */
  cpvVocabulary(): Promise<CpvRecord[]>;
  /** Records per procurement source and kind, with the latest import time (the `sources` operation). */
  procurementSources(): Promise<ProcurementSourceCount[]>;
  /** Per procurement source, how many municipalities' councils are buyers in its contracts or notices. */
  municipalBuyersBySource(): Promise<Map<string, number>>;
  /** Contracts matching every filter, by publication date descending then id descending. */
  listContracts(filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<ContractRecord[]>;
  getContract(id: number): Promise<ContractDetailRecord | undefined>;
  /** The id of the contract a contract or an amendment (by source and source id) belongs to; undefined if unknown. */
  contractIdOfRecord(record: ProcurementRecordRef): Promise<number | undefined>;
  /** Count and euros of contracts per group; `totals` counts each matching contract once. */
  aggregateContracts(query: AggregateQuery): Promise<AggregateResult>;
  /** Entities by tax number ascending. Totals are those of the last `refreshProcurementRollups`. */
  listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]>;
  getEntity(nif: string): Promise<EntityRecord | undefined>;
  /** The sources of the records each of `nifs` is named in (absent: none); one read for a whole page. */
  entityRecordSources(nifs: readonly string[]): Promise<Map<string, EntityRecordSources>>;
  /** An entity's contracts per publication year (ascending; unknown year last), as buyer and as supplier. */
  entityYears(nif: string): Promise<EntityYearRecord[]>;
  /**
   * The entities on the other side of an entity's contracts — its suppliers when `as` is `buyer`, its buyers
   * when `as` is `supplier` — by total euros descending, then count, then tax number.
   */
  entityCounterparts(nif: string, as: 'buyer' | 'supplier', limit: number): Promise<CounterpartRecord[]>;
  /**
   * Entities that may match a free text typed by a person: tax numbers starting with it, names containing its
   * words, and names sharing most of its letter trigrams (for typos). Unranked: the caller scores them.
   */
  lookupEntities(text: string, limit: number): Promise<EntityRecord[]>;
  /** Announcements in the filter's order (publication descending, or deadline ascending). */
  listAnnouncements(filter: AnnouncementFilter, page: KeysetPage<DatePosition>): Promise<AnnouncementRecord[]>;
  /** Amendments by date descending then id descending, with derived previous prices. */
  listAmendments(filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<AmendmentRecord[]>;
  /**
   * The amendments of these contracts (derived previous prices included), by contract in the order given, then date,
   * then id.
   */
  contractAmendments(contractIds: readonly number[]): Promise<AmendmentRecord[]>;
  /**
   * The contracts of one contracting process at one source, by id: those with this procedure id, or — for a
   * process known only by a contract (`contractSourceId`) — that contract, if it has no procedure id. Empty when
   * there is none.
   */
  processContracts(source: string, process: ProcessKey): Promise<ContractRecord[]>;
  /** The announcements with these ids, in the order of `ids`; unknown ids are skipped. */
  getAnnouncements(ids: readonly number[]): Promise<AnnouncementRecord[]>;
  /**
   * The submission periods (publication to proposal deadline, in days) of one source's notices published in a date
   * range, counted per procedure type, list of contract types and period; notices without a deadline left out.
   */
  noticePeriods(query: NoticePeriodQuery): Promise<NoticePeriodCount[]>;
  /**
   * The contracts with these ids (summaries, with `announcement_id`), in the order of `ids`; unknown ids are skipped.
   */
  getContracts(ids: readonly number[]): Promise<ContractRecord[]>;
  /**
   * The amendments with these ids (derived previous prices included), in the order of `ids`; unknown ids are skipped.
   */
  getAmendments(ids: readonly number[]): Promise<AmendmentRecord[]>;
  /**
   * Per supplier of `source`'s contracts that name it alone and have a CPV code: its contracting processes and the
   * distinct CPV prefixes of `digits` digits among those contracts (the corpus of R048, docs/integrity.md).
   */
  supplierVarieties(source: string, digits: number): Promise<SupplierVarietyRecord[]>;
  /**
   * Per competitor with a tax number on `source`'s contracts that name one supplier: the contracting processes it
   * bid in and those it won (the corpus of R025, docs/integrity.md).
   */
  tendererBids(source: string): Promise<TendererBidsRecord[]>;
  /**
   * What `keepCorpusStatistic` kept under `key` for procurement version `version` (a corpus query's answer, kept
   * across processes); undefined when nothing is kept for that version.
   */
  keptCorpusStatistic(key: string, version: number): Promise<unknown>;
  /** Keeps a corpus query's answer (JSON-serialisable) under `key` for `version`, over an older version's. */
  keepCorpusStatistic(key: string, version: number, value: unknown): Promise<void>;
  /**
   * The id, price, dates and sole supplier of a buyer's contracts at a source, published from `from` to `to`
   * (inclusive) or, `undated`, without a publication date; publication date descending, then id descending.
   */
  buyerPrices(
    source: string,
    buyer: string,
    dates: { from: string; to: string } | 'undated',
  ): Promise<BuyerPriceRecord[]>;
  /** The source and buyers' tax numbers of these contracts, in id order (detection's integrity scope). */
  contractBuyers(ids: readonly number[]): Promise<ContractBuyersRecord[]>;
  /** The ids of `source`'s contracts on which any of `nifs` has `role`, ascending. */
  contractIdsByParty(
    source: string,
    role: 'buyer' | 'supplier' | 'competitor',
    nifs: readonly string[],
  ): Promise<number[]>;
  /**
   * The contracts that carry a notice, with its procedure type and contract types: of the notices with these ids,
   * or of a source's notices published in a year (YYYY).
   */
  noticeContracts(
    scope: { announcementIds: readonly number[] } | { source: string; year: string },
  ): Promise<NoticeContract[]>;
}

/**
 * The change journal (see ChangeEntry) and consumers' watermarks. Procurement writes, observation writes and
 * signal writes append to the journal in their own transaction, so a consumer that stores its watermark in the
 * same transaction as its output never misses an entry and never processes one twice.
 */
export interface JournalStore {
  /** Entries with seq > `afterSeq`, ascending, at most `limit`; only of `kinds` when given. */
  readChanges(afterSeq: number, limit: number, kinds?: readonly ChangeKind[]): Promise<ChangeEntry[]>;
  /** Entries with seq < `beforeSeq`, newest first, at most `limit`; only of `kinds` when given. */
  readChangesBefore(beforeSeq: number, limit: number, kinds?: readonly ChangeKind[]): Promise<ChangeEntry[]>;
  /** The highest seq so far (0 when empty). */
  lastChangeSeq(): Promise<number>;
  /**
   * The entries of items (not observations) dated before `date`, with the first and last such date: what the alert
   * window leaves out (the console's preview says so). Reads the whole journal: for a person's question, not a loop.
   */
  changesDatedBefore(date: string): Promise<{ count: number; first: string | null; last: string | null }>;
  /** A consumer's saved position (`detect:procurement`, `detect:sweep`, …); null before its first save. */
  getWatermark(name: string): Promise<string | null>;
  /** Replaces a consumer's position (last write wins). */
  setWatermark(name: string, value: string): Promise<void>;
}

export interface SignalWriteStore {
  /**
   * Upserts signals by key in one transaction, together with `watermark` when given. A signal whose fields
   * (evidence and subject included) and case are unchanged is not touched. A new one gets first_seen_at =
   * last_seen_at = `now`; a changed one last_seen_at = `now`. Each inserted or changed signal appends a `signal`
   * journal entry. Each signal's case (by key) is created when missing, the signal linked to it (a signal is in
   * at most one case: a changed case key moves it), and the case marked pending for `pendingCases`.
   */
  writeSignals(batch: {
    signals: readonly SignalInput[];
    now: string;
    watermark?: { name: string; value: string };
  }): Promise<SignalWriteSummary>;
  /** Signals by key (unknown keys skipped), by id, from the primary. */
  getSignalsByKeys(keys: readonly string[]): Promise<SignalRecord[]>;
  /** Signals by id, in the order of `ids`; unknown ids skipped; from the primary. */
  getSignals(ids: readonly number[]): Promise<SignalRecord[]>;
  /** `getSignals` with what the alert matcher reads of each (MatchableSignal), not the texts that fill the row. */
  getMatchableSignals(ids: readonly number[]): Promise<MatchableSignal[]>;
  /** Cases marked pending by writeSignals, by id ascending, at most `limit`, with their events and signals. */
  pendingCases(limit: number): Promise<PendingCase[]>;
  /**
   * Writes computed cases, appends their events and clears their pending marks, in one transaction: only the mark
   * pendingCases handed out, so a case a signal write touched since stays pending. Fails (and writes nothing)
   * on an unknown case id. Not idempotent for events: each call appends them.
   */
  saveCases(updates: readonly CaseUpdate[]): Promise<void>;
  /** The id of the case with this key, if any. */
  findCaseId(key: string): Promise<number | undefined>;
}

export interface SignalReadStore {
  /** By last_seen_at descending then id descending. */
  listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]>;
  getSignal(id: number): Promise<SignalRecord | undefined>;
  /** Computed cases (never-computed ones are left out) by last_seen_at descending then id descending. */
  listCases(filter: CaseFilter, page: KeysetPage<InstantPosition>): Promise<CaseRecord[]>;
  /**
   * A computed case with its events (oldest first) and linked signals (by id); undefined when unknown or never
   * computed.
   */
  getCase(id: number): Promise<CaseDetailRecord | undefined>;
  /**
   * Per municipality (and one row for none), the contracts of `source` placed there as their signals are filed
   * (detect/places.ts) and, per integrity type, how many of them carry an `integrity` signal of that type not
   * withdrawn (key `integrity:<type>:<source>:<source id>`), with the ids of its `sample` newest contracts (by id;
   * none when 0). Only municipalities with a contract or a flag appear.
   */
  integrityFlagCounts(source: string, sample?: number): Promise<IntegrityPlaceCount[]>;
}

export interface AlertStore {
  /** Upserts templates by key (migrate seeds them); ids stay stable; an unchanged template is not rewritten. */
  saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void>;
  /** By id. */
  listAlertTemplates(): Promise<AlertTemplateRecord[]>;
  /** A new rule, enabled, with matched_seq 0. */
  createAlertRule(input: AlertRuleInput): Promise<AlertRuleRecord>;
  getAlertRule(id: number): Promise<AlertRuleRecord | undefined>;
  /** By id ascending. */
  listAlertRules(filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]>;
  /** False when there is no such rule; idempotent (the data version moves only on a change). */
  setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean>;
  /**
   * Rewrites a rule's name and definition; `rematch` also sets its `matched_seq` back to 0 (its recorded matches
   * stay). False when there is no such rule.
   */
  updateAlertRule(id: number, edit: AlertRuleEdit, rematch: boolean): Promise<boolean>;
  /** Deletes a rule and its recorded matches, in one transaction; false when there is no such rule. */
  deleteAlertRule(id: number): Promise<boolean>;
  /**
   * Records matches — a (rule, item_key) pair already recorded is skipped, never written twice — and sets
   * `matched_seq` of the given rules, in one transaction.
   */
  recordAlertMatches(batch: {
    matches: readonly AlertMatchInput[];
    matchedSeq: readonly { ruleId: number; seq: number }[];
  }): Promise<{ inserted: number; skipped: number }>;
  /** By matched_at descending then id descending. */
  listAlertMatches(filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): Promise<AlertMatchRecord[]>;
  /** Per rule of the account, its matches since the instant and the newest one's (signals/alert-match-counts.ts). */
  alertMatchCounts(accountId: number, since: string): Promise<RuleMatchCount[]>;
  getAlertMatch(id: number): Promise<AlertMatchRecord | undefined>;
  /** Sets a match's status to dismissed; false when there is no such match or it was dismissed already. */
  dismissAlertMatch(id: number): Promise<boolean>;
  /** Sets a dismissed match's status back to matched; false when there is no such match or it was not dismissed. */
  restoreAlertMatch(id: number): Promise<boolean>;
  /** Sets the rule's feed token (its hash), replacing the one it had (docs/alerts.md, "Feeds"). */
  setAlertFeedToken(ruleId: number, tokenHash: string, now: string): Promise<void>;
  /** Removes the rule's feed token; false when it had none. */
  revokeAlertFeed(ruleId: number): Promise<boolean>;
  /** The rule whose feed token hashes to `tokenHash`, if any. */
  findAlertFeedRule(tokenHash: string): Promise<number | undefined>;
}

export interface Store
  extends AccessStore,
    UsageStore,
    ReferenceStore,
    ObservationStore,
    ProcurementWriteStore,
    ProcurementReadStore,
    JournalStore,
    SignalWriteStore,
    SignalReadStore,
    AlertStore {
  /**
   * Creates or upgrades the schema: each pending migration (the dialect's below version 100, those written once
   * from 100 on) in its own transaction, recorded in `schema_migrations`; idempotent, and safe when several
   * instances start at once (PostgreSQL: under a session lock). Resolves with the migrations this call applied.
   */
  migrate(): Promise<readonly AppliedMigration[]>;
  /**
   * A number that grows whenever data served to callers changes (bumped inside the write's transaction), so caches know
   * to drop.
   */
  dataVersion(): Promise<number>;
  /**
   * A number that grows whenever the procurement records change (contracts, notices, amendments, their parties, the
   * CPV catalogue; the data version moves with it): what the integrity corpus statistics are computed from, so that
   * a signal, a case or an alert match written does not make them be computed again.
   */
  procurementVersion(): Promise<number>;
  /** A per-installation random secret, created at first use; every instance gets the first one stored. */
  secret(name: string): Promise<string>;
  /** The company-agent host's records. */
  readonly agents: AgentHostStore;
  /** The account console's records: users, sessions, licences, daily usage (docs/console.md). */
  readonly console: ConsoleStore;
  /** The OAuth authorization server's records: clients, grants, codes, tokens, sessions, keys (docs/oauth.md). */
  readonly oauth: OAuthStore;
  /** The pipeline's leases and the status of its steps (docs/pipeline.md). */
  readonly pipeline: PipelineStore;
  /** Webhook endpoints, their secrets, the outbox of deliveries and their attempts (docs/webhooks.md). */
  readonly webhooks: WebhookStore;
  close(): Promise<void>;
}
