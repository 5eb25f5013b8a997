/**
 * The store interface. Handlers, channels, ingest and the CLI speak to this only; SQL of one dialect stays
 * inside its implementation (`store/sqlite`, later `store/postgres`). Every method is async so that a
 * networked implementation fits behind the same signature.
 */
import type { Scope } from '../domains.js';
import type {
  AccountRecord,
  ApiKeyRecord,
  IndicatorObservationRow,
  IndicatorRecord,
  KeyGrant,
  MunicipalityRecord,
  ObservationInput,
  ObservationRow,
  PlanRecord,
  WriteSummary,
} from './records.js';

export interface AccessStore {
  listPlans(): Promise<PlanRecord[]>;
  getPlan(code: string): Promise<PlanRecord | undefined>;
  /** Creates or replaces a plan. */
  savePlan(plan: PlanRecord): Promise<void>;

  createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord>;
  listAccounts(): Promise<AccountRecord[]>;
  getAccount(id: number): Promise<AccountRecord | undefined>;

  createApiKey(input: {
    account_id: number;
    lookup: string;
    hash: string;
    label: string | null;
    scopes: Scope[];
    expires_at: string | null;
    now: string;
  }): Promise<ApiKeyRecord>;
  listApiKeys(accountId: number): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when there is no such key or it was already revoked. */
  revokeApiKey(id: number, now: string): Promise<boolean>;
  /** The key with this lookup part, its account and plan. */
  findKeyGrant(lookup: string): Promise<KeyGrant | undefined>;

  /** Operation names and domains that only beta accounts may call. */
  listBetaGates(): Promise<string[]>;
  setBetaGate(target: string, on: boolean): Promise<void>;
}

export interface UsageStore {
  /** Committed requests of an account in a monthly period (`YYYY-MM`). */
  getUsage(accountId: number, period: string): Promise<number>;
  /** Adds counts to the persisted usage, atomically for the whole batch. */
  addUsage(entries: readonly { accountId: number; period: string; count: number }[]): Promise<void>;
}

export interface ReferenceStore {
  listMunicipalities(): Promise<MunicipalityRecord[]>;
  saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary>;
  listIndicators(): Promise<IndicatorRecord[]>;
  saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary>;
  /** Sets the `source` label of an indicator (an importer does when its data replaces another source). */
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
  /** The latest point of each municipality that has one, for one indicator. */
  latestPerMunicipality(indicator: string): Promise<ObservationRow[]>;
  /** The latest point of every indicator for one municipality. */
  latestForMunicipality(municipalityId: number): Promise<IndicatorObservationRow[]>;
  /**
   * Writes observations of one indicator (insert or update by municipality and reference date) and
   * recomputes the normalized values of the reference dates touched. With `replace`, the indicator's
   * other observations are removed first, in the same transaction.
   */
  writeObservations(
    indicator: string,
    rows: readonly ObservationInput[],
    options?: { replace?: boolean },
  ): Promise<WriteSummary>;
  countObservations(indicator?: string): Promise<number>;
}

export interface Store extends AccessStore, UsageStore, ReferenceStore, ObservationStore {
  /** Creates or upgrades the schema and seeds the plans; idempotent. */
  migrate(): Promise<void>;
  /** A number that changes whenever data served to callers changes, so caches know to drop. */
  dataVersion(): Promise<number>;
  /** A per-installation random secret (created at migration), e.g. to sign cursors. */
  secret(name: string): Promise<string>;
  close(): Promise<void>;
}
