/**
 * The scale-out store: PostgreSQL through `pg` pools, a primary for writes and (optionally) a replica for reads.
 * Same records and semantics as the SQLite store, method for method: the same tests run on both.
 */

import { randomBytes } from 'node:crypto';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import { ConsoleSqlStore } from '../console/console-sql-store.js';
import { postgresConsoleSql } from '../console/postgres-console-sql.js';
import { oauthSqlOver } from '../oauth/console-sql-oauth.js';
import { OAuthSqlStore } from '../oauth/oauth-sql-store.js';
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
} from '../procurement-queries.js';
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractDetailRecord,
  ContractRecord,
  CpvRecord,
  EntityRecord,
} from '../procurement-records.js';
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
  WriteSummary,
} from '../records.js';
import { toAccount, toKey, toPlan } from '../shared/access-rows.js';
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
import type { AlertMatchFilter, AlertRuleFilter, CaseFilter, InstantPosition, SignalFilter } from '../signal-queries.js';
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
} from '../signal-records.js';
import type { ProcurementBatch, ProcurementBatchSummary, SeriesQuery, Store } from '../store.js';
import { AccessVersionWatch, bumpAccessVersion } from './access-version.js';
import { PostgresAgentHostStore } from './agents/agent-host-store.js';
import { bumpDataVersion } from './data-version.js';
import { closePools, inTransaction, openPools, type Pools, type Row, type Sql, sqlOn } from './db.js';
import { applyMigrations } from './migrate.js';
import { writeObservations } from './observations.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { getAmendments, listAmendments } from './procurement/amendment-rows.js';
import { listAnnouncements, loadAnnouncements } from './procurement/announcement-read.js';
import { writeBatch } from './procurement/batch.js';
import { listContractIds } from './procurement/contract-list.js';
import { loadContractDetail, loadContracts } from './procurement/contract-rows.js';
import { saveCpvs } from './procurement/cpv-write.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { entityCounterparts, entityYears, getEntity, listEntities } from './procurement/entity-read.js';
import { loadContractAmendments, loadProcessContracts } from './procurement/process-read.js';
import { flushRollups, refreshEntityTotals } from './procurement/rollups.js';
import { POSTGRES_COLUMNS } from './procurement/rows.js';
import { saveRows } from './save-rows.js';
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
import { getWatermark, lastChangeSeq, readChanges, setWatermark } from './signals/journal.js';
import { listSignalIds } from './signals/signal-list.js';
import { loadSignals, loadSignalsByKeys } from './signals/signal-rows.js';
import { writeSignals } from './signals/signal-write.js';

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

export class PostgresStore implements Store {
  readonly #pools: Pools;
  /** Statements on the primary, outside any transaction. */
  readonly #primary: Sql;
  /** Statements on the replica (the primary when there is none). */
  readonly #read: Sql;

  /** The company-agent host's records (SQL in ./agents/). */
  readonly agents: PostgresAgentHostStore;
  /** The account console's records (SQL shared with SQLite in ../console/). */
  readonly console: ConsoleSqlStore;
  /** The OAuth authorization server's records (SQL shared with SQLite in ../oauth/). */
  readonly oauth: OAuthSqlStore;

  /** The access version, heard through LISTEN (access-version.ts). */
  readonly #access: AccessVersionWatch;

