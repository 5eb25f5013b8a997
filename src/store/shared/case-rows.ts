/** Cases as rows, the same in every store: their computed fields, their events and the records read back. */
import type { CaseEventRecord, CaseFields, CaseRecord } from '../signal-records.js';
import { dateOrNull, int, intOrNull, number, numberOrNull, recordCodec, text, textOrNull } from './record-codec.js';

/** The mark each case had when pendingCases last handed it out, by case id (kept by the store between calls). */
export type PendingMarks = Map<number, number>;

/** A case's computed fields, as saveCases writes them. */
export const CASE_FIELDS = recordCodec<CaseFields>({
  municipality_id: intOrNull,
  title_pt: textOrNull,
  summary_pt: textOrNull,
  current_stage: textOrNull,
  previous_stage: textOrNull,
  status: text,
  value_tier: textOrNull,
  confidence: number,
  source_count: int,
  deadline_date: textOrNull,
  amount_eur: numberOrNull,
  location_text: textOrNull,
  event_date: textOrNull,
  first_seen_at: textOrNull,
  last_seen_at: dateOrNull,
});

export const CASE = recordCodec<CaseRecord>({
  id: int,
  key: text,
  type: text,
  family: text,
  ...CASE_FIELDS.fields,
  updated_at: text,
});

export const CASE_EVENT = recordCodec<CaseEventRecord>({
  event_type: text,
  old_value: textOrNull,
  new_value: textOrNull,
  reason: textOrNull,
  created_at: text,
});

/** The stored columns of computed fields; an unknown last_seen_at is '' (it orders the list, see the migration). */
export function caseRow(fields: CaseFields): unknown[] {
  return CASE_FIELDS.columns.map((c) => (c === 'last_seen_at' ? (fields.last_seen_at ?? '') : (fields[c] ?? null)));
}
