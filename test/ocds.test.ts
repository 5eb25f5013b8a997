/**
 * The OCDS view (issue 3, item 4): GET /v1/procurement/ocds/releases (release package) and
 * GET /v1/procurement/ocds/records/{ocid} (record package), black box over REST on the hand-built fixture.
 *
 * Schema validation: every answer is validated against
 * - THE OFFICIAL OCDS 1.1.5 SCHEMAS, copied byte for byte into test/fixtures/ocds/ (Apache-2.0, Open Contracting
 *   Partnership; test/fixtures/SOURCES.md) — draft-04, hence ajv-draft-04;
 * - and OUR SCHEMA below: written from the OCDS 1.1 documentation (required
 *   fields, types, formats and the codelists releaseTag, initiationType, method, procurementCategory, partyRole,
 *   documentType), stricter than the official one on the open codelists. It is ours, not OCP's.
 * Mapping facts are computed here from the fixture and data/cpv.csv, never from the service's code.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_RELEASE_SCHEMA_PATCH } from '../src/operations/procurement/ocds/synthetic-extension.js';
import type { AnnouncementInput, ContractInput } from '../src/store/procurement-records.js';
import { expectProblem } from './helpers/expectations.js';
import {
  BUYERS,
  buildFixture,
  type Fixture,
  IMPORTED_AT,
  PERSON,
  UNIDENTIFIED,
} from './helpers/procurement-fixture.js';
import { freshStore, newestFirst } from './helpers/procurement-store.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

// Both packages ship CommonJS; under NodeNext their default export is the module object.
const Ajv04 = Ajv04Module as unknown as typeof Ajv04Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// Navigating JSON documents of known shape: loose typing keeps the assertions readable.
type Json = Record<string, any>;

const TODAY = new Date().toISOString().slice(0, 10);
const SOURCE = 'fixture';
const PREFIX = 'ocds-munidata';
const RELEASES = '/v1/procurement/ocds/releases';
const RECORDS = '/v1/procurement/ocds/records';

// ---------------------------------------------------------------------------------------------------------
// Validators: the official schemas and ours
// ---------------------------------------------------------------------------------------------------------

const OFFICIAL_DIR = resolve(import.meta.dirname, 'fixtures/ocds');
const OFFICIAL_FILES = [
  'release-schema.json',
  'release-package-schema.json',
  'record-package-schema.json',
  'versioned-release-validation-schema.json',
];

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

function newAjv() {
  const ajv = new Ajv04({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * The official release package and record package validators. The package schemas refer to the release schema (and
 * the record package to the versioned release schema) by their `id` URLs: each is registered under its id, so
 * nothing is fetched.
 */
function officialValidators(): { releasePackage: Validate; recordPackage: Validate } {
  const ajv = newAjv();
  const schemas = OFFICIAL_FILES.map((file) => JSON.parse(readFileSync(resolve(OFFICIAL_DIR, file), 'utf8')));
  for (const schema of schemas) ajv.addSchema(schema);
  return {
    releasePackage: ajv.getSchema(schemas[1].id) as Validate,
    recordPackage: ajv.getSchema(schemas[2].id) as Validate,
  };
}

