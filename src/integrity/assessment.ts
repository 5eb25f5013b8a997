/** What a check says of one contract (docs/integrity.md, "Three states"). */
import type { IntegrityType } from './methodology.js';

export type AssessmentState = 'flagged' | 'not_flagged' | 'not_assessable';

export type Compared = Record<string, number | string | null>;

/**
 * A sentence in the two languages the service serves, written together in one place so that neither drifts from the
 * other: European Portuguese (`pt`) and English (`en`).
 */
export interface Said {
  readonly en: string;
  readonly pt: string;
}

export interface Assessment {
  type: string;
  code: string;
  version: number;
  label_pt: string;
  label_en: string;
  state: AssessmentState;
  /** Why this state, in a sentence: the values compared, or the field that is missing. */
  reason: string;
  /** The same sentence in Portuguese. */
  reason_pt: string;
  /** The values the check compared (null where the record has none). */
  values: Compared;
  /** The thresholds it compared them with (its type's, shared by every assessment of that type). */
  thresholds: Readonly<Record<string, number>>;
  /** The article the check rests on, or null for a statistical indicator. */
  legal_basis: string | null;
  /** The same citation in Portuguese words ("e", "na redação do"), as the signals' summary_pt cites it. */
  legal_basis_pt: string | null;
  caveat_en: string | null;
  caveat_pt: string | null;
  /** The contracts the assessment rests on (ids): the contract itself first, then those it was compared with. */
  cites: number[];
  /** The statistics of the corpus it was judged against (quartiles, fences, counts: Cardinal's `Meta`), or null. */
  corpus: Record<string, number> | null;
}

/** What a check finds: its state, why, the values compared, and what else it rests on. */
export interface Finding {
  state: AssessmentState;
  reason: string;
  reason_pt: string;
  values: Compared;
  /** Other contracts it rests on (ids), beside the contract assessed. */
  cites?: number[];
  corpus?: Record<string, number>;
}

export const finding = (
  state: AssessmentState,
  reason: Said,
  values: Compared,
  more: Pick<Finding, 'cites' | 'corpus'> = {},
): Finding => ({ state, reason: reason.en, reason_pt: reason.pt, values, ...more });

/**
 * Each type's thresholds as an assessment shows them, made once per type: a detection run assesses every contract on
 * every type, and the same object, frozen, serves them all.
 */
const THRESHOLDS = new WeakMap<IntegrityType, Readonly<Record<string, number>>>();

function thresholdsOf(type: IntegrityType): Readonly<Record<string, number>> {
  let held = THRESHOLDS.get(type);
  if (!held) {
    held = Object.freeze(Object.fromEntries(type.thresholds.map((t) => [t.key, t.value])));
    THRESHOLDS.set(type, held);
  }
  return held;
}

/** A finding of one contract with its type's method, thresholds and legal basis. */
export function toAssessment(type: IntegrityType, f: Finding, contractId: number): Assessment {
  const { state, reason, reason_pt, values } = f;
  const cites = [contractId, ...(f.cites ?? []).filter((id) => id !== contractId)];
  return {
    type: type.key,
    code: type.code,
    version: type.version,
    label_pt: type.label_pt,
    label_en: type.label_en,
    state,
    reason,
    reason_pt,
    values,
    thresholds: thresholdsOf(type),
    legal_basis: type.legal_basis?.reference ?? null,
    legal_basis_pt: type.legal_basis?.reference_pt ?? null,
    caveat_en: type.caveat_en,
    caveat_pt: type.caveat_pt,
    cites,
    corpus: f.corpus ?? null,
  };
}
