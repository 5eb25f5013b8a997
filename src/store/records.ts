/** The records the store holds, as handlers and ingest see them (never as rows of one dialect). */
import type { Domain, Scope } from '../lib/domains.js';

export interface PlanRecord {
  code: string;
  name: string;
  api_access: boolean;
  domains: Domain[];
  raw_values: boolean;
  /** Whether alert matches carry the AI judge annotation. */
  judge: boolean;
  requests_per_minute: number | null;
  requests_per_month: number | null;
  history_years: number | null;
  alerts_history_days: number | null;
}

export interface AccountRecord {
  id: number;
  name: string;
  plan_code: string;
  beta: boolean;
  created_at: string;
}

export interface ApiKeyRecord {
  id: number;
  account_id: number;
  /** The public part of the secret used to find the key; never enough to use it. */
  lookup: string;
  /** SHA-256 of the whole secret, hex. The secret itself is never stored. */
  hash: string;
  label: string | null;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** What creating a key stores: its record without the fields the store assigns, plus the creation time. */
export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'revoked_at' | 'created_at'> & { now: string };

/** A key with what authentication needs to decide, read in one go. */
export interface KeyGrant {
  key: ApiKeyRecord;
  account: AccountRecord;
  plan: PlanRecord;
}

export interface MunicipalityRecord {
  id: number;
  code: string;
  slug: string;
  name: string;
  district: string;
  nuts_ii: string;
  nuts_iii: string;
  nuts_iii_code: string;
  island: string | null;
  population_2021: number;
  area_km2: number;
  nif: string;
}

export type Treatment = 'raw' | 'derived' | 'estimated' | 'normalized';
export type Frequency = 'annual' | 'monthly';

export interface IndicatorRecord {
  key: string;
  name: string;
  name_pt: string;
  category: string;
  unit: string;
  unit_display: string | null;
  direction: string;
  source: string | null;
  country_code: string;
  value_domain: string;
  treatment: Exclude<Treatment, 'normalized'>;
  summary: string | null;
  summary_pt: string | null;
  currency_code: string | null;
  scale_factor: number;
  per_capita: boolean;
  unit_description: string | null;
  frequency: Frequency;
}

/** One observation: an indicator's value for one municipality at one reference date. */
export interface ObservationRow {
  municipality_id: number;
  reference_date: string;
  value: number | null;
  /** 0–100 position of the value among all municipalities at that reference date (computed at ingest). */
  value_norm: number | null;
  treatment: Exclude<Treatment, 'normalized'>;
}

export interface IndicatorObservationRow extends ObservationRow {
  indicator: string;
}

export interface ObservationInput {
  municipality_id: number;
  reference_date: string;
  value: number | null;
  treatment: Exclude<Treatment, 'normalized'>;
}

/** What a write did, counted in records: new, changed, and given again unchanged (not rewritten). */
/** What an indicator's series covers: points, municipalities with a point, first and last reference dates. */
export interface SeriesCoverage {
  indicator: string;
  observations: number;
  municipalities: number;
  first_date: string;
  last_date: string;
}

export interface WriteSummary {
  inserted: number;
  updated: number;
  unchanged: number;
}
