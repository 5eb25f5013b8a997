/**
 * The shapes this service publishes in OCDS 1.1: the subset of the release schema it fills (docs/ocds.md maps
 * every field), and the release and record packages. These describe our answers for OpenAPI and the MCP output
 * schema; conformance to the official OCDS schemas is what test/ocds.test.ts checks. Fields without data are
 * absent, never null.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../../core/schemas.js';
import { OCDS_METHODS } from '../../../lib/vocabulary.js';

export const OCDS_VERSION = '1.1';

/** The releaseTag codes we publish (closed codelist). */
export const RELEASE_TAGS = ['award', 'contract', 'contractAmendment', 'compiled'] as const;
/** The partyRole codes we publish (open codelist). */
export const PARTY_ROLES = ['buyer', 'supplier', 'tenderer'] as const;
/** procurementCategory (closed) and extendedProcurementCategory (open) codes we publish. */
export const PROCUREMENT_CATEGORIES = ['goods', 'works', 'services'] as const;
/** documentType codes we publish (open codelist). */
export const DOCUMENT_TYPES = ['tenderNotice', 'contractNotice'] as const;

const DateTime = (description: string) => Type.String({ format: 'date-time', description });
const Text = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

const Value = Type.Object(
  {
    amount: Type.Number({ description: 'Euros without VAT, as the source gives them.' }),
    currency: StringEnum(['EUR'] as const),
  },
  { title: 'OcdsValue' },
);

const Identifier = Type.Object(
  {
    scheme: Type.Optional(
      StringEnum(['PT-NIF'] as const, { description: 'Portuguese tax number register (org-id.guide).' }),
    ),
    id: Type.String({ description: 'The tax number.' }),
  },
  { title: 'OcdsIdentifier' },
);

const OrganizationReference = Type.Object(
  {
    id: Type.String({ description: 'The `id` of the party in `parties`.' }),
    name: Type.String(),
  },
  { title: 'OcdsOrganizationReference' },
);

const Organization = Type.Object(
  {
    id: Type.String({
      description:
        '`PT-NIF-<tax number>`; `TAXID-<id>` for a tax id that is not Portuguese; ' +
        '`NAME-<name>` for a party the source names without one, or with a placeholder no one holds (`000000000`).',
    }),
    name: Type.String({ description: 'As published on the record.' }),
    identifier: Type.Optional(Identifier),
    roles: Type.Array(StringEnum(PARTY_ROLES)),
  },
  { title: 'OcdsOrganization' },
);

const Classification = Type.Object(
  {
    scheme: StringEnum(['CPV'] as const),
    id: Type.String({ description: 'CPV code, 8 digits without the check digit.' }),
    description: Text('The Portuguese label of the code.'),
  },
  { title: 'OcdsClassification' },
);

const Item = Type.Object(
  {
    id: Type.String(),
    description: Text(),
    classification: Type.Optional(Classification),
    additionalClassifications: Type.Optional(Type.Array(Classification)),
  },
  { title: 'OcdsItem' },
);

const Period = Type.Object(
  {
    startDate: Type.Optional(DateTime('The day, at 00:00:00Z.')),
    endDate: Type.Optional(DateTime('The day, at 00:00:00Z.')),
    durationInDays: Type.Optional(Type.Integer()),
  },
  { title: 'OcdsPeriod' },
);

const Document = Type.Object(
  {
    id: Type.String(),
    documentType: Type.Optional(StringEnum(DOCUMENT_TYPES)),
    url: Text('A URL.'),
    datePublished: Type.Optional(DateTime('The day, at 00:00:00Z.')),
  },
  { title: 'OcdsDocument' },
);

const Tender = Type.Object(
  {
    id: Type.String({ description: 'The procedure id (or, without one, the contract id) at the source.' }),
    title: Text(),
    procurementMethod: Type.Optional(StringEnum(OCDS_METHODS)),
    procurementMethodDetails: Text('The procedure type, as published (Portuguese).'),
    procurementMethodRationale: Text('The legal basis, as published.'),
    mainProcurementCategory: Type.Optional(StringEnum(PROCUREMENT_CATEGORIES)),
    additionalProcurementCategories: Type.Optional(Type.Array(StringEnum(PROCUREMENT_CATEGORIES))),
    value: Type.Optional(Value),
    items: Type.Optional(Type.Array(Item)),
    tenderers: Type.Optional(Type.Array(OrganizationReference)),
    tenderPeriod: Type.Optional(Period),
    documents: Type.Optional(Type.Array(Document)),
  },
  { title: 'OcdsTender' },
);

