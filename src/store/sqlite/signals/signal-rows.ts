/**
 * Signals as rows: the stored columns of a SignalInput (evidence and subject as JSON in a fixed key order), its
 * fingerprint, and records read back — one query for a whole page, with the case each signal is linked to.
 */
import type { Stage } from '../../../vocabulary.js';
import type { SignalEvidenceRecord, SignalInput, SignalRecord, SignalSubject } from '../../signal-records.js';
import { hash } from '../../shared/fingerprint.js';
import { jsonList, numberOrNull, type Row, type Sql, textOrNull } from '../procurement/sql.js';

export const SIGNAL_COLUMNS = [
  'type',
  'family',
  'municipality_id',
  'title_pt',
  'title_en',
  'summary_pt',
  'summary_en',
  'why_it_matters_pt',
  'why_it_matters_en',
  'next_step_pt',
  'stage',
  'status',
  'value_tier',
  'confidence',
  'deadline_date',
  'event_date',
  'amount_eur',
  'location_text',
  'actionability',
  'evidence',
  'subject',
] as const;

export type SignalRow = Record<(typeof SIGNAL_COLUMNS)[number], unknown>;

/** The stored columns of a signal's fields. Fields a producer left undefined are stored as null. */
export function signalRow(input: SignalInput): SignalRow {
  const row = {} as SignalRow;
  for (const column of SIGNAL_COLUMNS) row[column] = (input as unknown as Row)[column] ?? null;
  row.evidence = JSON.stringify(input.evidence.map(canonicalEvidence));
  row.subject = JSON.stringify(canonicalSubject(input.subject));
  return row;
}

/**
 * A hash of everything a write stores for the signal — its fields, its origin and its case reference — in the
 * order of the columns: equal means the write would change nothing.
 */
export function signalFingerprint(input: SignalInput, row: SignalRow): string {
  const ref = input.case && [input.case.key, input.case.type, input.case.family, input.case.relationship];
  return hash([input.origin, ...SIGNAL_COLUMNS.map((c) => row[c]), ref]);
}

function canonicalEvidence(e: SignalEvidenceRecord): SignalEvidenceRecord {
  return {
    source_type: e.source_type,
    source_url: e.source_url ?? null,
    source_title: e.source_title ?? null,
    source_date: e.source_date ?? null,
    excerpt_pt: e.excerpt_pt ?? null,
    confidence: e.confidence ?? null,
  };
}

function canonicalSubject(s: SignalSubject): SignalSubject {
  return { cpv: s.cpv ?? [], nifs: s.nifs ?? [], indicator: s.indicator ?? null, indicator_value: s.indicator_value ?? null };
}

/** Select list and FROM clause of a signal with its case (alias `s`). */
const SIGNAL_SELECT = 'SELECT s.*, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id';

/** The signals with these ids, in the order of `ids`; unknown ids skipped. */
export function loadSignals(sql: Sql, ids: readonly number[]): SignalRecord[] {
  if (ids.length === 0) return [];
  const rows = sql(`${SIGNAL_SELECT} WHERE s.id IN (SELECT value FROM json_each(@ids))`).all({ ids: jsonList(ids) }) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), toSignal(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The signals with these keys, by id; unknown keys skipped. */
export function loadSignalsByKeys(sql: Sql, keys: readonly string[]): SignalRecord[] {
  if (keys.length === 0) return [];
  const rows = sql(`${SIGNAL_SELECT} WHERE s.key IN (SELECT value FROM json_each(@keys)) ORDER BY s.id`).all({
    keys: jsonList(keys),
  }) as Row[];
  return rows.map(toSignal);
}

/** The signals linked to these cases, with their relationship, by case then signal id. */
export function loadCaseSignals(sql: Sql, caseIds: readonly number[]): Row[] {
  return sql(
    `SELECT s.*, l.case_id, l.relationship FROM case_links l INDEXED BY case_links_by_case JOIN signals s ON s.id = l.signal_id
     WHERE l.case_id IN (SELECT value FROM json_each(@ids)) ORDER BY l.case_id, l.signal_id`,
  ).all({ ids: jsonList(caseIds) }) as Row[];
}

export function toSignal(row: Row): SignalRecord {
  return {
    id: Number(row.id),
    key: String(row.key),
    origin: String(row.origin),
    type: String(row.type),
    family: String(row.family),
    municipality_id: numberOrNull(row.municipality_id),
    title_pt: textOrNull(row.title_pt),
    title_en: textOrNull(row.title_en),
    summary_pt: textOrNull(row.summary_pt),
    summary_en: textOrNull(row.summary_en),
    why_it_matters_pt: textOrNull(row.why_it_matters_pt),
    why_it_matters_en: textOrNull(row.why_it_matters_en),
    next_step_pt: textOrNull(row.next_step_pt),
    stage: textOrNull(row.stage) as Stage | null,
    status: String(row.status) as SignalRecord['status'],
    value_tier: textOrNull(row.value_tier) as SignalRecord['value_tier'],
    confidence: Number(row.confidence),
    deadline_date: textOrNull(row.deadline_date),
    event_date: textOrNull(row.event_date),
    amount_eur: numberOrNull(row.amount_eur),
    location_text: textOrNull(row.location_text),
    actionability: textOrNull(row.actionability) as SignalRecord['actionability'],
    evidence: JSON.parse(String(row.evidence)),
    subject: JSON.parse(String(row.subject)),
    first_seen_at: String(row.first_seen_at),
    last_seen_at: String(row.last_seen_at),
    case_id: numberOrNull(row.case_id),
  };
}
