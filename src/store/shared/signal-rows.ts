/**
 * Signals as rows, the same in every store: the stored columns of a SignalInput (evidence and subject as JSON text
 * in a fixed key order), its fingerprint, and the record read back (with the case it is linked to).
 */
import type {
  CaseSignal,
  MatchableSignal,
  SignalEvidenceRecord,
  SignalFields,
  SignalInput,
  SignalRecord,
  SignalSubject,
} from '../signal-records.js';
import { hash } from './fingerprint.js';
import {
  int,
  intOrNull,
  json,
  number,
  numberOrNull,
  pickColumns,
  recordCodec,
  text,
  textOrNull,
} from './record-codec.js';
import type { Row } from './row-values.js';

/** The columns a signal write stores: what a detector decides. */
export const SIGNAL_FIELDS = recordCodec<SignalFields>({
  type: text,
  family: text,
  municipality_id: intOrNull,
  title_pt: textOrNull,
  title_en: textOrNull,
  summary_pt: textOrNull,
  summary_en: textOrNull,
  why_it_matters_pt: textOrNull,
  why_it_matters_en: textOrNull,
  next_step_pt: textOrNull,
  stage: textOrNull,
  status: text,
  value_tier: textOrNull,
  confidence: number,
  deadline_date: textOrNull,
  event_date: textOrNull,
  amount_eur: numberOrNull,
  location_text: textOrNull,
  actionability: textOrNull,
  evidence: json,
  subject: json,
});

/** A signal read back with the case it is linked to (`case_id`). */
export const SIGNAL = recordCodec<SignalRecord>({
  id: int,
  key: text,
  origin: text,
  ...SIGNAL_FIELDS.fields,
  first_seen_at: text,
  last_seen_at: text,
  updated_at: text,
  case_id: intOrNull,
});

/** A signal as its case reads it (the columns `computeCase` uses). */
export const CASE_SIGNAL = recordCodec<CaseSignal>(
  pickColumns(
    SIGNAL,
    'id',
    'key',
    'type',
    'status',
    'stage',
    'confidence',
    'value_tier',
    'municipality_id',
    'title_pt',
    'summary_pt',
    'location_text',
    'amount_eur',
    'deadline_date',
    'event_date',
    'first_seen_at',
    'last_seen_at',
  ),
);

/** A signal as the alert matcher reads it (with the case it is linked to, `case_id`). */
export const MATCHABLE_SIGNAL = recordCodec<MatchableSignal>(
  pickColumns(
    SIGNAL,
    'id',
    'type',
    'family',
    'status',
    'confidence',
    'municipality_id',
    'title_pt',
    'summary_pt',
    'location_text',
    'deadline_date',
    'evidence',
    'subject',
    'case_id',
  ),
);

export type SignalRow = Record<keyof SignalFields, unknown>;

/** The stored columns of a signal's fields. Fields a producer left undefined are stored as null. */
export function signalRow(input: SignalInput): SignalRow {
  const row = {} as SignalRow;
  for (const column of SIGNAL_FIELDS.columns) row[column] = (input as unknown as Row)[column] ?? null;
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
  return hash([input.origin, ...SIGNAL_FIELDS.columns.map((c) => row[c]), ref]);
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
  return {
    cpv: s.cpv ?? [],
    nifs: s.nifs ?? [],
    indicator: s.indicator ?? null,
    indicator_value: s.indicator_value ?? null,
  };
}
