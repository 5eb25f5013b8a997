/**
 * `munidata import signals FILE`: signals from outside detectors, one JSON object per line (docs/signals.md).
 *
 * Every line is parsed and checked first; the good ones then go to the store in ONE writeSignals call (one
 * transaction: all of them or, on a store error, none), and the cases they touched are computed. Bad lines are
 * reported with their line number and reason and never written. A signal's key is
 * `import:<source>:<external_id>`: importing the same file again inserts and updates nothing.
 *
 * Each non-blank line ends in exactly one bucket: lines = accepted + rejected.length, and
 * accepted = written.inserted + written.updated + written.unchanged.
 */
import { nulTextPath } from '../lib/storable-text.js';
import { findSignalType } from '../signals/catalogue.js';
import { actionability, dateOf, valueTier } from '../signals/derive.js';
import type { SignalCaseRef, SignalInput, SignalWriteSummary } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { type ImportedSignal, validateImportedSignal } from './import-schema.js';
import { type CaseRunSummary, runCases } from './run-cases.js';
import { instant } from './run-detection.js';

export type SignalImportStore = Pick<Store, 'listMunicipalities' | 'writeSignals' | 'pendingCases' | 'saveCases'>;

export interface RejectedLine {
  line: number;
  external_id: string | null;
  reason: string;
}

export interface SignalImportReport {
  file: string;
  /** Non-blank lines read. */
  lines: number;
  accepted: number;
  rejected: RejectedLine[];
  written: SignalWriteSummary;
  cases: CaseRunSummary;
}

export async function importSignals(
  store: SignalImportStore,
  text: string,
  options: { fileName: string; now: Date },
): Promise<SignalImportReport> {
  const now = instant(options.now);
  const today = dateOf(options.now);
  const municipalities = await store.listMunicipalities();
  const municipalityId = new Map<string, number>();
  for (const m of municipalities) {
    municipalityId.set(m.code, m.id);
    municipalityId.set(m.slug, m.id);
  }
  const rejected: RejectedLine[] = [];
  const accepted: SignalInput[] = [];
  const firstLine = new Map<string, number>();
  let lines = 0;
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      if (raw.trim() === '') return;
      lines++;
      const line = index + 1;
      const result = readLine(raw, municipalityId, today);
      if ('reason' in result) {
        rejected.push({ line, external_id: result.external_id, reason: result.reason });
        return;
      }
      const earlier = firstLine.get(result.signal.key);
      if (earlier !== undefined) {
        rejected.push({
          line,
          external_id: result.external_id,
          reason: `duplicate of line ${earlier} (same source and external_id)`,
        });
        return;
      }
      firstLine.set(result.signal.key, line);
      accepted.push(result.signal);
    });
  const written =
    accepted.length > 0
      ? await store.writeSignals({ signals: accepted, now })
      : { inserted: 0, updated: 0, unchanged: 0 };
  const cases = await runCases(store, { now });
  return { file: options.fileName, lines, accepted: accepted.length, rejected, written, cases };
}

type LineResult = { signal: SignalInput; external_id: string } | { reason: string; external_id: string | null };

function readLine(raw: string, municipalityId: ReadonlyMap<string, number>, today: string): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { reason: `not valid JSON: ${(error as Error).message}`, external_id: null };
  }
  const externalId =
    value && typeof value === 'object' && typeof (value as { external_id?: unknown }).external_id === 'string'
      ? (value as { external_id: string }).external_id
      : null;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { reason: 'a line must hold one JSON object', external_id: null };
  const nul = nulTextPath(value);
  if (nul !== null)
    return { reason: `${nul}: holds a NUL character (U+0000), which no text stored can`, external_id: externalId };
  const checked = validateImportedSignal(value);
  if (!checked.ok) return { reason: checked.errors.join('; '), external_id: externalId };
  const s = checked.value;
  let municipality: number | null = null;
  if (s.municipality != null) {
    const id = municipalityId.get(s.municipality.trim().toLowerCase());
    if (id === undefined)
      return {
        reason: `municipality: no municipality has the code or slug "${s.municipality}"`,
        external_id: s.external_id,
      };
    municipality = id;
  }
  return { signal: toSignal(s, municipality, today), external_id: s.external_id };
}

/**
 * Defaults: status active; value_tier from amount_eur; actionability from the deadline (docs/signals.md), for an
 * active signal without one `monitor`. Without `case_key` the signal is the origin of a case of its own; with one
 * it joins that case, `related` unless `case_relationship` says otherwise.
 */
function toSignal(s: ImportedSignal, municipalityId: number | null, today: string): SignalInput {
  const family = (findSignalType(s.type) as { family: string }).family;
  const key = `import:${s.source}:${s.external_id}`;
  const status = s.status ?? 'active';
  const deadline = s.deadline_date ?? null;
  const amount = s.amount_eur ?? null;
  const caseRef: SignalCaseRef = s.case_key
    ? { key: s.case_key, type: s.type, family, relationship: s.case_relationship ?? 'related' }
    : { key, type: s.type, family, relationship: s.case_relationship ?? 'origin' };
  return {
    key,
    origin: `import:${s.source}`,
    type: s.type,
    family,
    municipality_id: municipalityId,
    title_pt: s.title_pt,
    title_en: s.title_en ?? null,
    summary_pt: s.summary_pt ?? null,
    summary_en: s.summary_en ?? null,
    why_it_matters_pt: s.why_it_matters_pt ?? null,
    why_it_matters_en: s.why_it_matters_en ?? null,
    next_step_pt: s.next_step_pt ?? null,
    stage: s.stage ?? null,
    status,
    value_tier: s.value_tier !== undefined ? s.value_tier : valueTier(amount),
    confidence: s.confidence,
    deadline_date: deadline,
    event_date: s.event_date ?? null,
    amount_eur: amount,
    location_text: s.location_text ?? null,
    actionability:
      s.actionability !== undefined
        ? s.actionability
        : status === 'active'
          ? actionability(deadline, today, true)
          : 'informational',
    evidence: (s.evidence ?? []).map((e) => ({
      source_type: e.source_type,
      source_url: e.source_url ?? null,
      source_title: e.source_title ?? null,
      source_date: e.source_date ?? null,
      excerpt_pt: e.excerpt_pt ?? null,
      confidence: e.confidence ?? null,
    })),
    subject: {
      cpv: s.subject?.cpv ?? [],
      nifs: s.subject?.nifs ?? [],
      indicator: s.subject?.indicator ?? null,
      indicator_value: s.subject?.indicator_value ?? null,
    },
    case: caseRef,
  };
}
