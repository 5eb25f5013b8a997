/**
 * Resource schemas of the signals domain (plus `description_en` on families and types), with the enumerations
 * published as `enum` (docs/decisions.md, Enumerations and Resources). Every field is always present: null where there
 * is nothing. Dates YYYY-MM-DD, instants RFC 3339 UTC.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Synthetic } from '../../core/schemas.js';
import {
  ACTIONABILITIES,
  CASE_EVENT_TYPES,
  CASE_RELATIONSHIPS,
  CASE_STATUSES,
  EVIDENCE_SOURCE_TYPES,
  SIGNAL_STATUSES,
  STAGES,
  VALUE_TIERS,
} from '../../lib/vocabulary.js';
import { SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../../signals/catalogue.js';
import { UpdatedAt } from '../shared/instants.js';

const Text = (description?: string) => Nullable(Type.String(description ? { description } : {}));
const Day = (description: string) => Nullable(Type.String({ format: 'date', description }));
const Instant = (description: string) => Nullable(Type.String({ format: 'date-time', description }));

export const SignalFamilyKey = StringEnum(SIGNAL_FAMILY_KEYS, {
  description: 'A signal family (signal_families lists them).',
});
export const SignalTypeKey = StringEnum(SIGNAL_TYPE_KEYS, { description: 'A signal type (signal_types lists them).' });

export const ValueTier = StringEnum(VALUE_TIERS, {
  description: 'From amount_eur: small (< 75 000 €), medium (< 750 000 €), large (< 5 000 000 €), very_large.',
});
const Stage = StringEnum(STAGES, {
  description:
    'Where the procedure behind it stands: announced, open, closed, awarded, ' +
    'contracted, amended, completed, cancelled.',
});
const Confidence = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const signalSummaryFields = {
  id: Type.Integer({ description: 'Use with signals_get.' }),
  type: SignalTypeKey,
  family: SignalFamilyKey,
  municipality_id: Nullable(
    Type.Integer({ description: 'The municipality (its integer id, 1–308); null when national.' }),
  ),
  title_pt: Text(),
  title_en: Text(),
  summary_pt: Text(),
  stage: Nullable(Stage),
  status: StringEnum(SIGNAL_STATUSES, {
    description:
      'active: current; expired: its deadline or relevance passed; withdrawn: its source no longer supports it.',
  }),
  value_tier: Nullable(ValueTier),
  confidence: Confidence('How sure the detection is, 0–1.'),
  deadline_date: Day('Deadline (for proposals, for a tender).'),
  event_date: Day('When the thing signalled happened (publication, award, amendment, reference date).'),
  amount_eur: Nullable(Type.Number({ description: 'Euros without VAT.' })),
  location_text: Text('Where, as text.'),
  actionability: Nullable(
    StringEnum(ACTIONABILITIES, {
      description:
        'act_now: a deadline 14 days away or less; prepare: 60 days or less; ' +
        'monitor; informational: nothing to act on.',
    }),
  ),
  first_seen_at: Instant('When a detection first wrote it.'),
  last_seen_at: Instant('When a detection last changed it; lists are ordered by it, newest first.'),
  updated_at: UpdatedAt,
  synthetic: Synthetic,
};

export const SignalSummary = Type.Object(signalSummaryFields, { title: 'SignalSummary' });

export const SignalEvidenceItem = Type.Object(
  {
    source_type: StringEnum(EVIDENCE_SOURCE_TYPES, { description: 'What kind of record supports the signal.' }),
    source_url: Text('Where to read the source.'),
    source_title: Text(),
    source_date: Day('The source’s own date.'),
    excerpt_pt: Text(),
    confidence: Nullable(Confidence('How strongly this source supports the signal, 0–1.')),
  },
  { title: 'SignalEvidenceItem' },
);

export const SignalDetail = Type.Object(
  {
    ...signalSummaryFields,
    contract_id: Nullable(
      Type.Integer({
        description:
          'The procurement contract the signal is about (procurement_contract_get: its parties, its red flags); ' +
          'null when it is about none (a call for tenders, an indicator, an imported signal).',
      }),
    ),
    summary_en: Text(),
    why_it_matters_pt: Text(),
    why_it_matters_en: Text(),
    next_step_pt: Text('What to do next, in Portuguese.'),
    evidence: Type.Array(SignalEvidenceItem, { description: 'The records the signal rests on.' }),
  },
  { title: 'SignalDetail' },
);

export const SignalFamilyInfo = Type.Object(
  {
    key: SignalFamilyKey,
    label_pt: Type.String(),
    label_en: Type.String(),
    description_pt: Text(),
    description_en: Text(),
  },
  { title: 'SignalFamilyInfo' },
);

/** How an integrity type is computed (docs/integrity.md): what Cardinal's and DIGIWHIST's indicators publish. */
export const IntegrityMethodology = Type.Object(
  {
    code: Type.String({ description: "Stable code: Cardinal's where it has one (R018), ours otherwise (PT-…)." }),
    version: Type.Integer({ description: 'Raised whenever the method or a default threshold changes.' }),
    measures_pt: Text(),
    measures_en: Text(),
    fields: Type.Array(Type.String(), { description: 'The contract fields (procurement_contract_get) it reads.' }),
    thresholds: Type.Array(
      Type.Object({
        key: Type.String(),
        value: Type.Number({ description: 'The default.' }),
        unit: StringEnum(['ratio', 'days', 'count', 'percentile'] as const),
        source: Type.String({ description: 'Where the default comes from.' }),
      }),
    ),
    legal_basis: Nullable(
      Type.Object(
        {
          reference: Type.String({ description: 'Article and number, as cited (CCP or a regional regime).' }),
          reference_pt: Type.String({
            description: 'The same in Portuguese words, as the Portuguese summary of a signal cites it.',
          }),
          text_pt: Text(),
          text_en: Text(),
        },
        { description: 'Null for a statistical indicator.' },
      ),
    ),
    caveat_en: Text('What the data cannot tell.'),
    caveat_pt: Text('What the data cannot tell, in Portuguese.'),
  },
  { title: 'IntegrityMethodology' },
);

