/**
 * The embedded store: one SQLite file through better-sqlite3 (synchronous, WAL). The async signatures of
 * `Store` are kept so that callers never know which implementation they hold.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import { consoleMigrations } from '../console/console-migration.js';
import { ConsoleSqlStore } from '../console/console-sql-store.js';
import { sqliteConsoleSql } from '../console/sqlite-console-sql.js';
import { oauthSqlOver } from '../oauth/console-sql-oauth.js';
import { oauthMigration } from '../oauth/oauth-migration.js';
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
import { SqliteAgentHostStore } from './agents/agent-host-store.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { aggregateContracts } from './procurement/aggregate.js';
import { listAmendments, loadAmendments } from './procurement/amendment-rows.js';
import { listAnnouncements, loadAnnouncements } from './procurement/announcement-read.js';
import { writeBatch } from './procurement/batch.js';
import { listContractIds } from './procurement/contract-list.js';
import { loadContractDetail, loadContracts } from './procurement/contract-rows.js';
import { saveCpvs } from './procurement/cpv-write.js';
import { lookupEntityCandidates } from './procurement/entity-lookup.js';
import { entityCounterparts, entityYears, getEntity, listEntities } from './procurement/entity-read.js';
import { loadContractAmendments, loadProcessContracts } from './procurement/process-read.js';
import { flushRollups, refreshEntityTotals } from './procurement/rollups.js';
import { SQLITE_COLUMNS, type Sql } from './procurement/sql.js';
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
import { findCaseId, forgetMarks, type PendingMarks, pendingCases, saveCases } from './signals/case-write.js';
import { getWatermark, lastChangeSeq, ObservationChanges, readChanges, setWatermark } from './signals/journal.js';
import { listSignalIds } from './signals/signal-list.js';
import { loadSignals, loadSignalsByKeys } from './signals/signal-rows.js';
import { writeSignals } from './signals/signal-write.js';

type Row = Record<string, unknown>;

export function openSqliteStore(path: string): SqliteStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // 64 MB of page cache (the default is 2 MB): bulk loads at a million contracts touch index pages all over.
  db.pragma('cache_size = -65536');
  return new SqliteStore(db);
}

export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  /** The company-agent host's records (SQL in ./agents/). */
  readonly agents: SqliteAgentHostStore;
  /** The account console's records (SQL shared with PostgreSQL in ../console/). */
  readonly console: ConsoleSqlStore;
  /** The OAuth authorization server's records (SQL shared with PostgreSQL in ../oauth/). */
  readonly oauth: OAuthSqlStore;

  constructor(db: Database.Database) {
    this.#db = db;
    this.agents = new SqliteAgentHostStore(db);
    const shared = sqliteConsoleSql(db);
    this.console = new ConsoleSqlStore(shared);
    this.oauth = new OAuthSqlStore(oauthSqlOver(shared), async () =>
      db
        .prepare(
          "INSERT INTO meta (key, value) VALUES ('access_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        )
        .run(),
    );
  }

  /** Prepared statements are cached by their text: preparing is the costly part of a query. */
  #sql(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  /** The statement cache as the SQL modules (./procurement/, ./signals/) take it. */
  readonly #prepared: Sql = (text) => this.#sql(text);

  async migrate(): Promise<void> {
    this.#db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = new Set((this.#db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => Number(r.version)));
    for (const migration of [...SQLITE_MIGRATIONS, ...consoleMigrations('sqlite'), oauthMigration('sqlite')]) {
      if (applied.has(migration.version)) continue;
      this.#db.transaction(() => {
        this.#db.exec(migration.sql);
        this.#db
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, new Date().toISOString());
      })();
    }
    this.#sql("INSERT OR IGNORE INTO meta (key, value) VALUES ('data_version', '1')").run();
  }

  async dataVersion(): Promise<number> {
    const row = this.#sql("SELECT value FROM meta WHERE key = 'data_version'").get() as Row | undefined;
    return Number(row?.value ?? 0);
  }

  #bumpDataVersion(): void {
    this.#sql("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'data_version'").run();
  }

  async secret(name: string): Promise<string> {
    const key = `secret:${name}`;
    this.#sql('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(key, randomBytes(32).toString('base64url'));
    return String((this.#sql('SELECT value FROM meta WHERE key = ?').get(key) as Row).value);
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  // ── plans, accounts, keys ─────────────────────────────────────────────────

  async listPlans(): Promise<PlanRecord[]> {
    return (this.#sql('SELECT * FROM plans ORDER BY code').all() as Row[]).map((row) => toPlan(row, SQLITE_COLUMNS));
  }

  async getPlan(code: string): Promise<PlanRecord | undefined> {
    const row = this.#sql('SELECT * FROM plans WHERE code = ?').get(code) as Row | undefined;
    return row && toPlan(row, SQLITE_COLUMNS);
  }

  async savePlan(plan: PlanRecord): Promise<void> {
    this.#sql(
      `INSERT INTO plans (code, name, api_access, domains, raw_values, judge, requests_per_minute, requests_per_month, history_years, alerts_history_days)
       VALUES (@code, @name, @api_access, @domains, @raw_values, @judge, @requests_per_minute, @requests_per_month, @history_years, @alerts_history_days)
       ON CONFLICT (code) DO UPDATE SET name = excluded.name, api_access = excluded.api_access, domains = excluded.domains,
         raw_values = excluded.raw_values, judge = excluded.judge, requests_per_minute = excluded.requests_per_minute,
         requests_per_month = excluded.requests_per_month, history_years = excluded.history_years,
         alerts_history_days = excluded.alerts_history_days`,
    ).run({
      ...plan,
      api_access: Number(plan.api_access),
      raw_values: Number(plan.raw_values),
      judge: Number(plan.judge),
      domains: JSON.stringify(plan.domains),
    });
  }

  async createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord> {
    const result = this.#sql('INSERT INTO accounts (name, plan_code, beta, created_at) VALUES (?, ?, ?, ?)').run(
      input.name,
      input.plan_code,
      Number(input.beta),
      input.now,
    );
    return (await this.getAccount(Number(result.lastInsertRowid))) as AccountRecord;
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (this.#sql('SELECT * FROM accounts ORDER BY id').all() as Row[]).map((row) => toAccount(row, SQLITE_COLUMNS));
  }

  async getAccount(id: number): Promise<AccountRecord | undefined> {
    const row = this.#sql('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return row && toAccount(row, SQLITE_COLUMNS);
  }

  async createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    const result = this.#sql(
      'INSERT INTO api_keys (account_id, lookup, hash, label, scopes, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(input.account_id, input.lookup, input.hash, input.label, JSON.stringify(input.scopes), input.expires_at, input.now);
    return toKey(this.#sql('SELECT * FROM api_keys WHERE id = ?').get(Number(result.lastInsertRowid)) as Row, SQLITE_COLUMNS);
  }

  async listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (this.#sql('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id').all(accountId) as Row[]).map((row) =>
      toKey(row, SQLITE_COLUMNS),
    );
  }

  async revokeApiKey(id: number, now: string): Promise<boolean> {
    return this.#db.transaction(() => {
      const revoked = this.#sql('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
      if (revoked) {
        this.#sql(
          "INSERT INTO meta (key, value) VALUES ('access_version', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        ).run();
      }
      return revoked;
    })();
  }

  /** One row read (microseconds): every process on the file sees a revocation at its next request. */
  async accessVersion(): Promise<number> {
    const row = this.#sql("SELECT value FROM meta WHERE key = 'access_version'").get() as Row | undefined;
    return Number(row?.value ?? 0);
  }

  async findKeyGrant(lookup: string): Promise<KeyGrant | undefined> {
    const key = this.#sql('SELECT * FROM api_keys WHERE lookup = ?').get(lookup) as Row | undefined;
    if (!key) return undefined;
    const account = this.#sql('SELECT * FROM accounts WHERE id = ?').get(key.account_id) as Row;
    const plan = this.#sql('SELECT * FROM plans WHERE code = ?').get(account.plan_code) as Row;
    return { key: toKey(key, SQLITE_COLUMNS), account: toAccount(account, SQLITE_COLUMNS), plan: toPlan(plan, SQLITE_COLUMNS) };
  }

  async listBetaGates(): Promise<string[]> {
    return (this.#sql('SELECT target FROM beta_gates ORDER BY target').all() as Row[]).map((r) => String(r.target));
  }

  async setBetaGate(target: string, on: boolean): Promise<void> {
    this.#db.transaction(() => {
      const changed = on
        ? this.#sql('INSERT OR IGNORE INTO beta_gates (target) VALUES (?)').run(target).changes
        : this.#sql('DELETE FROM beta_gates WHERE target = ?').run(target).changes;
      // Gates are held with the reference data in serving processes; the version tells them to re-read.
      if (changed) this.#bumpDataVersion();
    })();
  }

  // ── usage ─────────────────────────────────────────────────────────────────

  async getUsage(accountId: number, period: string): Promise<number> {
    const row = this.#sql('SELECT count FROM usage WHERE account_id = ? AND period = ?').get(accountId, period) as Row | undefined;
    return Number(row?.count ?? 0);
  }

  async addUsage(entries: readonly { accountId: number; period: string; count: number }[]): Promise<void> {
    const add = this.#sql(
      `INSERT INTO usage (account_id, period, count) VALUES (?, ?, ?)
       ON CONFLICT (account_id, period) DO UPDATE SET count = count + excluded.count`,
    );
    this.#db.transaction(() => {
      for (const e of entries) add.run(e.accountId, e.period, e.count);
    })();
  }

  // ── reference data ────────────────────────────────────────────────────────

  async listMunicipalities(): Promise<MunicipalityRecord[]> {
    return (this.#sql('SELECT * FROM municipalities ORDER BY code').all() as Row[]).map(toMunicipality);
  }

  async saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary> {
    return this.#saveAll('municipalities', 'id', rows as unknown as Row[]);
  }

  async listIndicators(): Promise<IndicatorRecord[]> {
    return (this.#sql('SELECT * FROM indicators ORDER BY key').all() as Row[]).map(toIndicator);
  }

  async saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary> {
    return this.#saveAll(
      'indicators',
      'key',
      rows.map((r) => ({ ...r, per_capita: Number(r.per_capita) })),
    );
  }

  async setIndicatorSource(key: string, source: string): Promise<void> {
    this.#db.transaction(() => {
      if (this.#sql('UPDATE indicators SET source = ? WHERE key = ? AND source IS NOT ?').run(source, key, source).changes) {
        this.#bumpDataVersion();
      }
    })();
  }

  /** Insert-or-update by primary key, counting what changed; one transaction, one data-version bump. */
  #saveAll(table: string, pk: string, rows: readonly Row[]): WriteSummary {
    const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
    if (rows.length === 0) return summary;
    const columns = Object.keys(rows[0]);
    const select = this.#sql(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${pk} = ?`);
    const insert = this.#sql(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    const update = this.#sql(`UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE ${pk} = @${pk}`);
    this.#db.transaction(() => {
      for (const row of rows) {
        const existing = select.get(row[pk]) as Row | undefined;
        if (!existing) {
          insert.run(row);
          summary.inserted++;
        } else if (columns.some((c) => existing[c] !== row[c])) {
          update.run(row);
          summary.updated++;
        } else {
          summary.unchanged++;
        }
      }
      if (summary.inserted + summary.updated > 0) this.#bumpDataVersion();
    })();
    return summary;
  }

  // ── observations ──────────────────────────────────────────────────────────

  async series(q: SeriesQuery): Promise<ObservationRow[]> {
    return this.#sql(
      `SELECT municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = @indicator AND municipality_id = @municipalityId
         AND reference_date >= @from AND reference_date <= @to AND reference_date > @after
       ORDER BY reference_date LIMIT @limit`,
    ).all({
      indicator: q.indicator,
      municipalityId: q.municipalityId,
      from: q.from ?? '',
      to: q.to ?? '9999-12-31',
      after: q.after ?? '',
      limit: q.limit,
    }) as ObservationRow[];
  }

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

  async countObservations(indicator?: string): Promise<number> {
    const row = (
      indicator === undefined
        ? this.#sql('SELECT count(*) AS n FROM observations').get()
        : this.#sql('SELECT count(*) AS n FROM observations WHERE indicator = ?').get(indicator)
    ) as Row;
    return Number(row.n);
  }

  async writeObservations(
    indicator: string,
    rows: readonly ObservationInput[],
    options: { replace?: boolean } = {},
  ): Promise<WriteSummary> {
    const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
    const select = this.#sql(
      'SELECT value, treatment FROM observations WHERE indicator = ? AND municipality_id = ? AND reference_date = ?',
    );
    const upsert = this.#sql(
      `INSERT INTO observations (indicator, municipality_id, reference_date, value, treatment) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (indicator, municipality_id, reference_date) DO UPDATE SET value = excluded.value, treatment = excluded.treatment`,
    );
    this.#db.transaction(() => {
      let removed = 0;
      const changes = new ObservationChanges();
      if (options.replace) {
        const keep = new Set(rows.map((r) => `${r.municipality_id}|${r.reference_date}`));
        const existing = this.#sql('SELECT municipality_id, reference_date FROM observations WHERE indicator = ?').all(indicator) as Row[];
        const remove = this.#sql('DELETE FROM observations WHERE indicator = ? AND municipality_id = ? AND reference_date = ?');
        for (const e of existing) {
          if (keep.has(`${e.municipality_id}|${e.reference_date}`)) continue;
          removed += remove.run(indicator, e.municipality_id, e.reference_date).changes;
          changes.touch(Number(e.municipality_id), String(e.reference_date));
        }
      }
      for (const r of rows) {
        const old = select.get(indicator, r.municipality_id, r.reference_date) as Row | undefined;
        if (old && old.value === r.value && old.treatment === r.treatment) {
          summary.unchanged++;
          continue;
        }
        upsert.run(indicator, r.municipality_id, r.reference_date, r.value, r.treatment);
        changes.touch(r.municipality_id, r.reference_date);
        if (old) summary.updated++;
        else summary.inserted++;
      }
      if (summary.inserted + summary.updated + removed > 0) {
        changes.append(this.#prepared, indicator);
        this.#normalize(indicator);
        this.#bumpDataVersion();
      }
    })();
    return summary;
  }

  /**
   * value_norm = the value's position between the lowest and highest value of all municipalities at the same
   * reference date, 0 to 100 (50 when all are equal). Recomputed for the whole indicator: cheap next to a load.
   */
  #normalize(indicator: string): void {
    this.#sql(
      `UPDATE observations SET value_norm = CASE
           WHEN observations.value IS NULL THEN NULL
           WHEN s.hi = s.lo THEN 50.0
           ELSE round((observations.value - s.lo) * 100.0 / (s.hi - s.lo), 2) END
       FROM (SELECT reference_date, min(value) AS lo, max(value) AS hi FROM observations
             WHERE indicator = @indicator GROUP BY reference_date) AS s
       WHERE observations.indicator = @indicator AND observations.reference_date = s.reference_date`,
    ).run({ indicator });
  }

  // ── procurement (SQL in ./procurement/) ──────────────────────────────────

  async saveCpvs(rows: readonly CpvRecord[]): Promise<WriteSummary> {
    return this.#db.transaction(() => {
      const summary = saveCpvs(this.#prepared, rows);
      if (summary.inserted + summary.updated > 0) this.#bumpDataVersion();
      return summary;
    })();
  }

  async procurementSources(): Promise<ProcurementSourceCount[]> {
    const rows = this.#sql(
      `SELECT source, 'contracts' AS records, count(*) AS n, max(imported_at) AS last FROM contracts GROUP BY source
       UNION ALL SELECT source, 'announcements', count(*), max(imported_at) FROM announcements GROUP BY source
       UNION ALL SELECT source, 'amendments', count(*), max(imported_at) FROM amendments GROUP BY source`,
    ).all() as Row[];
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

  async countCpvs(): Promise<number> {
    return Number((this.#sql('SELECT count(*) AS n FROM cpvs').get() as Row).n);
  }

  async writeProcurement(batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
    return writeBatch(this.#db, this.#prepared, batch, () => this.#bumpDataVersion());
  }

  async refreshProcurementRollups(): Promise<void> {
    this.#db.transaction(() => {
      if (refreshEntityTotals(this.#prepared)) this.#bumpDataVersion();
    })();
  }

  async listContracts(filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<ContractRecord[]> {
    return loadContracts(this.#prepared, listContractIds(this.#prepared, filter, page));
  }

  async getContract(id: number): Promise<ContractDetailRecord | undefined> {
    return loadContractDetail(this.#prepared, id);
  }

  async aggregateContracts(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateContracts(this.#prepared, query);
  }

  async listEntities(filter: EntityFilter, page: KeysetPage<string>): Promise<EntityRecord[]> {
    return listEntities(this.#prepared, filter, page);
  }

  async getEntity(nif: string): Promise<EntityRecord | undefined> {
    return getEntity(this.#prepared, nif);
  }

  async entityYears(nif: string): Promise<EntityYearRecord[]> {
    return entityYears(this.#prepared, nif);
  }

  async entityCounterparts(nif: string, as: 'buyer' | 'supplier', limit: number): Promise<CounterpartRecord[]> {
    return entityCounterparts(this.#prepared, nif, as, limit);
  }

  async lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return lookupEntityCandidates(this.#prepared, text, limit);
  }

  async listAnnouncements(filter: AnnouncementFilter, page: KeysetPage<DatePosition>): Promise<AnnouncementRecord[]> {
    return listAnnouncements(this.#prepared, filter, page);
  }

  async listAmendments(filter: AmendmentFilter, page: KeysetPage<DatePosition>): Promise<AmendmentRecord[]> {
    return listAmendments(this.#prepared, filter, page);
  }

  async contractAmendments(contractIds: readonly number[]): Promise<AmendmentRecord[]> {
    return loadContractAmendments(this.#prepared, contractIds);
  }

  async processContracts(source: string, process: ProcessKey): Promise<ContractRecord[]> {
    return loadProcessContracts(this.#prepared, source, process);
  }

  async getAnnouncements(ids: readonly number[]): Promise<AnnouncementRecord[]> {
    return loadAnnouncements(this.#prepared, ids);
  }

  async getContracts(ids: readonly number[]): Promise<ContractRecord[]> {
    return loadContracts(this.#prepared, ids);
  }

  async getAmendments(ids: readonly number[]): Promise<AmendmentRecord[]> {
    return loadAmendments(this.#prepared, ids);
  }

  // ── journal, signals, cases, alerts (SQL in ./signals/) ──────────────────

  async readChanges(afterSeq: number, limit: number): Promise<ChangeEntry[]> {
    return readChanges(this.#prepared, afterSeq, limit);
  }

  async lastChangeSeq(): Promise<number> {
    return lastChangeSeq(this.#prepared);
  }

  async getWatermark(name: string): Promise<string | null> {
    return getWatermark(this.#prepared, name);
  }

  async setWatermark(name: string, value: string): Promise<void> {
    setWatermark(this.#prepared, name, value);
  }

  async writeSignals(batch: {
    signals: readonly SignalInput[];
    now: string;
    watermark?: { name: string; value: string };
  }): Promise<SignalWriteSummary> {
    return this.#db.transaction(() => {
      const summary = writeSignals(this.#prepared, batch.signals, batch.now);
      if (batch.watermark) setWatermark(this.#prepared, batch.watermark.name, batch.watermark.value);
      if (summary.inserted + summary.updated > 0) this.#bumpDataVersion();
      return summary;
    })();
  }

  async getSignalsByKeys(keys: readonly string[]): Promise<SignalRecord[]> {
    return loadSignalsByKeys(this.#prepared, keys);
  }

  async getSignals(ids: readonly number[]): Promise<SignalRecord[]> {
    return loadSignals(this.#prepared, ids);
  }

  /** The pending mark of each case handed out by pendingCases, which saveCases clears (see ./signals/case-write.ts). */
  readonly #pendingMarks: PendingMarks = new Map();

  async pendingCases(limit: number): Promise<PendingCase[]> {
    return pendingCases(this.#prepared, limit, this.#pendingMarks);
  }

  async saveCases(updates: readonly CaseUpdate[]): Promise<void> {
    this.#db.transaction(() => {
      saveCases(this.#prepared, updates, this.#pendingMarks);
      if (updates.length > 0) this.#bumpDataVersion();
    })();
    forgetMarks(updates, this.#pendingMarks);
  }

  async findCaseId(key: string): Promise<number | undefined> {
    return findCaseId(this.#prepared, key);
  }

  async listSignals(filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<SignalRecord[]> {
    return loadSignals(this.#prepared, listSignalIds(this.#prepared, filter, page));
  }

  async getSignal(id: number): Promise<SignalRecord | undefined> {
    return loadSignals(this.#prepared, [id])[0];
  }

  async listCases(filter: CaseFilter, page: KeysetPage<InstantPosition>): Promise<CaseRecord[]> {
    return listCases(this.#prepared, filter, page);
  }

  async getCase(id: number): Promise<CaseDetailRecord | undefined> {
    return getCase(this.#prepared, id);
  }

  async saveAlertTemplates(rows: readonly AlertTemplateInput[]): Promise<void> {
    this.#db.transaction(() => {
      if (saveAlertTemplates(this.#prepared, rows)) this.#bumpDataVersion();
    })();
  }

  async listAlertTemplates(): Promise<AlertTemplateRecord[]> {
    return listAlertTemplates(this.#prepared);
  }

  async createAlertRule(input: AlertRuleInput): Promise<AlertRuleRecord> {
    return this.#db.transaction(() => {
      const id = createAlertRule(this.#prepared, input);
      this.#bumpDataVersion();
      return getAlertRule(this.#prepared, id) as AlertRuleRecord;
    })();
  }

  async getAlertRule(id: number): Promise<AlertRuleRecord | undefined> {
    return getAlertRule(this.#prepared, id);
  }

  async listAlertRules(filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]> {
    return listAlertRules(this.#prepared, filter, page);
  }

  async setAlertRuleEnabled(id: number, enabled: boolean): Promise<boolean> {
    return this.#db.transaction(() => {
      const { found, changed } = setAlertRuleEnabled(this.#prepared, id, enabled);
      if (changed) this.#bumpDataVersion();
      return found;
    })();
  }

  async recordAlertMatches(batch: {
    matches: readonly AlertMatchInput[];
    matchedSeq: readonly { ruleId: number; seq: number }[];
  }): Promise<{ inserted: number; skipped: number }> {
    return this.#db.transaction(() => {
      const counts = recordAlertMatches(this.#prepared, batch.matches, batch.matchedSeq);
      if (counts.inserted > 0) this.#bumpDataVersion();
      return counts;
    })();
  }

  async listAlertMatches(filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): Promise<AlertMatchRecord[]> {
    return listAlertMatches(this.#prepared, filter, page);
  }

  async getAlertMatch(id: number): Promise<AlertMatchRecord | undefined> {
    return getAlertMatch(this.#prepared, id);
  }

  async dismissAlertMatch(id: number): Promise<boolean> {
    return this.#db.transaction(() => {
      const dismissed = dismissAlertMatch(this.#prepared, id);
      if (dismissed) this.#bumpDataVersion();
      return dismissed;
    })();
  }
}

function toMunicipality(row: Row): MunicipalityRecord {
  return row as unknown as MunicipalityRecord;
}

function toIndicator(row: Row): IndicatorRecord {
  return { ...(row as unknown as IndicatorRecord), per_capita: row.per_capita === 1 };
}
