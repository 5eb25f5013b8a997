/** The answer of procurement_red_flags (docs/integrity.md): one assessment per integrity type, in three states. */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Synthetic } from '../../core/schemas.js';

export const ASSESSMENT_STATES = ['flagged', 'not_flagged', 'not_assessable'] as const;

const Compared = Type.Record(Type.String(), Nullable(Type.Union([Type.Number(), Type.String()])), {
  description: 'The values the check compared, by name; null where the record has none.',
});

export const RedFlagAssessment = Type.Object(
  {
    type: Type.String({ description: 'The integrity type (docs/integrity.md lists them).' }),
    code: Type.String({ description: "A stable code: Cardinal's where it has one (R018), ours otherwise (PT-…)." }),
    version: Type.Integer({ minimum: 1, description: "The method's version: it changes when the method does." }),
    label_pt: Type.String(),
    label_en: Type.String(),
    state: StringEnum(ASSESSMENT_STATES, {
      description: 'flagged, not_flagged, or not_assessable when the record lacks what the check needs.',
    }),
    reason: Type.String({ description: 'Why this state: the values compared, or what the record lacks.' }),
    values: Compared,
    thresholds: Type.Record(Type.String(), Type.Number(), { description: 'The thresholds compared with.' }),
    legal_basis: Nullable(Type.String({ description: 'The article the check rests on; null for an indicator.' })),
    caveat_en: Nullable(Type.String({ description: 'What the data cannot tell.' })),
    cites: Type.Array(Type.Integer(), {
      description: 'The contracts (ids) the assessment rests on: this one first, then those it was compared with.',
    }),
    corpus: Nullable(
      Type.Record(Type.String(), Type.Number(), {
        description: "The corpus statistics it was judged against (quartiles, fences, counts: Cardinal's Meta).",
      }),
    ),
  },
  { title: 'RedFlagAssessment' },
);

export const ContractRedFlags = Type.Object(
  {
    contract_id: Type.Integer(),
    source: Type.String({ description: "The contract's source: `base` (the portal) or `demo`." }),
    synthetic: Synthetic,
    counts: Type.Object(
      {
        flagged: Type.Integer({ minimum: 0 }),
        not_flagged: Type.Integer({ minimum: 0 }),
        not_assessable: Type.Integer({ minimum: 0 }),
      },
      { description: 'How many types are in each state.' },
    ),
    assessments: Type.Array(RedFlagAssessment),
  },
  { title: 'ContractRedFlags' },
);
