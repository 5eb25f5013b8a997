/**
 * Signals, signal cases, alert rules and matches as the store holds them (never as rows of one dialect), and the
 * change journal that detectors and the alert matcher consume. Dates `YYYY-MM-DD`, instants RFC 3339 UTC with `Z`.
 */
import type {
  Actionability,
  AlertSourceType,
  CaseEventType,
  CaseRelationship,
  CaseStatus,
  EvidenceSourceType,
  MatcherType,
  MatchStatus,
  SignalStatus,
  Stage,
  TargetScope,
  ValueTier,
} from '../lib/vocabulary.js';
import type { WriteSummary } from './records.js';

// ---------------------------------------------------------------------------------------------------------------
// Change journal

/**
 * What a journal entry is about. Every write that changes served data appends one entry per record it inserted
 * or changed (unchanged records append nothing), in the same transaction as the write.
 */
export type ChangeKind = 'contract' | 'announcement' | 'amendment' | 'observation' | 'signal';

export interface ChangeEntry {
  /** Strictly increasing; consumers keep the last one they processed as their watermark. */
  seq: number;
  kind: ChangeKind;
  /** The record's id (contract, announcement, amendment, signal); for `observation` the municipality id. */
  id: number;
  /**
   * For `observation` the indicator key; for a changed `contract` the tax numbers of the buyers it no longer has,
   * space-separated (null when it kept them all); null otherwise.
   */
  key: string | null;
  /**
   * The record's own date, so that consumers can skip old items without loading them: publication date
   * (contract, announcement), amendment date, reference date (observation), last_seen_at's date (signal).
   */
  date: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Signals

export interface SignalEvidenceRecord {
  source_type: EvidenceSourceType;
  source_url: string | null;
  source_title: string | null;
  source_date: string | null;
  excerpt_pt: string | null;
  confidence: number | null;
}

/**
 * What alert rules match a signal on, besides its served fields. Stored with the signal, never served.
 */
export interface SignalSubject {
  /** CPV codes (8 digits) of the procurement record behind the signal. */
  cpv: string[];
  /** Tax numbers of the parties (buyers, suppliers). */
  nifs: string[];
  /** The indicator of an `indicators` signal and the value it observed. */
  indicator: string | null;
  indicator_value: number | null;
}

/** The served and matched content of a signal: what a detector (or an import) decides. */
export interface SignalFields {
  type: string;
  family: string;
  municipality_id: number | null;
  title_pt: string | null;
  title_en: string | null;
  summary_pt: string | null;
  summary_en: string | null;
  why_it_matters_pt: string | null;
  why_it_matters_en: string | null;
  next_step_pt: string | null;
  stage: Stage | null;
  status: SignalStatus;
  value_tier: ValueTier | null;
  /** 0–1. */
  confidence: number;
  deadline_date: string | null;
  event_date: string | null;
  amount_eur: number | null;
  location_text: string | null;
  actionability: Actionability | null;
  evidence: SignalEvidenceRecord[];
  subject: SignalSubject;
}

/** The case a signal belongs to, named by a key the detector derives from the thing the signals are about. */
export interface SignalCaseRef {
  /** e.g. `procurement:demo:procedure:P-123`, `indicators:population:1106:2019`. */
  key: string;
  /** The case's type: the type of the signal that opened it is a good one (`tender_open`, `indicator_jump`). */
  type: string;
  family: string;
  relationship: CaseRelationship;
}

export interface SignalInput extends SignalFields {
  /**
   * The signal's identity, stable across runs: `<family>:<type>:<source>:<record id at source>` for our
   * detectors, `import:<source>:<external id>` for imported ones. Writing a key again updates that signal.
   */
  key: string;
  /** `detector` or `import:<source>`. */
  origin: string;
  case: SignalCaseRef | null;
}

export interface SignalRecord extends SignalFields {
  id: number;
  key: string;
  origin: string;
  /** When a detection first wrote it. */
  first_seen_at: string;
  /** When a detection last changed it (a run that finds it unchanged leaves this alone). */
  last_seen_at: string;
  /** When it was last inserted or changed (../changes/change-stamp.ts). */
  updated_at: string;
  case_id: number | null;
}

export type SignalWriteSummary = WriteSummary;

// ---------------------------------------------------------------------------------------------------------------
// Cases

/** A case's computed state (everything but its identity and history). */
export interface CaseFields {
  municipality_id: number | null;
  title_pt: string | null;
  summary_pt: string | null;
  current_stage: Stage | null;
  previous_stage: Stage | null;
  status: CaseStatus;
  value_tier: ValueTier | null;
  confidence: number;
  /** Linked signals. */
  source_count: number;
  deadline_date: string | null;
  amount_eur: number | null;
  location_text: string | null;
  event_date: string | null;
  first_seen_at: string | null;
  last_seen_at: string | null;
}

export interface CaseEventRecord {
  event_type: CaseEventType;
  old_value: string | null;
  new_value: string | null;
  reason: string | null;
  created_at: string;
}

export interface CaseLinkRecord {
  signal_id: number;
  relationship: CaseRelationship;
  title_pt: string | null;
  confidence: number;
}

export interface CaseRecord extends CaseFields {
  id: number;
  key: string;
  type: string;
  family: string;
  /** When it was last inserted or changed (../changes/change-stamp.ts). */
  updated_at: string;
}

export interface CaseDetailRecord extends CaseRecord {
  /** Oldest first. */
  events: CaseEventRecord[];
  /** By signal id ascending. */
  linked_signals: CaseLinkRecord[];
}

/**
 * A case whose signals changed since it was last computed, with everything needed to compute it again:
 * `fields` null when it was never computed (just created by a signal write).
 */
export interface PendingCase {
  id: number;
  key: string;
  type: string;
  family: string;
  fields: CaseFields | null;
  events: CaseEventRecord[];
  /** Every linked signal, the fields a case is computed from, with its relationship; by signal id ascending. */
  signals: { signal: CaseSignal; relationship: CaseRelationship }[];
}

/**
 * What a case is computed from of each of its signals (docs/signals.md, "Cases"): not the texts and evidence that
 * make up most of a signal's row, which the case queue would otherwise read back for every signal of every case.
 */
export type CaseSignal = Pick<
  SignalRecord,
  | 'id'
  | 'key'
  | 'type'
  | 'status'
  | 'stage'
  | 'confidence'
  | 'value_tier'
  | 'municipality_id'
  | 'title_pt'
  | 'summary_pt'
  | 'location_text'
  | 'amount_eur'
  | 'deadline_date'
  | 'event_date'
  | 'first_seen_at'
  | 'last_seen_at'
>;

/**
 * What the alert matcher reads of a signal it matches (docs/alerts.md, "The matcher"): what its rules and judge look
 * at and what a match records, without the English texts and the type's texts that make up much of the row.
 */
export type MatchableSignal = Pick<
  SignalRecord,
  | 'id'
  | 'type'
  | 'family'
  | 'status'
  | 'confidence'
  | 'municipality_id'
  | 'title_pt'
  | 'summary_pt'
  | 'location_text'
  | 'deadline_date'
  | 'evidence'
  | 'subject'
  | 'case_id'
>;

export interface CaseUpdate {
  id: number;
  fields: CaseFields;
  /** Appended to the case's history (never rewritten). */
  events: CaseEventRecord[];
}

// ---------------------------------------------------------------------------------------------------------------
// Alerts

/** What a matcher looks for; the fields its `matcher_type` reads (others absent). */
export interface MatcherParams {
  /** keyword: phrases; a phrase matches when all its words occur (case- and accent-insensitive). */
  keywords?: string[];
  /** cpv: CPV prefixes (1–8 digits). */
  cpv_prefixes?: string[];
  /** entity: tax numbers of buyers or suppliers. */
  nifs?: string[];
  /** signal_type: signal types; a signal of any of them matches (with `signal_families`: of either). */
  signal_types?: string[];
  /** signal_type: signal families (`integrity`, …); a signal of any type of them matches. */
  signal_families?: string[];
  /** signal_type: only signals whose confidence is at least this (0–1). */
  min_confidence?: number;
  /** indicator_threshold: an indicator and a bound its signalled value must cross. */
  indicator?: string;
  above?: number;
  below?: number;
}

export interface AlertTemplateRecord {
  id: number;
  /** Stable name (`open-tenders-construction`); the CLI subscribes by it. */
  key: string;
  name: string;
  description: string;
  matcher_type: MatcherType;
  params: MatcherParams;
  source_types: AlertSourceType[];
  target_scope: TargetScope;
}

export type AlertTemplateInput = Omit<AlertTemplateRecord, 'id'>;

export interface AlertRuleInput {
  account_id: number;
  name: string;
  matcher_type: MatcherType;
  params: MatcherParams;
  /** Empty = every source type. */
  source_types: AlertSourceType[];
  /** The municipalities it watches (for `district` scope: the district's); empty for `national`. */
  municipality_ids: number[];
  target_scope: TargetScope;
  /** The district's name when `target_scope` is `district`. */
  district: string | null;
  template_id: number | null;
  now: string;
}

/** What editing a rule may change: its name and its definition (matcher, sources, place). */
export type AlertRuleEdit = Pick<
  AlertRuleInput,
  'name' | 'matcher_type' | 'params' | 'source_types' | 'municipality_ids' | 'target_scope' | 'district'
>;

export interface AlertRuleRecord extends Omit<AlertRuleInput, 'now'> {
  id: number;
  enabled: boolean;
  created_at: string;
  /** The last journal entry the matcher has checked this rule against (0: never). */
  matched_seq: number;
}

export interface AlertJudgeRecord {
  is_direct_action: boolean | null;
  action_type: string | null;
  why_pt: string | null;
  why_en: string | null;
  confidence: number | null;
}

export interface AlertMatchInput {
  rule_id: number;
  /** What was matched, unique per rule: `signal:123`, `procurement_contract:456`, … */
  item_key: string;
  source_type: AlertSourceType;
  municipality_id: number | null;
  score: number | null;
  title: string | null;
  snippet: string | null;
  link: string | null;
  matched_at: string;
  case_id: number | null;
  /** The judge's verdict; stored for every match, served only to plans with `judge`. */
  judge: AlertJudgeRecord | null;
}

export interface AlertMatchRecord extends Omit<AlertMatchInput, 'item_key'> {
  id: number;
  item_key: string;
  account_id: number;
  rule_name: string | null;
  status: MatchStatus;
  /** When it was last inserted or changed (../changes/change-stamp.ts). */
  updated_at: string;
}
