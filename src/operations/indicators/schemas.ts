/** Resource schemas of the indicators domain, as the OpenAPI document publishes them (docs/decisions.md). */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Synthetic } from '../../core/schemas.js';
import { DIRECTIONS, INDICATOR_CATEGORIES, TREATMENTS, UNITS, VALUE_DOMAINS } from '../../lib/vocabulary.js';

const Enum = (values: readonly string[], description?: string) =>
  StringEnum(values, description ? { description } : {});

export const Category = Enum(INDICATOR_CATEGORIES, 'Indicator category.');
export const Treatment = Enum(
  TREATMENTS,
  'How the value was produced: raw, derived, estimated, or normalized (0–100 index for plans without raw values).',
);

export const IndicatorKey = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'Indicator key, as listed by `indicators_list` (e.g. `population`).',
  examples: ['population'],
});

const summaryFields = {
  key: Type.String(),
  name: Type.String({ description: 'English name.' }),
  name_pt: Type.String({ description: 'Portuguese name.' }),
  category: Category,
  unit: Enum(UNITS),
  unit_display: Type.Optional(Nullable(Type.String())),
  direction: Enum(DIRECTIONS, 'Whether higher values are better, worse, or neither.'),
  source: Type.Optional(Nullable(Type.String({ description: 'Where the data comes from; demo data says so.' }))),
  synthetic: Synthetic,
  country_code: Type.String(),
  value_domain: Enum(VALUE_DOMAINS),
  treatment: Treatment,
};

export const IndicatorSummary = Type.Object(summaryFields, { title: 'IndicatorSummary' });

export const IndicatorDetail = Type.Object(
  {
    ...summaryFields,
    summary: Type.Optional(Nullable(Type.String())),
    summary_pt: Type.Optional(Nullable(Type.String())),
    currency_code: Type.Optional(Nullable(Type.String())),
    scale_factor: Type.Optional(Type.Number({ default: 1.0 })),
    per_capita: Type.Optional(Type.Boolean({ default: false })),
    unit_description: Type.Optional(Nullable(Type.String())),
  },
  { title: 'IndicatorDetail' },
);

export const IndicatorStats = Type.Object(
  {
    indicator: Type.String(),
    count: Type.Integer({ description: 'Municipalities with a value.' }),
    min: Type.Optional(Nullable(Type.Number())),
    max: Type.Optional(Nullable(Type.Number())),
    mean: Type.Optional(Nullable(Type.Number())),
    median: Type.Optional(Nullable(Type.Number())),
    as_of: Type.Optional(Nullable(Type.String({ format: 'date', description: 'Latest reference date.' }))),
    synthetic: Synthetic,
  },
  { title: 'IndicatorStats' },
);

export const SeriesPoint = Type.Object(
  {
    municipality: Type.String({ description: "The service's 4-digit municipality code." }),
    reference_date: Type.String({ format: 'date', description: 'Last day of the reference period.' }),
    value: Type.Optional(Nullable(Type.Number())),
    treatment: Treatment,
    synthetic: Synthetic,
  },
  { title: 'SeriesPoint' },
);

export const SnapshotRow = Type.Object(
  {
    municipality: Type.String(),
    name: Type.String(),
    district: Type.String(),
    value: Type.Optional(Nullable(Type.Number())),
    reference_date: Type.Optional(
      Nullable(
        Type.String({ format: 'date', description: 'Date of `value` (last day of its period); null without one.' }),
      ),
    ),
    percentile: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
    is_stale: Type.Optional(Type.Boolean({ default: false })),
    treatment: Treatment,
    synthetic: Synthetic,
  },
  { title: 'SnapshotRow' },
);
