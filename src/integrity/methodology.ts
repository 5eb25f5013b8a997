/**
 * The integrity flags: risk indicators on a contract, each with its method, the fields it reads, its thresholds
 * and, where one applies, its legal basis (docs/integrity.md). A flag is an indicator for a closer look, never an
 * accusation; a contract whose record lacks a field a check needs is `not_assessable`, never flagged.
 */

export interface Threshold {
  readonly key: string;
  readonly value: number;
  readonly unit: 'ratio' | 'days' | 'count' | 'percentile';
  /** Where the default comes from. */
  readonly source: string;
}

export interface LegalBasis {
  /** Article and number, as cited. */
  readonly reference: string;
  readonly text_pt: string;
  readonly text_en: string;
}

export interface IntegrityType {
  readonly key: string;
  /** Stable code: Cardinal's where it has one (R018), ours otherwise (PT-…). */
  readonly code: string;
  readonly version: number;
  readonly label_pt: string;
  readonly label_en: string;
  readonly measures_en: string;
  /** Contract fields (as served by procurement_contract_get) the check reads. */
  readonly fields: readonly string[];
  readonly thresholds: readonly Threshold[];
  readonly legal_basis: LegalBasis | null;
  /** What the data cannot tell, said with every answer. */
  readonly caveat_en: string | null;
}

/** A type's threshold by key: the one place a check reads its numbers from. */
export function threshold(type: IntegrityType, key: string): number {
  const found = type.thresholds.find((t) => t.key === key);
  if (!found) throw new Error(`${type.key} has no threshold "${key}"`);
  return found.value;
}
