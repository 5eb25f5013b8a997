/** Cases as rows, the same in every store: their computed fields, their events and the records read back. */
import type { CaseEventRecord, CaseFields, CaseRecord } from '../signal-records.js';
import { dateOrNull, numberOrNull, type Row, textOrNull } from './row-values.js';

/** The mark each case had when pendingCases last handed it out, by case id (kept by the store between calls). */
export type PendingMarks = Map<number, number>;

export const CASE_COLUMNS = [
  'municipality_id',
  'title_pt',
  'summary_pt',
  'current_stage',
  'previous_stage',
  'status',
  'value_tier',
  'confidence',
  'source_count',
  'deadline_date',
  'amount_eur',
  'location_text',
  'event_date',
  'first_seen_at',
  'last_seen_at',
] as const satisfies readonly (keyof CaseFields)[];

/** The stored columns of computed fields; an unknown last_seen_at is '' (it orders the list, see the migration). */
export function caseRow(fields: CaseFields): unknown[] {
  return CASE_COLUMNS.map((c) => (c === 'last_seen_at' ? (fields.last_seen_at ?? '') : (fields[c] ?? null)));
}

export function toCaseFields(row: Row): CaseFields {
  return {
    municipality_id: numberOrNull(row.municipality_id),
    title_pt: textOrNull(row.title_pt),
    summary_pt: textOrNull(row.summary_pt),
    current_stage: textOrNull(row.current_stage) as CaseFields['current_stage'],
    previous_stage: textOrNull(row.previous_stage) as CaseFields['previous_stage'],
    status: String(row.status) as CaseFields['status'],
    value_tier: textOrNull(row.value_tier) as CaseFields['value_tier'],
    confidence: Number(row.confidence),
    source_count: Number(row.source_count),
    deadline_date: textOrNull(row.deadline_date),
    amount_eur: numberOrNull(row.amount_eur),
    location_text: textOrNull(row.location_text),
    event_date: textOrNull(row.event_date),
    first_seen_at: textOrNull(row.first_seen_at),
    last_seen_at: dateOrNull(row.last_seen_at),
  };
}

export function toCase(row: Row): CaseRecord {
  return { id: Number(row.id), key: String(row.key), type: String(row.type), family: String(row.family), ...toCaseFields(row) };
}

export function toCaseEvent(row: Row): CaseEventRecord {
  return {
    event_type: row.event_type as CaseEventRecord['event_type'],
    old_value: textOrNull(row.old_value),
    new_value: textOrNull(row.new_value),
    reason: textOrNull(row.reason),
    created_at: String(row.created_at),
  };
}
