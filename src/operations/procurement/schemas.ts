/**
 * Resource schemas of the procurement domain, the same on every channel (docs/decisions.md, Procurement; additive:
 * provenance on every record, `labels` on aggregate groups, `nif` and `id` on municipality lookups). Amounts are
 * euros as numbers, dates YYYY-MM-DD; a field the source has nothing for is present and null.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Synthetic } from '../../core/schemas.js';
import { MATCH_KINDS } from '../../lib/name-match.js';
import { ENTITY_KINDS, OCDS_METHODS, TAX_NUMBER_KINDS } from '../../lib/vocabulary.js';
import { AGGREGATE_DIMENSIONS } from '../../store/procurement-queries.js';
import { UpdatedAt } from '../shared/instants.js';

const Euros = (description?: string) => Nullable(Type.Number(description ? { description } : {}));
const Day = (description?: string) =>
  Nullable(Type.String({ format: 'date', ...(description ? { description } : {}) }));
const Text = (description?: string) => Nullable(Type.String(description ? { description } : {}));

export const OcdsMethod = StringEnum(OCDS_METHODS, {
  description: 'The OCDS procurement method of the procedure type.',
});
export const EntityKind = StringEnum(ENTITY_KINDS, {
  description: 'municipality, public_body (other public bodies), company (any other legal person) or person.',
});

/** What the tax number says of its holder (entity-identity.ts): on an entity and a lookup entry alike. */
const taxNumberFields = {
  nif_kind: StringEnum(TAX_NUMBER_KINDS, {
    description:
      'What `nif` is: `portuguese` (a NIF or NIPC), `foreign` (a foreign tax id as the portal gives it) or ' +
      '`placeholder` (nine digits no one holds, such as `000000000`, shown where no tax number was given: its ' +
      'country is null, and the parties published with it share this entity).',
  }),
  kind_assumed: Type.Boolean({
    description:
      'true where `kind` is a default, not read from the tax number: a foreign id or a placeholder says nothing ' +
      'of its holder, and such an entity is `company` (a foreign natural person shows as one).',
  }),
  note: Text('What the tax number does not tell, in a sentence, where `nif_kind` is not `portuguese`; else null.'),
};

export const Party = Type.Object(
  {
    nif: Text('Tax number; null where the source gives none (e.g. a person anonymised under the GDPR).'),
    name: Type.String({ description: 'The name as published on this record.' }),
    withheld: Type.Boolean({
      description:
        'True where the portal withheld the identity under the GDPR (published as `RGPD - <name>`, no tax number): ' +
        'a natural person, `nif` null, `name` as published after the mark; never an entity.',
    }),
    // What the party's entity says of its tax number (entity-identity.ts); nothing where there is no number.
    nif_kind: Type.Union([StringEnum(TAX_NUMBER_KINDS), Type.Null()], {
      description:
        'What `nif` is, as its entity says: `portuguese`, `foreign` or `placeholder` (nine digits no one holds, ' +
        'such as `000000000`, shown where no tax number was given: not a Portuguese tax number); null where `nif` is.',
    }),
    kind_assumed: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        "true where its entity's `kind` is a default, not read from the tax number (a foreign id or a placeholder); " +
        'null where `nif` is null.',
    }),
    note: Text('What the tax number does not tell, in a sentence, as its entity says it; else null.'),
  },
  { title: 'Party' },
);

export const Cpv = Type.Object(
  {
    code: Type.String({ description: 'CPV code, 8 digits without the check digit (e.g. `45233140`).' }),
    label_pt: Text(),
    label_en: Text(),
  },
  { title: 'CPV' },
);

const provenance = {
  source: Type.String({
    description: 'Where the record comes from: `base` (the national procurement portal), `demo`, …',
  }),
  source_id: Type.String({ description: "The record's id at its source (the portal's contract id or notice number)." }),
  synthetic: Synthetic,
};

