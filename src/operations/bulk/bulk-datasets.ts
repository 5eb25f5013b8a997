/**
 * `bulk_datasets`: the datasets the caller's plan may download whole, each with its file's REST address, size,
 * rows and whether it holds synthetic data (docs/api.md, Bulk download). The files themselves are served by the REST
 * route beside it (`rest.download`, `GET /v1/bulk/{dataset}`): A2A and MCP list them here and an agent fetches the
 * file over HTTP with the same key, since a file of tens of megabytes is no tool result.
 */
import { Type } from '@sinclair/typebox';
import { CSV_FORMAT_DIALECTS, CSV_MEDIA_TYPE, EXCEL_PT_TRAITS } from '../../core/csv.js';
import type { FileFormat } from '../../core/execution.js';
import { defineOperation } from '../../core/operation.js';
import { Nullable, StringEnum } from '../../core/schemas.js';
import { DOMAIN_NAMES } from '../../lib/domains.js';
import type { Store } from '../../store/store.js';

const BULK_DOWNLOAD_PATH = '/v1/bulk/:dataset';
const FILE_FORMATS = Object.keys(CSV_FORMAT_DIALECTS) as FileFormat[];

/** The procurement records a dataset is made of: its `last_modified` is their newest import (`sources`). */
const IMPORTED_RECORDS: Readonly<Record<string, readonly string[]>> = {
  procurement_contracts: ['contracts'],
  procurement_announcements: ['announcements'],
  procurement_amendments: ['amendments'],
  procurement_entities: ['contracts', 'announcements', 'amendments'],
};

const BulkFile = Type.Object(
  {
    format: StringEnum(FILE_FORMATS, {
      description: `\`csv\` (RFC 4180) or \`csv-excel\` (${EXCEL_PT_TRAITS}: a spreadsheet set to Portuguese).`,
    }),
    media_type: Type.String(),
    url: Type.String({ description: 'Where to GET the file, with the same key (REST only; one request of quota).' }),
    size_bytes: Type.Integer({
      minimum: 0,
      description: 'The length of the file (uncompressed): its `Content-Length`.',
    }),
    etag: Type.String({ description: "A hash of the file's bytes: its `ETag`. Unchanged, the file is the same." }),
  },
  { title: 'BulkFile' },
);

const BulkDataset = Type.Object(
  {
    name: Type.String({ description: 'The dataset, as the download address names it (`contracts`, `observations`).' }),
    operation: Type.String({
      description:
        'The list operation whose every row the file holds, in the columns of its CSV form: page or filter it there.',
    }),
    domain: StringEnum(DOMAIN_NAMES, { description: 'The data domain the plan needs for it.' }),
    columns: Type.Array(Type.String(), { description: 'The header row of the file.' }),
    rows: Type.Integer({ minimum: 0 }),
    synthetic: Type.Boolean({
      description:
        'true when some rows are generated demo data (synthetic, not real: each row says so in `synthetic`).',
    }),
    synthetic_rows: Type.Integer({ minimum: 0, description: 'How many rows are generated demo data.' }),
    last_modified: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'When its newest record was imported; null where the service does not record it (all but procurement).',
      }),
    ),
    formats: Type.Array(BulkFile),
  },
  { title: 'BulkDataset' },
);

