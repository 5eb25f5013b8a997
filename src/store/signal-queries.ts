/**
 * What operations, detectors and the matcher ask the signal and alert store: typed filters (municipality ids,
 * never codes) and keyset positions. Signals and cases are ordered by last_seen_at descending then id descending,
 * alert rules by id, alert matches by matched_at descending then id descending.
 */
import type { MatchStatus } from '../lib/vocabulary.js';

/** Position in a list ordered by an instant descending then id descending. */
export interface InstantPosition {
  at: string;
  id: number;
}

export interface SignalFilter {
  types?: readonly string[];
  family?: string;
  municipalityIds?: readonly number[];
  /** Inclusive lower bound on confidence. */
  minConfidence?: number;
  valueTier?: string;
  /** Only signals whose last_seen_at is at or after this instant. */
  since?: string;
  /**
   * Only signals changed after this instant (updated_at, exclusive), listed in change order: (updated_at, id)
   * ascending, the page's position then being (updated_at, id) (docs/api.md, "Syncing").
   */
  updatedSince?: string;
}

export interface CaseFilter {
  family?: string;
  municipalityIds?: readonly number[];
  /** Cases with a single linked signal are left out unless this is true. */
  includeEpisodic: boolean;
  /**
   * Only cases changed after this instant (updated_at, exclusive), listed in change order: (updated_at, id) ascending,
   * the page's position then being (updated_at, id) (docs/api.md, "Syncing").
   */
  updatedSince?: string;
}

export interface AlertRuleFilter {
  /** The rules of one account (operations always pass it: a caller only sees its own). */
  accountId?: number;
  enabledOnly?: boolean;
}

export interface AlertMatchFilter {
  /** Always given: a caller only ever sees its own matches. */
  accountId: number;
  ruleId?: number;
  municipalityIds?: readonly number[];
  status?: MatchStatus;
  /** Matches with matched_at at or after this instant (the caller's window already applied). */
  since: string;
  /**
   * Only matches changed after this instant (updated_at, exclusive), listed in change order: (updated_at, id)
   * ascending, the page's position then being (updated_at, id) (docs/api.md, "Syncing").
   */
  updatedSince?: string;
}

/**
 * One municipality's contracts of a procurement source and the integrity flags detection wrote on them
 * (Store.integrityFlagCounts), each contract placed as its signals are filed; `municipality_id` null: placed in none.
 */
export interface IntegrityPlaceCount {
  municipality_id: number | null;
  /** The source's contracts placed there. */
  contracts: number;
  /** Per integrity type, the flagged contracts placed there: the type's `integrity` signals not withdrawn. */
  flagged: Record<string, number>;
  /** The ids of its newest contracts (by id), at most the sample asked for, newest first. */
  sample: number[];
}
