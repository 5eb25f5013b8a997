/** Cases as rows: their computed fields, their events and the records read back from them. */
import type { CaseEventRecord, CaseFields, CaseRecord } from '../../signal-records.js';
import { dateOrNull, groupRows, jsonList, numberOrNull, type Row, type Sql, textOrNull } from '../procurement/sql.js';

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

/** The events of these cases, oldest first, by case. */
export function loadCaseEvents(sql: Sql, caseIds: readonly number[]): Map<number, CaseEventRecord[]> {
  const rows = sql(
    `SELECT case_id, event_type, old_value, new_value, reason, created_at FROM case_events
     WHERE case_id IN (SELECT value FROM json_each(@ids)) ORDER BY case_id, id`,
  ).all({ ids: jsonList(caseIds) }) as Row[];
  return new Map([...groupRows(rows, (r) => Number(r.case_id))].map(([id, group]) => [id, group.map(toEvent)]));
}

function toEvent(row: Row): CaseEventRecord {
  return {
    event_type: row.event_type as CaseEventRecord['event_type'],
    old_value: textOrNull(row.old_value),
    new_value: textOrNull(row.new_value),
    reason: textOrNull(row.reason),
    created_at: String(row.created_at),
  };
}