export const SignalTypeInfo = Type.Object(
  {
    key: SignalTypeKey,
    family: SignalFamilyKey,
    label_pt: Type.String(),
    label_en: Type.String(),
    description_pt: Text(),
    description_en: Text(),
    methodology: Type.Optional(IntegrityMethodology),
  },
  { title: 'SignalTypeInfo' },
);

const caseSummaryFields = {
  id: Type.Integer({ description: 'Use with signal_cases_get.' }),
  type: Type.String({ description: 'The type of the signal that opened the case (a signal type).' }),
  family: SignalFamilyKey,
  municipality_id: Nullable(Type.Integer({ description: 'The municipality (its integer id, 1–308).' })),
  title_pt: Text(),
  summary_pt: Text(),
  current_stage: Nullable(Stage),
  status: StringEnum(CASE_STATUSES, { description: 'open, or closed once the thing it follows has ended.' }),
  value_tier: Nullable(ValueTier),
  confidence: Confidence('0–1.'),
  source_count: Type.Integer({ description: 'How many signals are linked to it; 1 makes it episodic.' }),
  deadline_date: Day('The current deadline of what the case follows.'),
  amount_eur: Nullable(Type.Number({ description: 'The current amount, euros without VAT.' })),
  first_seen_at: Instant('When its first signal was seen.'),
  last_seen_at: Instant('When one of its signals last changed; lists are ordered by it, newest first.'),
  updated_at: UpdatedAt,
  synthetic: Synthetic,
};

export const SignalCaseSummary = Type.Object(caseSummaryFields, { title: 'SignalCaseSummary' });

export const SignalCaseEventItem = Type.Object(
  {
    event_type: StringEnum(CASE_EVENT_TYPES, {
      description: 'created, stage_changed, signal_linked, amount_changed, deadline_changed or closed.',
    }),
    old_value: Text(),
    new_value: Text(),
    reason: Text(),
    created_at: Instant('When it was recorded.'),
  },
  { title: 'SignalCaseEventItem' },
);

export const SignalCaseLinkItem = Type.Object(
  {
    signal_id: Type.Integer({ description: 'Use with signals_get.' }),
    relationship: StringEnum(CASE_RELATIONSHIPS, {
      description:
        'origin: the signal that opened the case; update: a later stage of it; related: about the same thing.',
    }),
    title_pt: Text(),
    confidence: Confidence('0–1.'),
  },
  { title: 'SignalCaseLinkItem' },
);

export const SignalCaseDetail = Type.Object(
  {
    ...caseSummaryFields,
    previous_stage: Nullable(Stage),
    location_text: Text(),
    event_date: Day('When the thing the case follows last happened.'),
    events: Type.Array(SignalCaseEventItem, { description: 'The case’s history, oldest first (append-only).' }),
    linked_signals: Type.Array(SignalCaseLinkItem, { description: 'By signal id.' }),
  },
  { title: 'SignalCaseDetail' },
);