/** OUR schema (draft-04, like the official one), written from the OCDS 1.1 documentation and codelists. */
const CODELISTS = {
  releaseTag: [
    'planning',
    'planningUpdate',
    'tender',
    'tenderAmendment',
    'tenderUpdate',
    'tenderCancellation',
    'award',
    'awardUpdate',
    'awardCancellation',
    'contract',
    'contractUpdate',
    'contractAmendment',
    'implementation',
    'implementationUpdate',
    'contractTermination',
    'compiled',
  ],
  initiationType: ['tender'],
  method: ['open', 'selective', 'limited', 'direct'],
  procurementCategory: ['goods', 'works', 'services'],
  extendedProcurementCategory: ['goods', 'works', 'services', 'consultingServices'],
  partyRole: [
    'buyer',
    'procuringEntity',
    'supplier',
    'tenderer',
    'funder',
    'enquirer',
    'payer',
    'payee',
    'reviewBody',
    'interestedParty',
  ],
  documentType: [
    'plannedProcurementNotice',
    'tenderNotice',
    'awardNotice',
    'contractNotice',
    'biddingDocuments',
    'contractSigned',
  ],
  relatedProcess: [
    'framework',
    'planning',
    'parent',
    'prior',
    'unsuccessfulProcess',
    'subContract',
    'replacementProcess',
    'renewalProcess',
  ],
};
const str = { type: 'string', minLength: 1 };
const dateTime = { type: 'string', format: 'date-time' };
const OUR_RELEASE_SCHEMA = {
  id: 'urn:munidata:test:our-ocds-1.1-release',
  $schema: 'http://json-schema.org/draft-04/schema#',
  type: 'object',
  required: ['ocid', 'id', 'date', 'tag', 'initiationType'],
  properties: {
    ocid: { type: 'string', pattern: `^${PREFIX}-` },
    id: { type: 'string', minLength: 1, pattern: '^[^#]+$' },
    date: dateTime,
    tag: { type: 'array', minItems: 1, items: { enum: CODELISTS.releaseTag } },
    initiationType: { enum: CODELISTS.initiationType },
    // The synthetic extension's release-schema patch, as the service serves it (docs/ocds.md).
    ...SYNTHETIC_RELEASE_SCHEMA_PATCH.properties,
    language: { type: 'string', pattern: '^[a-z]{2}$' },
    parties: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/Organization' } },
    buyer: { $ref: '#/definitions/OrganizationReference' },
    tender: { $ref: '#/definitions/Tender' },
    awards: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/Award' } },
    contracts: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/Contract' } },
    relatedProcesses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        properties: {
          id: str,
          relationship: { type: 'array', items: { enum: CODELISTS.relatedProcess } },
          title: { type: 'string' },
        },
      },
    },
  },
  definitions: {
    Value: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: 'number' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
    },
    Identifier: { type: 'object', required: ['id'], properties: { scheme: str, id: str } },
    OrganizationReference: {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: str, name: { type: 'string' } },
    },
    Organization: {
      type: 'object',
      required: ['id', 'name', 'roles'],
      properties: {
        id: str,
        name: { type: 'string' },
        identifier: { $ref: '#/definitions/Identifier' },
        roles: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: CODELISTS.partyRole } },
      },
    },
    Classification: {
      type: 'object',
      required: ['scheme', 'id'],
      properties: { scheme: { enum: ['CPV'] }, id: str, description: { type: 'string' } },
    },
    Item: {
      type: 'object',
      required: ['id'],
      properties: {
        id: str,
        description: { type: 'string' },
        classification: { $ref: '#/definitions/Classification' },
        additionalClassifications: {
          type: 'array',
          uniqueItems: true,
          items: { $ref: '#/definitions/Classification' },
        },
      },
    },
    Period: {
      type: 'object',
      properties: { startDate: dateTime, endDate: dateTime, durationInDays: { type: 'integer', minimum: 0 } },
    },
    Document: {
      type: 'object',
      required: ['id'],
      properties: {
        id: str,
        documentType: { enum: CODELISTS.documentType },
        url: { type: 'string', format: 'uri' },
        datePublished: dateTime,
      },
    },
    Amendment: {
      type: 'object',
      properties: {
        id: str,
        date: dateTime,
        rationale: { type: 'string' },
        description: { type: 'string' },
        amendsReleaseID: str,
        releaseID: str,
      },
    },
    Tender: {
      type: 'object',
      required: ['id'],
      properties: {
        id: str,
        title: { type: 'string' },
        procurementMethod: { enum: CODELISTS.method },
        procurementMethodDetails: { type: 'string' },
        procurementMethodRationale: { type: 'string' },
        mainProcurementCategory: { enum: CODELISTS.procurementCategory },
        additionalProcurementCategories: { type: 'array', items: { enum: CODELISTS.extendedProcurementCategory } },
        value: { $ref: '#/definitions/Value' },
        items: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/Item' } },
        tenderers: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/OrganizationReference' } },
        tenderPeriod: { $ref: '#/definitions/Period' },
        documents: { type: 'array', items: { $ref: '#/definitions/Document' } },
      },
    },
    Award: {
      type: 'object',
      required: ['id'],
      properties: {
        id: str,
        title: { type: 'string' },
        date: dateTime,
        value: { $ref: '#/definitions/Value' },
        suppliers: { type: 'array', uniqueItems: true, items: { $ref: '#/definitions/OrganizationReference' } },
        items: { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: '#/definitions/Item' } },
      },
    },
    Contract: {
      type: 'object',
      required: ['id', 'awardID'],
      properties: {
        id: str,
        awardID: str,
        title: { type: 'string' },
        description: { type: 'string' },
        value: { $ref: '#/definitions/Value' },
        dateSigned: dateTime,
        period: { $ref: '#/definitions/Period' },
        documents: { type: 'array', items: { $ref: '#/definitions/Document' } },
        amendments: { type: 'array', items: { $ref: '#/definitions/Amendment' } },
      },
    },
  },
};
const publisher = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, uri: { type: 'string', format: 'uri' } },
};
const packageMeta = {
  uri: { type: 'string', format: 'uri' },
  version: { type: 'string', pattern: '^(\\d+\\.)(\\d+)$' },
  extensions: { type: 'array', items: { type: 'string', format: 'uri' } },
  publishedDate: dateTime,
  publisher,
};
const OUR_RELEASE_PACKAGE_SCHEMA = {
  id: 'urn:munidata:test:our-ocds-1.1-release-package',
  $schema: 'http://json-schema.org/draft-04/schema#',
  type: 'object',
  required: ['uri', 'publisher', 'publishedDate', 'releases', 'version'],
  properties: {
    ...packageMeta,
    releases: { type: 'array', minItems: 1, uniqueItems: true, items: { $ref: OUR_RELEASE_SCHEMA.id } },
    links: {
      type: 'object',
      properties: { next: { type: 'string', format: 'uri' }, prev: { type: 'string', format: 'uri' } },
    },
  },
};
const OUR_RECORD_PACKAGE_SCHEMA = {
  id: 'urn:munidata:test:our-ocds-1.1-record-package',
  $schema: 'http://json-schema.org/draft-04/schema#',
  type: 'object',
  required: ['uri', 'publisher', 'publishedDate', 'records', 'version'],
  properties: {
    ...packageMeta,
    records: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: {
        type: 'object',
        required: ['ocid', 'releases'],
        properties: {
          ocid: str,
          releases: { type: 'array', minItems: 1, items: { $ref: OUR_RELEASE_SCHEMA.id } },
          compiledRelease: { $ref: OUR_RELEASE_SCHEMA.id },
        },
      },
    },
  },
};

