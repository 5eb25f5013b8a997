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
  /** Article and number, as cited, in English words where it has any ("and", "as amended by"). */
  readonly reference: string;
  /** The same in Portuguese words: what a Portuguese text (an integrity signal's summary_pt) cites. */
  readonly reference_pt: string;
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
  readonly measures_pt: string;
  /** For a journalist or an analyst: why a flag of this type deserves a look (the integrity signal says it). */
  readonly why_it_matters_pt: string;
  readonly why_it_matters_en: string;
  /** What to check next, in Portuguese (the integrity signal's next step). */
  readonly next_step_pt: string;
  /**
   * True when a flag rests on more than the contract's own record: the buyer's other contracts, the source's corpus,
   * or a list the portal may give incomplete (competitors). Those held may not be all there are, so an integrity
   * signal of such a type has a lower confidence (docs/signals.md, "Confidence").
   */
  readonly reads_beyond_record: boolean;
  /** Contract fields (as served by procurement_contract_get) the check reads. */
  readonly fields: readonly string[];
  readonly thresholds: readonly Threshold[];
  readonly legal_basis: LegalBasis | null;
  /** What the data cannot tell, said with every answer; `caveat_pt` says the same in Portuguese. */
  readonly caveat_en: string | null;
  readonly caveat_pt: string | null;
}

/** A type's threshold by key: the one place a check reads its numbers from. */
export function threshold(type: IntegrityType, key: string): number {
  const found = type.thresholds.find((t) => t.key === key);
  if (!found) throw new Error(`${type.key} has no threshold "${key}"`);
  return found.value;
}
