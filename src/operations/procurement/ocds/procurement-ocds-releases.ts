import { type Static, Type } from '@sinclair/typebox';
import { defineOperation } from '../../../core/operation.js';
import { Paging } from '../../../core/schemas.js';
import { CONTRACT_FILTERS_DESCRIPTION, contractFilterOf, contractFilterParams } from '../contract-filters.js';
import { datePosition } from '../inputs.js';
import { OCID_PREFIX } from './ocid.js';
import { PAGINATION_EXTENSION, packageHead, releasesOf, serviceUrl } from './packages.js';
import { OcdsReleasePackage } from './schemas.js';
import { syntheticExtensionUrl } from './synthetic-extension.js';

const PATH = '/v1/procurement/ocds/releases';

const input = Type.Object({ ...contractFilterParams, ...Paging }, { additionalProperties: false });
/** Query parameters in the schema's order, so that a package's `uri` is the same whatever order they came in. */
const PARAMETERS = Object.keys(input.properties);

export const procurementOcdsReleases = defineOperation({
  name: 'procurement_ocds_releases',
  title: 'Public contracts as OCDS releases',
  summary: 'Public contracts as an OCDS 1.1 release package, filtered and paged like procurement_contracts.',
  description:
    'The contracts procurement_contracts lists — same filters, same order (publication date descending, then id) — ' +
    'as an Open Contracting Data Standard 1.1 release package: for each contract one release with the tender ' +
    '(procedure, base price, CPV items, tenderers), the award, the contract and the parties (`PT-NIF-<tax number>`), ' +
    'followed by one `contractAmendment` release per amendment. `ocid` identifies the contracting process (contracts ' +
    `of one procedure share it: \`${OCID_PREFIX}-<source>-proc-<procedure id>\`); ` +
    `procurement_ocds_record gives all of ` +
    'its releases and the compiled release. `limit` counts contracts, so a page may hold more releases than `limit`. ' +
    'Page with `cursor` = `next_cursor` (the next page is also `links.next`, the OCDS pagination extension). ' +
    CONTRACT_FILTERS_DESCRIPTION,
  domain: 'procurement',
  scope: 'procurement:read',
  input,
  output: OcdsReleasePackage,
  rest: { path: PATH },
  cache: 'data',
  examples: [
    { title: 'Contracts executed in Lisboa', input: { municipality: ['1106'], limit: 20 } },
    {
      title: 'Construction work in Porto since 2024',
      input: { municipality: ['porto'], cpv: '45', from: '2024-01-01', limit: 10 },
    },
  ],
  async handler(args, { reference, store, paging, baseUrl, now }) {
    const rows = await store.listContracts(contractFilterOf(args, reference), {
      after: datePosition(paging.after),
      limit: paging.limit + 1,
    });
    const page = paging.page(rows, (c) => [c.published_on, c.id]);
    const { releases, importedAt } = await releasesOf(store, page.items);
    const query = PARAMETERS.map((name) => [name, (args as Record<string, unknown>)[name]] as const);
    const uri = serviceUrl(baseUrl, PATH, query);
    const next =
      page.next_cursor === null
        ? undefined
        : serviceUrl(
            baseUrl,
            PATH,
            query.map(([name, value]) => [name, name === 'cursor' ? page.next_cursor : value] as const),
          );
    return {
      ...packageHead(uri, baseUrl, importedAt ?? now.toISOString(), [
        PAGINATION_EXTENSION,
        syntheticExtensionUrl(baseUrl),
      ]),
      releases,
      ...(next === undefined ? {} : { links: { next } }),
      next_cursor: page.next_cursor,
      has_more: page.has_more,
    } as Static<typeof OcdsReleasePackage>;
  },
});
