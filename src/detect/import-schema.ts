/**
 * One line of a signal import file (JSON Lines): a signal from an outside detector. docs/signals.md documents
 * each field; this schema is what the importer checks, with TypeBox for the type and Ajv for the check.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isDate } from '../lib/calendar.js';
import {
  ACTIONABILITIES,
  CASE_RELATIONSHIPS,
  EVIDENCE_SOURCE_TYPES,
  SIGNAL_STATUSES,
  STAGES,
  VALUE_TIERS,
} from '../lib/vocabulary.js';
import { SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** `type: [T, "null"]` rather than anyOf, so that a wrong value gets one clear message. */
function OrNull<T extends TSchema>(schema: T) {
  const s = schema as TSchema & { type?: string; enum?: unknown[] };
  return Type.Unsafe<Static<T> | null>({
    ...s,
    type: [s.type, 'null'],
    ...(s.enum ? { enum: [...s.enum, null] } : {}),
  });
}

function Enum<const T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}

const Text = (max: number) => Type.Optional(OrNull(Type.String({ minLength: 1, maxLength: max })));
const Day = Type.Optional(OrNull(Type.String({ format: 'date' })));
const Share = Type.Number({ minimum: 0, maximum: 1 });

export const ImportedEvidence = Type.Object(
  {
    source_type: Enum(EVIDENCE_SOURCE_TYPES),
    source_url: Type.Optional(OrNull(Type.String({ format: 'uri', maxLength: 2000 }))),
    source_title: Text(500),
    source_date: Day,
    excerpt_pt: Text(2000),
    confidence: Type.Optional(OrNull(Share)),
  },
  { additionalProperties: false },
);

export const ImportedSignal = Type.Object(
  {
    /** Who detected it: lowercase letters, digits, `_`, `.`, `-` (the key is `import:<source>:<external_id>`). */
    source: Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,63}$' }),
    external_id: Type.String({ minLength: 1, maxLength: 200 }),
    type: Enum(SIGNAL_TYPE_KEYS),
    /** Municipality code (`1106`) or slug (`lisboa`). */
    municipality: Type.Optional(OrNull(Type.String({ minLength: 1, maxLength: 100 }))),
    title_pt: Type.String({ minLength: 1, maxLength: 500 }),
    title_en: Text(500),
    summary_pt: Text(4000),
    summary_en: Text(4000),
    why_it_matters_pt: Text(2000),
    why_it_matters_en: Text(2000),
    next_step_pt: Text(2000),
    stage: Type.Optional(OrNull(Enum(STAGES))),
    status: Type.Optional(Enum(SIGNAL_STATUSES)),
    value_tier: Type.Optional(OrNull(Enum(VALUE_TIERS))),
    amount_eur: Type.Optional(OrNull(Type.Number({ minimum: 0 }))),
    confidence: Share,
    deadline_date: Day,
    event_date: Day,
    location_text: Text(500),
    actionability: Type.Optional(OrNull(Enum(ACTIONABILITIES))),
    evidence: Type.Optional(Type.Array(ImportedEvidence, { maxItems: 20 })),
    subject: Type.Optional(
      Type.Object(
        {
          cpv: Type.Optional(Type.Array(Type.String({ pattern: '^\\d{8}$' }), { maxItems: 50 })),
          nifs: Type.Optional(Type.Array(Type.String({ pattern: '^\\d{9}$' }), { maxItems: 50 })),
          indicator: Type.Optional(OrNull(Type.String({ minLength: 1, maxLength: 100 }))),
          indicator_value: Type.Optional(OrNull(Type.Number())),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Joins the case with this key (one of ours, e.g. `procurement:base:announcement:12345/2026`, or the source's own).
     */
    case_key: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    case_relationship: Type.Optional(Enum(CASE_RELATIONSHIPS)),
  },
  { additionalProperties: false },
);

export type ImportedSignal = Static<typeof ImportedSignal>;

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv, ['uri']);
ajv.addFormat('date', { type: 'string', validate: isDate });
const check = ajv.compile<ImportedSignal>(ImportedSignal);

/** The line's problems, `field: what is wrong`, or none. */
export function validateImportedSignal(
  value: unknown,
): { ok: true; value: ImportedSignal } | { ok: false; errors: string[] } {
  if (check(value)) return { ok: true, value };
  return { ok: false, errors: [...new Set((check.errors ?? []).map(describe))] };
}

function describe(e: ErrorObject): string {
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(line)';
  switch (e.keyword) {
    case 'required':
      return `${e.instancePath ? `${field}.` : ''}${String(e.params.missingProperty)}: is required`;
    case 'additionalProperties':
      return `${e.instancePath ? `${field}.` : ''}${String(e.params.additionalProperty)}: is not a field of the format`;
    case 'enum':
      return `${field}: must be one of ${(e.params.allowedValues as unknown[]).filter((v) => v !== null).join(', ')}`;
    case 'format':
      return `${field}: must be a valid ${e.params.format === 'date' ? 'date (YYYY-MM-DD)' : String(e.params.format)}`;
    default:
      return `${field}: ${e.message ?? 'is invalid'}`;
  }
}