const contractSummaryFields = {
  id: Type.Integer(),
  ...provenance,
  procedure_id: Text(),
  object: Type.String(),
  procedure_type: Text('Procedure type, the Portuguese label as published (e.g. `Concurso público`).'),
  ocds_method: Nullable(OcdsMethod),
  contract_types: Type.Array(Type.String(), { description: 'As published, e.g. `Aquisição de serviços`.' }),
  cpv_main: Text('The main CPV code (8 digits).'),
  buyers: Type.Array(Party, { description: 'Contracting entities.' }),
  suppliers: Type.Array(Party),
  price_eur: Euros('Contract price, euros without VAT.'),
  base_price_eur: Euros('Base price of the procedure.'),
  published_on: Day('Publication date on the portal.'),
  signed_on: Day(),
  municipalities: Type.Array(Type.String(), {
    description: 'Codes of the municipalities the contract is executed in.',
  }),
  link: Text(),
  updated_at: UpdatedAt,
};

export const ContractSummary = Type.Object(contractSummaryFields, { title: 'ContractSummary' });

export const Amendment = Type.Object(
  {
    id: Type.Integer(),
    contract_id: Type.Integer(),
    date: Day(),
    previous_price_eur: Euros(
      'As published; where the source gives none, the price before this amendment ' +
        '(the previous amendment’s new price, or the contract price).',
    ),
    new_price_eur: Euros(),
    change_eur: Euros('new_price_eur − previous_price_eur.'),
    reason: Text(),
    link: Text(),
    ...provenance,
    imported_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Amendment' },
);

export const ContractDetail = Type.Object(
  {
    ...contractSummaryFields,
    description: Text(),
    cpv: Type.Array(Cpv, { description: 'Every CPV code of the contract, the main one first.' }),
    competitors: Type.Array(Party),
    effective_price_eur: Euros('Total price actually paid, once the execution is reported.'),
    awarded_on: Day(),
    closed_on: Day(),
    execution_days: Nullable(Type.Integer()),
    execution_places_text: Text('Execution places as published.'),
    framework_agreement: Text(),
    legal_basis: Text(),
    green: Nullable(Type.Boolean({ description: 'Green public procurement criteria applied.' })),
    centralized: Nullable(Type.Boolean({ description: 'Centralised procedure.' })),
    announcement_number: Text('Notice number of the announcement the procedure started with.'),
    announcement_id: Nullable(Type.Integer({ description: 'That announcement, when the service holds it.' })),
    amendments: Type.Array(Amendment, { description: 'Oldest first.' }),
    imported_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ContractDetail' },
);

const entityFields = {
  nif: Type.String({ description: 'Tax number.' }),
  name: Type.String(),
  kind: EntityKind,
  country: Text('ISO 3166-1 alpha-2, where known.'),
  municipality: Text('Code of the municipality the entity is, for kind `municipality`.'),
  ...taxNumberFields,
  contracts_as_buyer: Type.Integer(),
  contracts_as_supplier: Type.Integer(),
  total_as_buyer_eur: Type.Number(),
  total_as_supplier_eur: Type.Number(),
  synthetic: Type.Boolean({
    description:
      'true when any of its contracts (and so its counts and totals) are generated demo data; false when all are real.',
  }),
};

export const Entity = Type.Object(entityFields, { title: 'Entity' });

const Counterpart = Type.Object(
  { nif: Type.String(), name: Type.String(), count: Type.Integer(), total_eur: Type.Number() },
  { title: 'Counterpart' },
);

export const EntityProfile = Type.Object(
  {
    ...entityFields,
    by_year: Type.Array(
      Type.Object({
        year: Nullable(Type.Integer({ description: 'Publication year; null for contracts without a date.' })),
        as_buyer_count: Type.Integer(),
        as_buyer_eur: Type.Number(),
        as_supplier_count: Type.Integer(),
        as_supplier_eur: Type.Number(),
      }),
    ),
    top_suppliers: Type.Array(Counterpart, { description: 'Its suppliers (as a buyer), by euros.' }),
    top_buyers: Type.Array(Counterpart, { description: 'Its buyers (as a supplier), by euros.' }),
    recent_contracts: Type.Array(ContractSummary, { description: 'Its latest contracts as buyer or supplier.' }),
  },
  { title: 'EntityProfile' },
);

export const Announcement = Type.Object(
  {
    id: Type.Integer(),
    source_id: Type.String({ description: 'Notice number (e.g. `10331/2025`).' }),
    published_on: Day(),
    deadline_on: Day('Deadline for proposals.'),
    is_open: Type.Boolean({ description: 'The deadline is today or later.' }),
    buyer: Party,
    object: Type.String(),
    cpv: Type.Array(Cpv),
    base_price_eur: Euros(),
    contract_types: Type.Array(Type.String()),
    procedure_type: Text(),
    municipalities: Type.Array(Type.String(), { description: 'Municipality codes.' }),
    district: Text('The district the notice names, if any.'),
    link: Text(),
    source: provenance.source,
    synthetic: Synthetic,
    imported_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Announcement' },
);

const dimensionValue: Record<(typeof AGGREGATE_DIMENSIONS)[number], TSchema> = {
  year: Nullable(Type.Integer()),
  month: Nullable(Type.String({ description: 'YYYY-MM' })),
  cpv_division: Nullable(Type.String({ description: 'First two digits of the main CPV.' })),
  procedure_type: Nullable(Type.String()),
  contracting_entity: Nullable(Type.String({ description: 'Tax number of a buyer.' })),
  supplier: Nullable(Type.String({ description: 'Tax number of a supplier.' })),
  municipality: Nullable(Type.String({ description: 'Municipality code.' })),
};

export const AggregateDimension = StringEnum(AGGREGATE_DIMENSIONS);

export const AggregateAnswer = Type.Object(
  {
    group_by: Type.Array(AggregateDimension),
    groups: Type.Array(
      Type.Object({
        key: Type.Object(Object.fromEntries(AGGREGATE_DIMENSIONS.map((d) => [d, Type.Optional(dimensionValue[d])])), {
          description: 'One value per dimension of group_by; null for none or unknown.',
        }),
        labels: Type.Object(Object.fromEntries(AGGREGATE_DIMENSIONS.map((d) => [d, Type.Optional(Type.String())])), {
          description: 'Names of the key values that have one (CPV division, entity, municipality).',
        }),
        count: Type.Integer(),
        total_eur: Type.Number(),
      }),
    ),
    totals: Type.Object(
      { count: Type.Integer(), total_eur: Type.Number() },
      { description: 'Every matching contract once.' },
    ),
    synthetic: Type.Boolean({
      description:
        'true when generated demo contracts are among those counted (pass `source=base` for real data only).',
    }),
  },
  { title: 'ProcurementAggregate' },
);

const matchFields = {
  match: StringEnum(MATCH_KINDS, {
    description: 'How the text matched: exact, prefix, contains (every word), fuzzy (typos).',
  }),
  score: Type.Number({ minimum: 0, maximum: 1, description: '1 for an exact match; entries come best first.' }),
};

export const MunicipalityLookupEntry = Type.Object(
  {
    municipality: Type.String({ description: 'The 4-digit municipality code.' }),
    slug: Type.String(),
    name: Type.String(),
    district_name: Type.String(),
    nif: Type.String({ description: "The municipality's own tax number (use it as `buyer`)." }),
    id: Type.Integer(),
    ...matchFields,
  },
  { title: 'MunicipalityLookupEntry' },
);

export const EntityLookupEntry = Type.Object(
  {
    nif: Type.String(),
    name: Type.String(),
    kind: EntityKind,
    synthetic: Synthetic,
    ...matchFields,
    // After the columns CSV readers already count on.
    ...taxNumberFields,
  },
  { title: 'EntityLookupEntry' },
);