function ourValidators(): { releasePackage: Validate; recordPackage: Validate } {
  const ajv = newAjv();
  ajv.addSchema(OUR_RELEASE_SCHEMA);
  return {
    releasePackage: ajv.compile(OUR_RELEASE_PACKAGE_SCHEMA) as Validate,
    recordPackage: ajv.compile(OUR_RECORD_PACKAGE_SCHEMA) as Validate,
  };
}

const validators: { name: string; releasePackage: Validate; recordPackage: Validate }[] = [
  { name: 'our OCDS 1.1 schema (test/ocds.test.ts)', ...ourValidators() },
  { name: 'the official OCDS 1.1.5 schema (test/fixtures/ocds)', ...officialValidators() },
];

function expectValidReleasePackage(body: Json) {
  for (const v of validators)
    expect(v.releasePackage(body), `${v.name}: ${JSON.stringify(v.releasePackage.errors)}`).toBe(true);
}

function expectValidRecordPackage(body: Json) {
  for (const v of validators)
    expect(v.recordPackage(body), `${v.name}: ${JSON.stringify(v.recordPackage.errors)}`).toBe(true);
}

// ---------------------------------------------------------------------------------------------------------
// The fixture, plus what the plain fixture lacks: announcements that contracts name, a contract without procedure
// ---------------------------------------------------------------------------------------------------------

let t: TestApp;
let fixture: Fixture;
/** Announcements with the notice numbers of contracts 36 and 0 (the fixture's own announcements name none). */
let linked: AnnouncementInput[];
/** A contract whose source gives no procedure id: its own process. */
let lone: ContractInput;
let contracts: ContractInput[];

const CPV_LABELS = new Map(
  readFileSync(resolve(import.meta.dirname, '../data/cpv.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [code, , rest] = [line.slice(0, 8), line.slice(9, 11), line.slice(12)];
      const label = rest.startsWith('"') ? rest.slice(1, rest.indexOf('"', 1)) : rest.split(',')[0];
      return [code, label] as const;
    }),
);

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  fixture = buildFixture({ contracts: 300, today: TODAY, source: SOURCE });
  const notice = (c: ContractInput, deadline: string | null): AnnouncementInput => ({
    source: SOURCE,
    source_id: c.announcement_number as string,
    imported_at: IMPORTED_AT,
    published_on: '2022-11-02',
    deadline_on: deadline,
    buyer: c.buyers[0],
    object: c.object,
    cpvs: [...c.cpvs],
    base_price_eur: 99_999,
    contract_types: c.contract_types,
    procedure_type: c.procedure_type,
    municipality_ids: [],
    district: null,
    link: `https://www.base.gov.pt/Base4/pt/detalhe/?type=anuncios&id=${c.source_id}`,
  });
  linked = [notice(fixture.contracts[36], '2022-12-01'), notice(fixture.contracts[0], null)];
  lone = {
    ...fixture.contracts[1],
    source_id: 'LONE-1',
    procedure_id: null,
    announcement_number: null,
    link: null,
    published_on: '2020-02-02',
    awarded_on: null,
    signed_on: null,
    execution_days: null,
    object: 'Contrato sem procedimento',
  };
  await store.writeProcurement({ ...fixture, announcements: [...fixture.announcements, ...linked] });
  await store.writeProcurement({ contracts: [lone] });
  await store.refreshProcurementRollups();
  contracts = [...fixture.contracts, lone];
  t = await startTestApp({ store, dbPath });
});
afterAll(() => t.close());

