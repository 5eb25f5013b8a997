import { type Static, Type } from '@sinclair/typebox';
import { defineOperation } from '../../../core/operation.js';
import { ApiError } from '../../../lib/errors.js';
import { compileReleases } from './merge.js';
import { OCID_PATTERN, OCID_PREFIX, parseOcid } from './ocid.js';
import { packageHead, releasesOf, serviceUrl } from './packages.js';
import { procurementOcdsReleases } from './procurement-ocds-releases.js';
import { byDate } from './releases.js';
import { OcdsRecordPackage } from './schemas.js';
import { syntheticExtensionUrl } from './synthetic-extension.js';

export const procurementOcdsRecord = defineOperation({
  name: 'procurement_ocds_record',
  title: 'One contracting process as an OCDS record',
  summary:
    'The OCDS 1.1 record package of one contracting process: every release, oldest first, and the compiled release.',
  description:
    'Returns the Open Contracting Data Standard 1.1 record package of the process with this `ocid` (as ' +
    'procurement_ocds_releases gives it): one record with every release of the process embedded, oldest first — ' +
    'for each of its contracts (lots share a procedure) the contract as published and one `contractAmendment` ' +
    'release per amendment — and the `compiledRelease`, the current state merged with the OCDS merge routine ' +
    `(latest value wins; awards, contracts, parties and amendments merged by id). ` +
    `An ocid is \`${OCID_PREFIX}-<source>-proc-<procedure id>\` for a procedure ` +
    `(\`${OCID_PREFIX}-demo-proc-demo-p-1\`) or \`${OCID_PREFIX}-<source>-contract-<source_id>\` for a ` +
    `contract without a procedure id, the contract's \`source_id\` (its id at the source, not its \`id\` here): ` +
    `the real Portal BASE contract 10591050 is ` +
    `\`${OCID_PREFIX}-base-contract-10591050\`. An unknown ocid is 404.`,
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      ocid: Type.String({
        minLength: 1,
        maxLength: 300,
        pattern: OCID_PATTERN,
        description:
          `Open Contracting ID of the process: \`${OCID_PREFIX}-<source>-proc-<procedure id>\` or ` +
          `\`${OCID_PREFIX}-<source>-contract-<source_id>\` (the contract's \`source_id\`, not its \`id\`).`,
        examples: [`${OCID_PREFIX}-demo-proc-demo-p-1`],
      }),
    },
    { additionalProperties: false },
  ),
  output: OcdsRecordPackage,
  rest: { path: '/v1/procurement/ocds/records/:ocid' },
  cache: 'data',
  // A demo procedure: the tests run every example on the demo store, which holds no real contract, and the real
  // first start holds no demo contract, so no one ocid answers on both (docs/ocds.md, "Contracting processes and the
  // ocid"); the description names a real one too.
  examples: [{ title: 'The process of demo procedure 1', input: { ocid: `${OCID_PREFIX}-demo-proc-demo-p-1` } }],
  async handler(input, { store, baseUrl, now }) {
    const parsed = parseOcid(input.ocid);
    if (parsed === undefined) {
      throw new ApiError('validation-error', {
        detail: `\`ocid\` is not an ocid of this service (${OCID_PREFIX}-<source>-proc-<procedure id>).`,
        errors: [{ field: 'ocid', message: 'is not an ocid of this service' }],
      });
    }
    const contracts = await store.processContracts(parsed.source, parsed.process);
    if (contracts.length === 0) {
      throw new ApiError('not-found', {
        detail: `No contracting process with ocid ${input.ocid}.`,
        see: { operation: procurementOcdsReleases, does: 'gives the ocids' },
      });
    }
    const { releases, importedAt } = await releasesOf(store, contracts);
    const ordered = byDate(releases);
    const uri = serviceUrl(baseUrl, `/v1/procurement/ocds/records/${encodeURIComponent(input.ocid)}`);
    return {
      ...packageHead(uri, baseUrl, importedAt ?? now.toISOString(), [syntheticExtensionUrl(baseUrl)]),
      records: [{ ocid: input.ocid, releases: ordered, compiledRelease: compileReleases(input.ocid, ordered) }],
    } as Static<typeof OcdsRecordPackage>;
  },
});
