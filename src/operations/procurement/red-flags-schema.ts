/** The answer of procurement_red_flags (docs/integrity.md): one assessment per integrity type, in three states. */
import { Type } from '@sinclair/typebox';
import { DateString, Nullable, StringEnum, Synthetic } from '../../core/schemas.js';

export const ASSESSMENT_STATES = ['flagged', 'not_flagged', 'not_assessable'] as const;

const Compared = Type.Record(Type.String(), Nullable(Type.Union([Type.Number(), Type.String()])), {
  description: 'The values the check compared, by name; null where the record has none.',
});

const StateCounts = (description: string) =>
  Type.Object(
    {
      flagged: Type.Integer({ minimum: 0 }),
      not_flagged: Type.Integer({ minimum: 0 }),
      not_assessable: Type.Integer({ minimum: 0 }),
    },
    { description },
  );

export const RedFlagAssessment = Type.Object(
  {
    type: Type.String({ description: 'The integrity type (signal_types lists them, family `integrity`).' }),
    code: Type.String({ description: "A stable code: Cardinal's where it has one (R018), ours otherwise (PT-…)." }),
    version: Type.Integer({ minimum: 1, description: "The method's version: it changes when the method does." }),
    label_pt: Type.String(),
    label_en: Type.String(),
    state: StringEnum(ASSESSMENT_STATES, {
      description: 'flagged, not_flagged, or not_assessable when the record lacks what the check needs.',
    }),
    reason: Type.String({ description: 'Why this state: the values compared, or what the record lacks.' }),
    reason_pt: Type.String({ description: 'The same reason in Portuguese, written with the English one.' }),
    values: Compared,
    thresholds: Type.Record(Type.String(), Type.Number(), { description: 'The thresholds compared with.' }),
    legal_basis: Nullable(Type.String({ description: 'The article the check rests on; null for an indicator.' })),
    legal_basis_pt: Nullable(
      Type.String({ description: 'The same citation in Portuguese words; null for an indicator.' }),
    ),
    caveat_en: Nullable(Type.String({ description: 'What the data cannot tell.' })),
    caveat_pt: Nullable(Type.String({ description: 'What the data cannot tell, in Portuguese.' })),
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
    counts: StateCounts('How many types are in each state.'),
    assessments: Type.Array(RedFlagAssessment),
  },
  { title: 'ContractRedFlags' },
);

const TypeCounts = Type.Object(
  {
    type: Type.String({ description: 'The integrity type.' }),
    code: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    label_pt: Type.String(),
    label_en: Type.String(),
    counts: StateCounts('How many of the contracts assessed are in each state for this type.'),
  },
  { title: 'RedFlagTypeCounts' },
);

const FlaggedContract = Type.Object(
  {
    id: Type.Integer({ description: 'The contract: procurement_red_flags gives its assessments with the reasons.' }),
    source: Type.String(),
    synthetic: Synthetic,
    object: Type.String(),
    price_eur: Nullable(Type.Number({ description: 'Contract price, euros without VAT.' })),
    published_on: Nullable({ ...DateString, description: 'Publication date on the portal.' }),
    flagged_types: Type.Array(Type.String(), { description: 'The types flagged on it, in the catalogue order.' }),
  },
  { title: 'FlaggedContract' },
);

export const EntityRedFlags = Type.Object(
  {
    nif: Type.String({ description: "The buyer's tax number." }),
    name: Type.String(),
    synthetic: {
      ...Synthetic,
      description:
        'true when a contract assessed is generated (the demo), or, none assessed, when the entity is (the entity ' +
        'answers of procurement_entity_profile say it: a party of generated contracts, or one the demo made up). ' +
        'false: the counts are of real data only.',
    },
    from: Nullable({ ...DateString, description: 'The first publication date included, as asked; null: no bound.' }),
    to: Nullable({ ...DateString, description: 'The last publication date included, as asked; null: no bound.' }),
    contracts_assessed: Type.Integer({
      minimum: 0,
      description: "How many of the buyer's contracts in the period were assessed: the newest, up to the cap.",
    }),
    truncated: Type.Boolean({
      description: 'true: the period holds more contracts than the cap; narrow `from`/`to` to assess the older ones.',
    }),
    contracts_flagged: Type.Integer({ minimum: 0, description: 'Contracts assessed with at least one flag.' }),
    by_type: Type.Array(TypeCounts, { description: 'Every integrity type, in the catalogue order.' }),
    flagged_contracts: Type.Array(FlaggedContract, { description: 'Newest first (publication date, then id).' }),
    note: Nullable(
      Type.String({
        description:
          'Why the counts are empty when the entity is a buyer in no contract held but a supplier in some: the ' +
          "checks run on a buyer's contracts; the flags about a supplier are in its contracts' red flags. It names " +
          'where to find them: procurement_contracts with `supplier` (GET /v1/procurement/contracts?supplier=) and ' +
          'procurement_red_flags (GET /v1/procurement/contracts/{id}/red-flags). Else null.',
      }),
    ),
    note_pt: Nullable(Type.String({ description: '`note` in European Portuguese: the same facts. Null with it.' })),
  },
  { title: 'EntityRedFlags' },
);