export const bulkDatasets = defineOperation({
  name: 'bulk_datasets',
  title: 'Datasets to download whole',
  summary:
    'The datasets the plan may download whole, each one CSV file with its address, size, rows and synthetic share.',
  description:
    "Lists every dataset of the plan's data domains that can be downloaded whole: " +
    'contracts, entities, announcements, ' +
    'amendments, signals, signal cases, indicators, municipalities and the observations of every indicator series. ' +
    'Each entry names the list operation it is the whole of, its columns, its row count, whether it holds generated ' +
    'demo data, and one file per format with its URL, size in bytes and ETag. ' +
    'GET the URL over HTTP with the same key ' +
    '(REST only, also from an agent): ' +
    'the file is streamed and costs one request of quota, whatever its size. Needs a ' +
    'plan with the `bulk` domain. Files are measured once after each change of the data, so the first listing then ' +
    'takes seconds (tens with every dataset on a large store); `dataset` lists one, measuring only it.',
  domain: 'bulk',
  scope: 'bulk:read',
  input: Type.Object(
    {
      dataset: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Only this dataset (its `name`): measuring one file is quicker than measuring them all.',
          examples: ['contracts', 'observations'],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ items: Type.Array(BulkDataset) }, { title: 'BulkDatasets' }),
  rest: {
    path: '/v1/bulk',
    download: {
      path: BULK_DOWNLOAD_PATH,
      operationId: 'bulk_download',
      summary: 'One dataset, whole, as one CSV file: streamed, one request of quota.',
      description:
        'Sends every row of the dataset (a `name` of `bulk_datasets`) as one CSV file, in the columns of its list ' +
        "operation's CSV form, streamed page by page. `format=csv-excel` gives the spreadsheet variant. Once the " +
        'dataset was listed since the data last changed, the answer has `Content-Length` and a strong `ETag` (the ' +
        'size and etag of the list); `If-None-Match` with it is a 304, free. `Accept-Encoding: gzip` or `br` ' +
        'compresses it (then without `Content-Length`). It costs one request of quota and one of the per-minute ' +
        'limit, whatever its size. An answer cut short (the connection closed before the last byte) was not the ' +
        'whole file: download it again.',
    },
  },
  cache: 'caller',
  // One dataset: listing them all measures them all (seconds), and the example is what every channel's checks call.
  examples: [{ title: 'The municipalities file', input: { dataset: 'municipalities' } }],
  fileLinks: (answer) =>
    answer.items.flatMap((dataset) =>
      dataset.formats.map((file) => ({
        url: file.url,
        name: file.format === 'csv' ? `${dataset.name}.csv` : `${dataset.name}.${file.format}.csv`,
        title: `${dataset.name} (${file.format}, ${dataset.rows} rows)`,
        mediaType: file.media_type,
        sizeBytes: file.size_bytes,
      })),
    ),
  async handler(input, ctx) {
    const { caller, reference, datasets, baseUrl, store } = ctx;
    const available =
      input.dataset === undefined
        ? datasets.forCaller(caller, reference.betaGates)
        : [datasets.resolve(input.dataset, caller, reference.betaGates, baseUrl)];
    const [measures, imported] = await Promise.all([
      Promise.all(available.map((d) => datasets.measure(d, ctx))),
      lastImports(store),
    ]);
    return {
      items: available.map((dataset, i) => {
        const measure = measures[i];
        const url = `${baseUrl}${BULK_DOWNLOAD_PATH.replace(':dataset', dataset.name)}`;
        const last = (IMPORTED_RECORDS[dataset.operation.name] ?? []).map((records) => imported.get(records) ?? null);
        return {
          name: dataset.name,
          operation: dataset.operation.name,
          domain: dataset.domain,
          columns: [...dataset.leading, ...dataset.table.columns],
          rows: measure.rows,
          synthetic: measure.syntheticRows > 0,
          synthetic_rows: measure.syntheticRows,
          last_modified: last.reduce<string | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null),
          formats: FILE_FORMATS.map((format) => ({
            format,
            media_type: CSV_MEDIA_TYPE,
            url: format === 'csv' ? url : `${url}?format=${format}`,
            size_bytes: measure.bytes[CSV_FORMAT_DIALECTS[format]],
            etag: measure.etags[CSV_FORMAT_DIALECTS[format]],
          })),
        };
      }),
    };
  },
});

/** The newest import of each kind of procurement record, over every source. */
async function lastImports(store: Store): Promise<Map<string, string>> {
  const newest = new Map<string, string>();
  for (const row of await store.procurementSources()) {
    const known = newest.get(row.records);
    if (row.last_imported_at !== null && (known === undefined || row.last_imported_at > known))
      newest.set(row.records, row.last_imported_at);
  }
  return newest;
}
