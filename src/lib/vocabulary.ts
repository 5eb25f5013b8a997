/**
 * The enumerated values of the resource model (docs/decisions.md, Enumerations), defined once. Schemas publish them as
 * `enum`,
 * the catalogue loader validates against them, docs list them.
 */
export const INDICATOR_CATEGORIES = [
  'demography',
  'economy',
  'employment',
  'education',
  'health',
  'housing',
  'environment',
  'public_finance',
  'procurement',
  'social',
  'territory',
] as const;

export const UNITS = [
  'persons',
  'percent',
  'eur',
  'eur_per_capita',
  'per_1000',
  'index',
  'count',
  'km2',
  'years',
  'ratio',
] as const;

export const DIRECTIONS = ['higher_is_better', 'lower_is_better', 'neutral'] as const;

export const VALUE_DOMAINS = ['count', 'amount', 'rate', 'ratio', 'index', 'signed'] as const;

/**
 * raw: as published by the source; derived: computed from other series; estimated: provisional or
 * interpolated; normalized: the 0–100 index served instead of the value to plans without raw values.
 */
export const TREATMENTS = ['raw', 'derived', 'estimated', 'normalized'] as const;

/** What a catalogue entry may say; `normalized` only ever describes a served value. */
export const CATALOGUE_TREATMENTS = ['raw', 'derived', 'estimated'] as const;

export const FREQUENCIES = ['annual', 'monthly'] as const;

export type IndicatorCategory = (typeof INDICATOR_CATEGORIES)[number];
export type Unit = (typeof UNITS)[number];
export type Direction = (typeof DIRECTIONS)[number];
export type ValueDomain = (typeof VALUE_DOMAINS)[number];

// Signals, cases and alerts (docs/decisions.md, Enumerations; their rules in docs/signals.md and docs/alerts.md).

/** active: current; expired: its deadline or relevance passed; withdrawn: its source no longer supports it. */
export const SIGNAL_STATUSES = ['active', 'expired', 'withdrawn'] as const;
export const CASE_STATUSES = ['open', 'closed'] as const;
/** The life of a procurement procedure, in order; a case's stage only moves forward along it (or to cancelled). */
export const STAGES = [
  'announced',
  'open',
  'closed',
  'awarded',
  'contracted',
  'amended',
  'completed',
  'cancelled',
] as const;
export const VALUE_TIERS = ['small', 'medium', 'large', 'very_large'] as const;
export const ACTIONABILITIES = ['act_now', 'prepare', 'monitor', 'informational'] as const;
export const CASE_RELATIONSHIPS = ['origin', 'update', 'related'] as const;
export const CASE_EVENT_TYPES = [
  'created',
  'stage_changed',
  'signal_linked',
  'amount_changed',
  'deadline_changed',
  'closed',
] as const;
export const EVIDENCE_SOURCE_TYPES = [
  'procurement_announcement',
  'procurement_contract',
  'procurement_amendment',
  'indicator',
  'document',
] as const;
/** Who a procurement party is, told from its tax number and name (see nif.ts). */
export const ENTITY_KINDS = ['municipality', 'public_body', 'company', 'person'] as const;
/** What an entity's tax number is (src/lib/nif.ts, taxNumberKind). */
export const TAX_NUMBER_KINDS = ['portuguese', 'foreign', 'placeholder'] as const;
/** The OCDS procurement method a procedure type maps to. */
export const OCDS_METHODS = ['open', 'selective', 'limited', 'direct'] as const;
export const MATCHER_TYPES = ['keyword', 'cpv', 'entity', 'signal_type', 'indicator_threshold'] as const;
export const ALERT_SOURCE_TYPES = [
  'signal',
  'procurement_announcement',
  'procurement_contract',
  'procurement_amendment',
] as const;
export const TARGET_SCOPES = ['municipalities', 'district', 'national'] as const;
export const MATCH_STATUSES = ['matched', 'dismissed'] as const;

export type SignalStatus = (typeof SIGNAL_STATUSES)[number];
export type CaseStatus = (typeof CASE_STATUSES)[number];
export type Stage = (typeof STAGES)[number];
export type ValueTier = (typeof VALUE_TIERS)[number];
export type Actionability = (typeof ACTIONABILITIES)[number];
export type CaseRelationship = (typeof CASE_RELATIONSHIPS)[number];
export type CaseEventType = (typeof CASE_EVENT_TYPES)[number];
export type EvidenceSourceType = (typeof EVIDENCE_SOURCE_TYPES)[number];
export type EntityKind = (typeof ENTITY_KINDS)[number];
export type TaxNumberKind = (typeof TAX_NUMBER_KINDS)[number];
export type OcdsMethod = (typeof OCDS_METHODS)[number];
export type MatcherType = (typeof MATCHER_TYPES)[number];
export type AlertSourceType = (typeof ALERT_SOURCE_TYPES)[number];
export type TargetScope = (typeof TARGET_SCOPES)[number];
export type MatchStatus = (typeof MATCH_STATUSES)[number];
