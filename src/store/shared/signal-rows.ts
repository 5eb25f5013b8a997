/**
 * Signals as rows, the same in every store: the stored columns of a SignalInput (evidence and subject as JSON text
 * in a fixed key order), its fingerprint, and the record read back (with the case it is linked to).
 */
import type { Stage } from '../../lib/vocabulary.js';
import type { SignalEvidenceRecord, SignalInput, SignalRecord, SignalSubject } from '../signal-records.js';
import { hash } from './fingerprint.js';
import { numberOrNull, type Row, textOrNull } from './row-values.js';

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