/** Contract ids as the store gives them: the fixture's in order (1…300), then the lone one (301). */
const idOf = (c: ContractInput) => contracts.indexOf(c) + 1;
const bySourceId = (id: string) => contracts.find((c) => c.source_id === id) as ContractInput;
const amendmentsOf = (c: ContractInput) => fixture.amendments.filter((a) => a.contract_source_id === c.source_id);
const ocidOf = (c: ContractInput) =>
  c.procedure_id ? `${PREFIX}-${SOURCE}-proc-${c.procedure_id}` : `${PREFIX}-${SOURCE}-contract-${c.source_id}`;
const day = (d: string) => `${d}T00:00:00Z`;
const nifId = (nif: string) => `PT-NIF-${nif}`;

/** Every page of the release package for this query, validating each page; the pages' releases in order. */
async function allReleases(query: string, limit = 9): Promise<Json[]> {
  const releases: Json[] = [];
  let url = `${RELEASES}?${query}${query ? '&' : ''}limit=${limit}`;
  for (let page = 0; page < 500; page++) {
    const res = await t.get(url);
    expect(res.status, res.body).toBe(200);
    if (res.json.releases.length > 0) expectValidReleasePackage(res.json);
    releases.push(...res.json.releases);
    if (!res.json.has_more) {
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.links).toBeUndefined();
      return releases;
    }
    // `links.next` (OCDS pagination extension) is the next page: same filters, the cursor of `next_cursor`.
    const next = new URL(res.json.links.next);
    expect(`${next.origin}${next.pathname}`).toBe(`${BASE_URL}${RELEASES}`);
    expect(next.searchParams.get('cursor')).toBe(res.json.next_cursor);
    expect(res.headers['next-cursor']).toBe(res.json.next_cursor);
    url = `${next.pathname}${next.search}`;
  }
  throw new Error('more than 500 pages');
}

const contractIdsOf = (releases: Json[]) =>
  releases.filter((r) => r.tag.includes('contract')).map((r) => r.contracts[0].id);

// ---------------------------------------------------------------------------------------------------------

describe('validation set-up', () => {
  it('validates against the official OCDS 1.1.5 schemas and ours', () => {
    expect(validators.map((v) => v.name)).toEqual([
      'our OCDS 1.1 schema (test/ocds.test.ts)',
      'the official OCDS 1.1.5 schema (test/fixtures/ocds)',
    ]);
    // Our schema is not a rubber stamp: it refuses what OCDS 1.1 refuses.
    const ours = validators[0];
    const release = {
      ocid: `${PREFIX}-x-proc-1`,
      id: 'r1',
      date: '2024-01-01T00:00:00Z',
      tag: ['contract'],
      initiationType: 'tender',
    };
    const pkg = (r: Json) => ({
      uri: 'http://x.test/p',
      version: '1.1',
      publishedDate: '2024-01-01T00:00:00Z',
      publisher: { name: 'p' },
      releases: [r],
    });
    expect(ours.releasePackage(pkg(release))).toBe(true);
    expect(ours.releasePackage(pkg({ ...release, tag: ['signed'] }))).toBe(false);
    expect(ours.releasePackage(pkg({ ...release, initiationType: 'auction' }))).toBe(false);
    expect(ours.releasePackage(pkg({ ...release, date: '2024-01-01' }))).toBe(false);
    expect(ours.releasePackage(pkg({ ...release, tender: { id: '1', procurementMethod: 'negotiated' } }))).toBe(false);
    expect(ours.releasePackage(pkg({ ...release, tender: { id: '1', mainProcurementCategory: 'concession' } }))).toBe(
      false,
    );
    expect(ours.releasePackage(pkg({ ...release, parties: [{ id: 'a', name: 'A', roles: ['winner'] }] }))).toBe(false);
    expect(ours.releasePackage(pkg({ ...release, contracts: [{ id: 'c' }] }))).toBe(false);
    const { id: _id, ...withoutId } = release;
    expect(ours.releasePackage(pkg(withoutId))).toBe(false);
    // Nor is the official one: it takes the same minimal package and refuses what its closed codelists and required
    // fields refuse.
    const official = validators[1];
    expect(official.releasePackage(pkg(release)), JSON.stringify(official.releasePackage.errors)).toBe(true);
    expect(official.releasePackage(pkg({ ...release, tag: ['signed'] }))).toBe(false);
    expect(official.releasePackage(pkg({ ...release, initiationType: 'auction' }))).toBe(false);
    expect(official.releasePackage(pkg({ ...release, date: '2024-01-01' }))).toBe(false);
    expect(official.releasePackage(pkg(withoutId))).toBe(false);
    const { releases: _releases, ...meta } = pkg(release);
    const record = { ocid: release.ocid, releases: [release] };
    expect(official.recordPackage({ ...meta, records: [record] }), JSON.stringify(official.recordPackage.errors)).toBe(
      true,
    );
    expect(official.recordPackage({ ...meta, records: [{ ocid: release.ocid }] })).toBe(false);
  });
});