  constructor(pools: Pools, url: string) {
    this.#pools = pools;
    this.#primary = sqlOn(pools.primary);
    this.#read = sqlOn(pools.replica);
    this.agents = new PostgresAgentHostStore(this.#primary);
    const shared = postgresConsoleSql(pools.primary);
    this.console = new ConsoleSqlStore(shared);
    this.oauth = new OAuthSqlStore(oauthSqlOver(shared), () => bumpAccessVersion(this.#primary));
    this.#access = new AccessVersionWatch(url, this.#primary);
  }

  #transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return inTransaction(this.#pools.primary, (sql) => work(sql));
  }

  async migrate(): Promise<void> {
    await applyMigrations(this.#pools.primary);
  }

  async dataVersion(): Promise<number> {
    const [row] = await this.#read("SELECT value FROM meta WHERE key = 'data_version'");
    return Number(row?.value ?? 0);
  }

  async secret(name: string): Promise<string> {
    const key = `secret:${name}`;
    // Two statements: the second sees the value of whichever instance inserted first.
    await this.#primary('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      key,
      randomBytes(32).toString('base64url'),
    ]);
    const [row] = await this.#primary('SELECT value FROM meta WHERE key = $1', [key]);
    return String(row.value);
  }

  accessVersion(): Promise<number> {
    return this.#access.current();
  }

  async close(): Promise<void> {
    await this.#access.close();
    await closePools(this.#pools);
  }

  // ── plans, accounts, keys ─────────────────────────────────────────────────

  async listPlans(): Promise<PlanRecord[]> {
    return (await this.#read('SELECT * FROM plans ORDER BY code')).map((row) => toPlan(row, POSTGRES_COLUMNS));
  }

  async getPlan(code: string): Promise<PlanRecord | undefined> {
    const [row] = await this.#read('SELECT * FROM plans WHERE code = $1', [code]);
    return row && toPlan(row, POSTGRES_COLUMNS);
  }

  async savePlan(plan: PlanRecord): Promise<void> {
    await this.#primary(
      `INSERT INTO plans (code, name, api_access, domains, raw_values, judge, requests_per_minute, requests_per_month, history_years, alerts_history_days)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (code) DO UPDATE SET name = excluded.name, api_access = excluded.api_access, domains = excluded.domains,
         raw_values = excluded.raw_values, judge = excluded.judge, requests_per_minute = excluded.requests_per_minute,
         requests_per_month = excluded.requests_per_month, history_years = excluded.history_years,
         alerts_history_days = excluded.alerts_history_days`,
      [
        plan.code,
        plan.name,
        plan.api_access,
        plan.domains,
        plan.raw_values,
        plan.judge,
        plan.requests_per_minute,
        plan.requests_per_month,
        plan.history_years,
        plan.alerts_history_days,
      ],
    );
  }

  async createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord> {
    const [row] = await this.#primary('INSERT INTO accounts (name, plan_code, beta, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [
      input.name,
      input.plan_code,
      input.beta,
      input.now,
    ]);
    return toAccount(row, POSTGRES_COLUMNS);
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (await this.#read('SELECT * FROM accounts ORDER BY id')).map((row) => toAccount(row, POSTGRES_COLUMNS));
  }

  async getAccount(id: number): Promise<AccountRecord | undefined> {
    const [row] = await this.#read('SELECT * FROM accounts WHERE id = $1', [id]);
    return row && toAccount(row, POSTGRES_COLUMNS);
  }

  async createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    const [row] = await this.#primary(
      `INSERT INTO api_keys (account_id, lookup, hash, label, scopes, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING *`,
      [input.account_id, input.lookup, input.hash, input.label, input.scopes, input.expires_at, input.now],
    );
    return toKey(row, POSTGRES_COLUMNS);
  }

  async listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (await this.#read('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id', [accountId])).map((row) =>
      toKey(row, POSTGRES_COLUMNS),
    );
  }

  async revokeApiKey(id: number, now: string): Promise<boolean> {
    const version = await this.#transaction(async (sql) => {
      const rows = await sql('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id', [now, id]);
      return rows.length === 1 ? bumpAccessVersion(sql) : undefined;
    });
    if (version !== undefined) this.#access.advance(version);
    return version !== undefined;
  }

  async findKeyGrant(lookup: string): Promise<KeyGrant | undefined> {
    // One round trip for what authentication needs: the key, its account and the account's plan.
    const [row] = await this.#read(
      `SELECT to_jsonb(k) AS key, to_jsonb(a) AS account, to_jsonb(p) AS plan
       FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.code = a.plan_code WHERE k.lookup = $1`,
      [lookup],
    );
    if (!row) return undefined;
    return {
      key: toKey(row.key as Row, POSTGRES_COLUMNS),
      account: toAccount(row.account as Row, POSTGRES_COLUMNS),
      plan: toPlan(row.plan as Row, POSTGRES_COLUMNS),
    };
  }

  async listBetaGates(): Promise<string[]> {
    return (await this.#read('SELECT target FROM beta_gates ORDER BY target')).map((r) => String(r.target));
  }

  async setBetaGate(target: string, on: boolean): Promise<void> {
    await this.#transaction(async (sql) => {
      const changed = on
        ? await sql('INSERT INTO beta_gates (target) VALUES ($1) ON CONFLICT DO NOTHING RETURNING target', [target])
        : await sql('DELETE FROM beta_gates WHERE target = $1 RETURNING target', [target]);
      // Gates are held with the reference data in serving processes; the version tells them to re-read.
      if (changed.length > 0) await bumpDataVersion(sql);
    });
  }

  // ── usage ─────────────────────────────────────────────────────────────────

  async getUsage(accountId: number, period: string): Promise<number> {
    // The primary: counters rebuild from it right after persisting what they held.
    const [row] = await this.#primary('SELECT count FROM usage WHERE account_id = $1 AND period = $2', [accountId, period]);
    return Number(row?.count ?? 0);
  }

  async addUsage(entries: readonly { accountId: number; period: string; count: number }[]): Promise<void> {
    // One row per (account, period): an upsert may not touch the same row twice.
    const summed = new Map<string, { accountId: number; period: string; count: number }>();
    for (const e of entries) {
      const key = `${e.accountId}|${e.period}`;
      const held = summed.get(key);
      if (held) held.count += e.count;
      else summed.set(key, { ...e });
    }
    if (summed.size === 0) return;
    const rows = [...summed.values()];
    await this.#primary(
      `INSERT INTO usage (account_id, period, count)
       SELECT * FROM unnest($1::integer[], $2::text[], $3::bigint[])
       ON CONFLICT (account_id, period) DO UPDATE SET count = usage.count + excluded.count`,
      [rows.map((r) => r.accountId), rows.map((r) => r.period), rows.map((r) => r.count)],
    );
  }

  // ── reference data ────────────────────────────────────────────────────────

  async listMunicipalities(): Promise<MunicipalityRecord[]> {
    return (await this.#read('SELECT * FROM municipalities ORDER BY code')) as unknown as MunicipalityRecord[];
  }

  async saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary> {
    return this.#transaction((sql) => saveRows(sql, 'municipalities', 'id', rows as unknown as Row[]));
  }

  async listIndicators(): Promise<IndicatorRecord[]> {
    return (await this.#read('SELECT * FROM indicators ORDER BY key')) as unknown as IndicatorRecord[];
  }

  async saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary> {
    return this.#transaction((sql) => saveRows(sql, 'indicators', 'key', rows as unknown as Row[]));
  }

  async setIndicatorSource(key: string, source: string): Promise<void> {
    await this.#transaction(async (sql) => {
      const changed = await sql('UPDATE indicators SET source = $1 WHERE key = $2 AND source IS DISTINCT FROM $1 RETURNING key', [
        source,
        key,
      ]);
      if (changed.length > 0) await bumpDataVersion(sql);
    });
  }

  // ── observations ──────────────────────────────────────────────────────────

  async series(q: SeriesQuery): Promise<ObservationRow[]> {
    return (await this.#read(
      `SELECT municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = $1 AND municipality_id = $2 AND reference_date >= $3 AND reference_date <= $4 AND reference_date > $5
       ORDER BY reference_date LIMIT $6`,
      [q.indicator, q.municipalityId, q.from ?? '', q.to ?? '9999-12-31', q.after ?? '', q.limit],
    )) as unknown as ObservationRow[];
  }

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

  async countObservations(indicator?: string): Promise<number> {
    const [row] =
      indicator === undefined
        ? await this.#read('SELECT count(*) AS n FROM observations')
        : await this.#read('SELECT count(*) AS n FROM observations WHERE indicator = $1', [indicator]);
    return Number(row.n);
  }

  async writeObservations(
    indicator: string,
    rows: readonly ObservationInput[],
    options: { replace?: boolean } = {},
  ): Promise<WriteSummary> {
    return this.#transaction((sql) => writeObservations(sql, indicator, rows, options));
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  async saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary> {
    return this.#transaction((sql) => saveCpvs(sql, rows));
  }

  async procurementSources(): Promise<ProcurementSourceCount[]> {
    const rows = await this.#read(
      `SELECT source, 'contracts' AS records, count(*) AS n, max(imported_at) AS last FROM contracts GROUP BY source
       UNION ALL SELECT source, 'announcements', count(*), max(imported_at) FROM announcements GROUP BY source
       UNION ALL SELECT source, 'amendments', count(*), max(imported_at) FROM amendments GROUP BY source`,
    );
    return rows.map((r) => ({
      source: String(r.source),
      records: r.records as ProcurementSourceCount['records'],
      count: Number(r.n),
      last_imported_at: r.last === null ? null : String(r.last),
    }));
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

  async countCpvs(): Promise<number> {
    const [row] = await this.#read('SELECT count(*) AS n FROM cpvs');
    return Number(row.n);
  }

  async writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return inTransaction(this.#pools.primary, (sql, client) => writeBatch(sql, client, batch));
  }

  async refreshProcurementRollups(): Promise<void> {
    await this.#transaction(async (sql) => {
      if (await refreshEntityTotals(sql)) await bumpDataVersion(sql);
    });
  }

  async listContracts(filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<ContractRecord[]> {
    return loadContracts(this.#read, await listContractIds(this.#read, filter, page));
  }

  async getContract(id: number): Promise<ContractDetailRecord | undefined> {
    return loadContractDetail(this.#read, id);
  }

  async getContracts(ids: readonly number[]): Promise<ContractRecord[]> {
    return loadContracts(this.#read, ids);
  }

  async aggregateContracts(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateContracts(this.#read, query);
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
    return listAmendments(this.#read, filter, page);
  }

  async contractAmendments(contractIds: readonly number[]): Promise<AmendmentRecord[]> {
    return loadContractAmendments(this.#read, contractIds);
  }

  async processContracts(source: string, process: ProcessKey): Promise<ContractRecord[]> {
    return loadProcessContracts(this.#read, source, process);
  }

  async getAnnouncements(ids: readonly number[]): Promise<AnnouncementRecord[]> {
    return loadAnnouncements(this.#read, ids);
  }

  async getAmendments(ids: readonly number[]): Promise<AmendmentRecord[]> {
    return getAmendments(this.#read, ids);
  }

  // ── journal, signals, cases, alerts (SQL in ./signals/) ──────────────────
  // Consumers (detectors, the alert matcher) read the journal, signals and cases they are about to process from
  // the primary: a replica may lag behind the watermark they keep there.

  async readChanges(afterSeq: number, limit: number): Promise<ChangeEntry[]> {
    return readChanges(this.#primary, afterSeq, limit);
  }

  async lastChangeSeq(): Promise<number> {
    return lastChangeSeq(this.#primary);
  }

  async getWatermark(name: string): Promise<string | null> {
    return getWatermark(this.#primary, name);
  }

  async setWatermark(name: string, value: string): Promise<void> {
    await setWatermark(this.#primary, name, value);
  }

  async writeSignals(batch: {
    signals: readonly SignalInput[];
    now: string;
    watermark?: { name: string; value: string };
  }): Promise<SignalWriteSummary> {
    return this.#transaction(async (sql) => {
      const summary = await writeSignals(sql, batch.signals, batch.now);
      if (batch.watermark) await setWatermark(sql, batch.watermark.name, batch.watermark.value);
      if (summary.inserted + summary.updated > 0) await bumpDataVersion(sql);
      return summary;
    });
  }

  async getSignalsByKeys(keys: readonly string[]): Promise<SignalRecord[]> {
    return loadSignalsByKeys(this.#primary, keys);
  }

  async getSignals(ids: readonly number[]): Promise<SignalRecord[]> {
    return loadSignals(this.#primary, ids);
  }

  /** The pending mark of each case handed out by pendingCases, which saveCases clears (see ./signals/case-write.ts). */
  readonly #pendingMarks: PendingMarks = new Map();

  async pendingCases(limit: number): Promise<PendingCase[]> {
    return pendingCases(this.#primary, limit, this.#pendingMarks);
  }

  async saveCases(updates: readonly CaseUpdate[]): Promise<void> {
    await this.#transaction(async (sql) => {
      await saveCases(sql, updates, this.#pendingMarks);
      if (updates.length > 0) await bumpDataVersion(sql);
    });
    for (const update of updates) this.#pendingMarks.delete(update.id);
  }

  async findCaseId(key: string): Promise<number | undefined> {
    return findCaseId(this.#primary, key);
  }

  async listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]> {
    return loadSignals(this.#read, await listSignalIds(this.#read, filter, page));
  }

  async getSignal(id: number): Promise<SignalRecord | undefined> {
    return (await loadSignals(this.#read, [id]))[0];
  }

  async listCases(filter: CaseFilter, page: KeysetPage<InstantPosition>): Promise<CaseRecord[]> {
    return listCases(this.#read, filter, page);
  }

  async getCase(id: number): Promise<CaseDetailRecord | undefined> {
    return getCase(this.#read, id);
  }

  async saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void> {
    await this.#transaction(async (sql) => {
      if (await saveAlertTemplates(sql, rows)) await bumpDataVersion(sql);
    });
  }

  async listAlertTemplates(): Promise<AlertTemplateRecord[]> {
    return listAlertTemplates(this.#read);
  }

  async createAlertRule(input: AlertRuleInput): Promise<AlertRuleRecord> {
    return this.#transaction(async (sql) => {
      const rule = await createAlertRule(sql, input);
      await bumpDataVersion(sql);
      return rule;
    });
  }

  async getAlertRule(id: number): Promise<AlertRuleRecord | undefined> {
    return getAlertRule(this.#read, id);
  }

  async listAlertRules(filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]> {
    return listAlertRules(this.#read, filter, page);
  }

  async setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean> {
    return this.#transaction(async (sql) => {
      const { found, changed } = await setAlertRuleEnabled(sql, id, enabled);
      if (changed) await bumpDataVersion(sql);
      return found;
    });
  }

  async recordAlertMatches(batch: {
    matches: readonly AlertMatchInput[];
    matchedSeq: readonly { ruleId: number; seq: number }[];
  }): Promise<{ inserted: number; skipped: number }> {
    return this.#transaction(async (sql) => {
      const counts = await recordAlertMatches(sql, batch.matches, batch.matchedSeq);
      if (counts.inserted > 0) await bumpDataVersion(sql);
      return counts;
    });
  }

  async listAlertMatches(filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): Promise<AlertMatchRecord[]> {
    return listAlertMatches(this.#read, filter, page);
  }

  async getAlertMatch(id: number): Promise<AlertMatchRecord | undefined> {
    return getAlertMatch(this.#read, id);
  }

  async dismissAlertMatch(id: number): Promise<boolean> {
    return this.#transaction(async (sql) => {
      const dismissed = await dismissAlertMatch(sql, id);
      if (dismissed) await bumpDataVersion(sql);
      return dismissed;
    });
  }
}
