/** What a check says of one contract (docs/integrity.md, "Three states"). */
import type { IntegrityType } from './methodology.js';

export type AssessmentState = 'flagged' | 'not_flagged' | 'not_assessable';

export type Compared = Record<string, number | string | null>;

export interface Assessment {
  type: string;
  code: string;
  version: number;
  label_pt: string;
  label_en: string;
  state: AssessmentState;
  /** Why this state, in a sentence: the values compared, or the field that is missing. */
  reason: string;
  /** The values the check compared (null where the record has none). */
  values: Compared;
  /** The thresholds it compared them with. */
  thresholds: Record<string, number>;
  /** The article the check rests on, or null for a statistical indicator. */
  legal_basis: string | null;
  caveat_en: string | null;
  /** The contracts the assessment rests on (ids). */
  cites: number[];
}

/** What a check finds: its state, why, and the values compared. */
export interface Finding {
  state: AssessmentState;
  reason: string;
  values: Compared;
}

export const finding = (state: AssessmentState, reason: string, values: Compared): Finding => ({
  state,
  reason,
  values,
});

/** A finding with its type's method, thresholds and legal basis, and the contracts it rests on. */
export function toAssessment(type: IntegrityType, { state, reason, values }: Finding, cites: number[]): Assessment {
  return {
    type: type.key,
    code: type.code,
    version: type.version,
    label_pt: type.label_pt,
    label_en: type.label_en,
    state,
    reason,
    values,
    thresholds: Object.fromEntries(type.thresholds.map((t) => [t.key, t.value])),
    legal_basis: type.legal_basis?.reference ?? null,
    caveat_en: type.caveat_en,
    cites,
  };
}