describe('procurement_ocds_releases', () => {
  const pagesEveryContractOnce =
    'pages over every contract once, in the contract list order, each followed by its amendment releases';
  it(pagesEveryContractOnce, async () => {
    const releases = await allReleases('');
    const expected = [...contracts].sort(newestFirst((c) => c.published_on, idOf));
    expect(contractIdsOf(releases)).toEqual(expected.map((c) => c.source_id));
    expect(releases).toHaveLength(contracts.length + fixture.amendments.length);
    // No release twice: (ocid, id) is unique.
    const keys = releases.map((r) => `${r.ocid} ${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    // After each contract's release come its amendments, oldest first.
    let i = 0;
    for (const c of expected) {
      expect(releases[i].id).toBe(`contract-${c.source_id}`);
      const amendments = amendmentsOf(c);
      expect(releases.slice(i + 1, i + 1 + amendments.length).map((r) => r.id)).toEqual(
        amendments.map((a) => `amendment-${a.source_id}`),
      );
      i += 1 + amendments.length;
    }
  });

  const validReleasePackage =
    'is a valid OCDS 1.1 release package with the package metadata, the Link header and the pagination extension';
  it(validReleasePackage, async () => {
    const res = await t.get(`${RELEASES}?municipality=1106&limit=5`);
    expect(res.status).toBe(200);
    expectValidReleasePackage(res.json);
    const body = res.json;
    expect(body).toMatchObject({
      uri: `${BASE_URL}${RELEASES}?municipality=1106&limit=5`,
      version: '1.1',
      publisher: { name: 'munidata', uri: BASE_URL },
      publishedDate: IMPORTED_AT,
      has_more: true,
    });
    expect(body.extensions).toEqual([
      expect.stringContaining('ocds_pagination_extension'),
      `${BASE_URL}/ocds/extensions/synthetic/extension.json`,
    ]);
    expect(body.links.next).toBe(
      `${BASE_URL}${RELEASES}?municipality=1106&cursor=${encodeURIComponent(body.next_cursor)}&limit=5`,
    );
    expect(String(res.headers.link)).toContain('rel="next"');
    expect(String(res.headers.link)).toContain(encodeURIComponent(body.next_cursor));
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('takes exactly the filters of procurement_contracts and selects the same contracts', async () => {
    const [lisboa, porto] = BUYERS;
    const queries = [
      'municipality=1106',
      `municipality=1106&municipality=${porto.slug}`,
      `buyer=${lisboa.nif}`,
      `supplier=${fixture.contracts[0].suppliers[0].nif}`,
      'cpv=45&from=2023-06-01&to=2024-06-30',
      'procedure_type=concurso%20publico',
      'method=limited&min_amount=1000&max_amount=200000',
      'q=limpeza',
    ];
    for (const query of queries) {
      const viaContracts: string[] = [];
      let url = `/v1/procurement/contracts?${query}&limit=200`;
      for (;;) {
        const res = await t.get(url);
        expect(res.status, `${query}: ${res.body}`).toBe(200);
        viaContracts.push(...res.json.items.map((c: Json) => c.source_id));
        if (!res.json.has_more) break;
        url = `/v1/procurement/contracts?${query}&limit=200&cursor=${encodeURIComponent(res.json.next_cursor)}`;
      }
      expect(viaContracts.length, query).toBeGreaterThan(0);
      expect(contractIdsOf(await allReleases(query, 25)), query).toEqual(viaContracts);
    }
  });

  it('answers an empty package when nothing matches', async () => {
    const res = await t.get(`${RELEASES}?q=zzzznothing`);
    expect(res.status).toBe(200);
    // OCDS 1.1 wants at least one release in a package; an empty page is the one answer that has none.
    expect(res.json).toMatchObject({ version: '1.1', releases: [], next_cursor: null, has_more: false });
    expect(Date.parse(res.json.publishedDate)).not.toBeNaN();
  });

  it('refuses bad filters and foreign cursors like procurement_contracts', async () => {
    expectProblem(await t.get(`${RELEASES}?municipality=9999`), 422, 'validation-error');
    expectProblem(await t.get(`${RELEASES}?from=2024-02-01&to=2024-01-01`), 422, 'validation-error');
    expectProblem(await t.get(`${RELEASES}?min_amount=10&max_amount=1`), 422, 'validation-error');
    expectProblem(await t.get(`${RELEASES}?limit=0`), 422, 'validation-error');
    expectProblem(await t.get(`${RELEASES}?unknown=1`), 422, 'validation-error');
    expectProblem(await t.get(`${RELEASES}?cursor=Zm9yZ2Vk.AAAA`), 400, 'invalid-cursor');
    const contractsPage = await t.get('/v1/procurement/contracts?limit=2');
    expectProblem(
      await t.get(`${RELEASES}?limit=2&cursor=${encodeURIComponent(contractsPage.json.next_cursor)}`),
      400,
      'invalid-cursor',
    );
  });

  const mapsAContract =
    'maps a contract: ocid, dates, tags, parties with PT-NIF ids and roles, buyer, tender, award, contract';
  it(mapsAContract, async () => {
    const c = fixture.contracts[30]; // two suppliers, a competitor, two CPVs, a price, no description, no notice
    const release = (await allReleases(`buyer=${c.buyers[0].nif}`, 50)).find(
      (r) => r.id === `contract-${c.source_id}`,
    ) as Json;
    expect(release).toBeDefined();
    const buyerRef = { id: nifId(c.buyers[0].nif), name: c.buyers[0].name };
    const [s1, s2] = c.suppliers;
    const competitor = c.competitors[0];
    const item = {
      id: c.source_id,
      description: c.object,
      classification: { scheme: 'CPV', id: c.cpvs[0], description: CPV_LABELS.get(c.cpvs[0]) },
      additionalClassifications: [{ scheme: 'CPV', id: c.cpvs[1], description: CPV_LABELS.get(c.cpvs[1]) }],
    };
    expect(release).toEqual({
      ocid: `${PREFIX}-${SOURCE}-proc-${c.procedure_id}`,
      id: `contract-${c.source_id}`,
      date: day(c.published_on as string),
      tag: ['award', 'contract'],
      initiationType: 'tender',
      language: 'pt',
      synthetic: false,
      parties: [
        { ...buyerRef, identifier: { scheme: 'PT-NIF', id: c.buyers[0].nif }, roles: ['buyer'] },
        { id: nifId(s1.nif), name: s1.name, identifier: { scheme: 'PT-NIF', id: s1.nif }, roles: ['supplier'] },
        { id: nifId(s2.nif), name: s2.name, identifier: { scheme: 'PT-NIF', id: s2.nif }, roles: ['supplier'] },
        {
          id: nifId(competitor.nif),
          name: competitor.name,
          identifier: { scheme: 'PT-NIF', id: competitor.nif },
          roles: ['tenderer'],
        },
      ],
      buyer: buyerRef,
      tender: {
        id: c.procedure_id,
        title: c.object,
        procurementMethod: c.ocds_method,
        procurementMethodDetails: c.procedure_type,
        procurementMethodRationale: c.legal_basis,
        mainProcurementCategory: c.cpvs[0].startsWith('45') ? 'works' : 'services',
        value: { amount: c.base_price_eur, currency: 'EUR' },
        items: [item],
        tenderers: [{ id: nifId(competitor.nif), name: competitor.name }],
      },
      awards: [
        {
          id: `award-${c.source_id}`,
          title: c.object,
          date: day(c.awarded_on as string),
          value: { amount: c.price_eur, currency: 'EUR' },
          suppliers: [
            { id: nifId(s1.nif), name: s1.name },
            { id: nifId(s2.nif), name: s2.name },
          ],
          items: [item],
        },
      ],
      contracts: [
        {
          id: c.source_id,
          awardID: `award-${c.source_id}`,
          title: c.object,
          value: { amount: c.price_eur, currency: 'EUR' },
          dateSigned: day(c.signed_on as string),
          period: { startDate: day(c.signed_on as string), durationInDays: c.execution_days },
          documents: [{ id: 'source-record', documentType: 'contractNotice', url: c.link }],
        },
      ],
    });
  });

  it('leaves out what the source does not give, and names parties without a tax number by name', async () => {
    const c = fixture.contracts[0]; // no price (nor base price), a person and an unidentified supplier
    expect(c.price_eur).toBeNull();
    const release = (await allReleases(`buyer=${c.buyers[0].nif}&to=2023-01-01`, 50)).find(
      (r) => r.id === `contract-${c.source_id}`,
    ) as Json;
    expect(release.awards[0].value).toBeUndefined();
    expect(release.contracts[0].value).toBeUndefined();
    expect(JSON.stringify(release)).not.toContain('null');
    expect(release.parties.find((p: Json) => p.name === PERSON.name)).toEqual({
      id: nifId(PERSON.nif),
      name: PERSON.name,
      identifier: { scheme: 'PT-NIF', id: PERSON.nif },
      roles: ['supplier'],
    });
    expect(release.parties.find((p: Json) => p.name === UNIDENTIFIED.name)).toEqual({
      id: 'NAME-consorcio-sem-nif',
      name: UNIDENTIFIED.name,
      roles: ['supplier'],
    });
    expect(release.awards[0].suppliers).toContainEqual({ id: 'NAME-consorcio-sem-nif', name: UNIDENTIFIED.name });
    // Its announcement (in the store, with no deadline): the notice and the start of the tender period.
    const notice = linked[1];
    expect(release.tender.tenderPeriod).toEqual({ startDate: day(notice.published_on as string) });
    expect(release.tender.value).toEqual({ amount: notice.base_price_eur, currency: 'EUR' });
  });

  it('carries the announcement a contract names, and a release per amendment chained by release ids', async () => {
    // a notice in the store, a description, two amendments, the second without previous price
    const c = fixture.contracts[36];
    const notice = linked[0];
    const releases = (await allReleases(`buyer=${c.buyers[0].nif}`, 50)).filter((r) => r.ocid === ocidOf(c));
    const base = releases.find((r) => r.id === `contract-${c.source_id}`) as Json;
    expect(base.tender.tenderPeriod).toEqual({
      startDate: day(notice.published_on as string),
      endDate: day(notice.deadline_on as string),
    });
    expect(base.tender.documents).toEqual([
      {
        id: notice.source_id,
        documentType: 'tenderNotice',
        url: notice.link,
        datePublished: day(notice.published_on as string),
      },
    ]);
    // The contract's own base price wins over the notice's.
    expect(base.tender.value).toEqual({ amount: c.base_price_eur, currency: 'EUR' });
    expect(base.contracts[0].description).toBe(c.description);

    const [m1, m2] = amendmentsOf(c);
    expect(m1.previous_price_eur).toBeNull(); // derived: the contract price
    const after1 = releases.find((r) => r.id === `amendment-${m1.source_id}`) as Json;
    const after2 = releases.find((r) => r.id === `amendment-${m2.source_id}`) as Json;
    const euros = (n: number) => `${n.toFixed(2)} EUR`;
    expect(after1).toEqual({
      ocid: ocidOf(c),
      id: `amendment-${m1.source_id}`,
      date: day(m1.date as string),
      tag: ['contractAmendment'],
      initiationType: 'tender',
      language: 'pt',
      synthetic: false,
      contracts: [
        {
          id: c.source_id,
          awardID: `award-${c.source_id}`,
          value: { amount: m1.new_price_eur, currency: 'EUR' },
          amendments: [
            {
              id: m1.source_id,
              date: day(m1.date as string),
              rationale: m1.reason,
              description:
                `Valor do contrato alterado de ${euros(c.price_eur as number)} ` +
                `para ${euros(m1.new_price_eur as number)}.`,
              amendsReleaseID: `contract-${c.source_id}`,
              releaseID: `amendment-${m1.source_id}`,
            },
          ],
        },
      ],
    });
    expect(after2.contracts[0].amendments[0]).toMatchObject({
      amendsReleaseID: `amendment-${m1.source_id}`,
      releaseID: `amendment-${m2.source_id}`,
      description:
        `Valor do contrato alterado de ${euros(m1.new_price_eur as number)} ` +
        `para ${euros(m2.new_price_eur as number)}.`,
    });
  });
});

describe('procurement_ocds_record', () => {
  it('gathers the releases of every contract of a procedure, oldest first, and compiles them', async () => {
    const c = fixture.contracts[36];
    const lot = fixture.contracts[37]; // same procedure
    expect(lot.procedure_id).toBe(c.procedure_id);
    const res = await t.get(`${RECORDS}/${ocidOf(c)}`);
    expect(res.status, res.body).toBe(200);
    expectValidRecordPackage(res.json);
    expect(res.json).toMatchObject({
      uri: `${BASE_URL}${RECORDS}/${ocidOf(c)}`,
      version: '1.1',
      publisher: { name: 'munidata' },
      publishedDate: IMPORTED_AT,
    });
    expect(res.json.records).toHaveLength(1);
    const [record] = res.json.records;
    expect(record.ocid).toBe(ocidOf(c));
    const dates = record.releases.map((r: Json) => r.date);
    expect(dates).toEqual([...dates].sort());
    expect(record.releases.map((r: Json) => r.id).sort()).toEqual(
      [
        `contract-${c.source_id}`,
        `contract-${lot.source_id}`,
        ...amendmentsOf(c).map((a) => `amendment-${a.source_id}`),
      ].sort(),
    );
    for (const r of record.releases) expect(r.ocid).toBe(ocidOf(c));

    const compiled = record.compiledRelease;
    const latest = dates.at(-1);
    expect(compiled).toMatchObject({
      ocid: ocidOf(c),
      id: `${ocidOf(c)}-${latest}`,
      date: latest,
      tag: ['compiled'],
      initiationType: 'tender',
    });
    expect(compiled.awards.map((a: Json) => a.id).sort()).toEqual(
      [`award-${c.source_id}`, `award-${lot.source_id}`].sort(),
    );
    const contract = compiled.contracts.find((x: Json) => x.id === c.source_id);
    const [m1, m2] = amendmentsOf(c);
    // The latest value wins; the amendments accumulate; what no later release touches stays.
    expect(contract.value).toEqual({ amount: m2.new_price_eur, currency: 'EUR' });
    expect(contract.amendments.map((a: Json) => a.id)).toEqual([m1.source_id, m2.source_id]);
    expect(contract.dateSigned).toBe(day(c.signed_on as string));
    expect(compiled.contracts.find((x: Json) => x.id === lot.source_id).value).toEqual({
      amount: lot.price_eur,
      currency: 'EUR',
    });
    // Parties of both lots, each once; the buyers of both contracts are buyers.
    const ids = compiled.parties.map((p: Json) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const x of [c, lot]) {
      expect(compiled.parties.find((p: Json) => p.id === nifId(x.buyers[0].nif)).roles).toContain('buyer');
      for (const s of x.suppliers) expect(ids).toContain(nifId(s.nif));
    }
    // Items of both lots, told apart by id.
    expect(compiled.tender.items.map((i: Json) => i.id).sort()).toEqual([c.source_id, lot.source_id].sort());
  });

  it('answers a contract without a procedure id as a process of its own', async () => {
    const ocid = `${PREFIX}-${SOURCE}-contract-${lone.source_id}`;
    const res = await t.get(`${RECORDS}/${ocid}`);
    expect(res.status, res.body).toBe(200);
    expectValidRecordPackage(res.json);
    const [record] = res.json.records;
    expect(record.releases).toHaveLength(1);
    expect(record.releases[0]).toMatchObject({
      ocid,
      id: `contract-${lone.source_id}`,
      tender: { id: lone.source_id },
    });
    expect(record.releases[0].contracts[0].dateSigned).toBeUndefined();
    expect(record.releases[0].contracts[0].period).toBeUndefined();
    expect(record.compiledRelease.contracts).toHaveLength(1);
    // It is listed under the same ocid.
    const listed = await allReleases('from=2020-02-02&to=2020-02-02');
    expect(listed.map((r) => r.ocid)).toEqual([ocid]);
  });

  it('is 404 for an unknown process and 422 for a malformed ocid', async () => {
    expectProblem(await t.get(`${RECORDS}/${PREFIX}-${SOURCE}-proc-999999999`), 404, 'not-found');
    expectProblem(
      await t.get(`${RECORDS}/${PREFIX}-nosource-proc-${fixture.contracts[0].procedure_id}`),
      404,
      'not-found',
    );
    // A contract that has a procedure belongs to the procedure's process, not to one of its own.
    expectProblem(
      await t.get(`${RECORDS}/${PREFIX}-${SOURCE}-contract-${fixture.contracts[0].source_id}`),
      404,
      'not-found',
    );
    for (const bad of [
      'foo',
      `${PREFIX}-${SOURCE}-lot-1`,
      `ocds-abc123-${SOURCE}-proc-1`,
      `${PREFIX}-${SOURCE}-proc-`,
      `${PREFIX}-Fixture-proc-1`,
    ]) {
      expectProblem(await t.get(`${RECORDS}/${encodeURIComponent(bad)}`), 422, 'validation-error');
    }
  });

  it('lists in each record exactly the releases the release package gives for its contracts', async () => {
    const releases = await allReleases('municipality=1106', 50);
    const byOcid = new Map<string, Json[]>();
    for (const r of releases) byOcid.set(r.ocid, [...(byOcid.get(r.ocid) ?? []), r]);
    for (const [ocid, list] of [...byOcid].slice(0, 5)) {
      const res = await t.get(`${RECORDS}/${ocid}`);
      expect(res.status).toBe(200);
      const recordReleases: Json[] = res.json.records[0].releases;
      for (const r of list) expect(recordReleases.find((x) => x.id === r.id)).toEqual(r);
      for (const r of recordReleases) expect(bySourceId(r.contracts[0].id)).toBeDefined();
    }
  });
});