const Award = Type.Object(
  {
    id: Type.String(),
    title: Text(),
    date: Type.Optional(DateTime('The award decision day, at 00:00:00Z.')),
    value: Type.Optional(Value),
    suppliers: Type.Optional(Type.Array(OrganizationReference)),
    items: Type.Optional(Type.Array(Item)),
  },
  { title: 'OcdsAward' },
);

const Amendment = Type.Object(
  {
    id: Type.String({ description: 'The amendment id at the source.' }),
    date: Type.Optional(DateTime('The amendment day, at 00:00:00Z.')),
    rationale: Text('The reason, as published.'),
    description: Text('The price change, when both prices are known.'),
    amendsReleaseID: Type.String({ description: 'The release with the contract before this amendment.' }),
    releaseID: Type.String({ description: 'The release with the contract after this amendment.' }),
  },
  { title: 'OcdsAmendment' },
);

const Contract = Type.Object(
  {
    id: Type.String({ description: 'The contract id at the source.' }),
    awardID: Type.String(),
    title: Text(),
    description: Text(),
    value: Type.Optional(Value),
    dateSigned: Type.Optional(DateTime('The signing day, at 00:00:00Z.')),
    period: Type.Optional(Period),
    documents: Type.Optional(Type.Array(Document)),
    amendments: Type.Optional(Type.Array(Amendment)),
  },
  { title: 'OcdsContract' },
);

const RelatedProcess = Type.Object(
  {
    id: Type.String(),
    relationship: Type.Array(StringEnum(['framework'] as const)),
    title: Text('The framework agreement, as published.'),
  },
  { title: 'OcdsRelatedProcess' },
);

export const OcdsRelease = Type.Object(
  {
    ocid: Type.String({ description: 'Open Contracting ID of the process (its form: procurement_ocds_record).' }),
    id: Type.String({ description: 'Unique within the ocid.' }),
    date: DateTime('When the information was published at the source (the day, at 00:00:00Z).'),
    tag: Type.Array(StringEnum(RELEASE_TAGS), { minItems: 1 }),
    initiationType: StringEnum(['tender'] as const),
    language: Type.Optional(StringEnum(['pt'] as const)),
    parties: Type.Optional(Type.Array(Organization)),
    buyer: Type.Optional(OrganizationReference),
    tender: Type.Optional(Tender),
    awards: Type.Optional(Type.Array(Award)),
    contracts: Type.Optional(Type.Array(Contract)),
    relatedProcesses: Type.Optional(Type.Array(RelatedProcess)),
    synthetic: Type.Boolean({
      description:
        "The synthetic extension (the package's `extensions` names its schema): true when the release describes " +
        'generated demo data, ' +
        'false for real data.',
    }),
  },
  { title: 'OcdsRelease' },
);

const Publisher = Type.Object(
  {
    name: Type.String(),
    uri: Text(),
  },
  { title: 'OcdsPublisher' },
);

const packageFields = {
  uri: Type.String({ description: 'The URL of this package.' }),
  version: StringEnum([OCDS_VERSION] as const),
  extensions: Type.Optional(
    Type.Array(Type.String(), { description: 'URLs of the OCDS extensions used (pagination, synthetic).' }),
  ),
  publishedDate: DateTime('When the newest record in the package was imported (now, for an empty package).'),
  publisher: Publisher,
};

export const OcdsReleasePackage = Type.Object(
  {
    ...packageFields,
    releases: Type.Array(OcdsRelease),
    links: Type.Optional(
      Type.Object(
        { next: Type.String({ description: 'The next page (pagination extension).' }) },
        { title: 'OcdsLinks' },
      ),
    ),
    next_cursor: Nullable(Type.String({ description: 'Pass as `cursor` to get the next page.' })),
    has_more: Type.Boolean(),
  },
  { title: 'OcdsReleasePackage' },
);

export const OcdsRecord = Type.Object(
  {
    ocid: Type.String(),
    releases: Type.Array(OcdsRelease, { description: 'Every release of the process, oldest first.' }),
    compiledRelease: OcdsRelease,
  },
  { title: 'OcdsRecord' },
);

export const OcdsRecordPackage = Type.Object(
  {
    ...packageFields,
    records: Type.Array(OcdsRecord),
  },
  { title: 'OcdsRecordPackage' },
);
