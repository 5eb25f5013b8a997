/**
 * The OpenAPI 3.1 document of the REST channel, derived entirely from the registry, the error table and the
 * domain list: no operation is described here by hand, so the document cannot drift from what is served.
 * The helpers that turn an operation into REST parameters and example URLs are exported for the docs page,
 * which must show exactly what this document declares.
 */
import { STATUS_CODES } from 'node:http';
import { CSV_FORMAT_DIALECTS, CSV_MEDIA_TYPE, csvTable, EXCEL_PT_TRAITS } from '../../core/csv.js';
import { csvColumns, csvNote } from '../../core/csv-note.js';
import { datasetsOf } from '../../core/datasets.js';
import { isPaged, type JsonSchema, mapSchemas, PROBLEM_SCHEMA, plainSchema } from '../../core/json-schema.js';
import type { AnyOperation, DownloadRoute, OperationExample } from '../../core/operation.js';
import { schemaName } from '../../core/shared-schemas.js';
import { ACCOUNT_TAG, ACCOUNT_TAG_DESCRIPTION, DOMAIN_NAMES, DOMAINS } from '../../lib/domains.js';
import { ERROR_KINDS, type ErrorKind, problemTypeUrl } from '../../lib/errors.js';
import type { Json } from '../../lib/json.js';
import { OPENAPI_DOCUMENT_VERSION, SERVICE_API_VERSION } from '../../lib/service.js';
import type { Registry } from '../../operations/registry.js';
import { rateLimitHeaders } from '../http/limit-headers.js';
import { FORMAT_PARAMETER, FORMATS } from './csv-negotiation.js';

/** One REST parameter of an operation: a path segment or a query parameter, under the input's property name. */
export interface RestParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description: string | undefined;
  readonly schema: JsonSchema;
  /** Array-typed inputs are given by repeating the query parameter. */
  readonly repeatable: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Shared derivations (also used by the docs page)
// ---------------------------------------------------------------------------------------------------------

/** Fastify's `/v1/indicators/:key` → OpenAPI's `/v1/indicators/{key}`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export function pathParameterNames(fastifyPath: string): string[] {
  return [...fastifyPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

/** The operation's input as REST parameters: path parameters first (in path order), then the query parameters. */
export function restParameters(op: AnyOperation): RestParameter[] {
  const input = plainSchema(op.input);
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inPath = pathParameterNames(op.rest.path);
  const toParameter = (name: string, where: 'path' | 'query'): RestParameter => {
    const { description, ...schema } = properties[name] ?? {};
    return {
      name,
      in: where,
      // A path segment is always present; the registry refuses a path parameter that is not a required input.
      required: where === 'path' || required.has(name),
      description,
      schema,
      // A list, or one value or a list (indicators_series' `municipality`): repeat the parameter for several.
      repeatable: schema.type === 'array' || (schema.anyOf ?? []).some((member) => member.type === 'array'),
    };
  };
  const query = Object.keys(properties).filter((name) => !inPath.includes(name));
  return [...inPath.map((n) => toParameter(n, 'path')), ...query.map((n) => toParameter(n, 'query'))];
}

/** The parameters of an operation's file route (`rest.download`): the dataset, and the CSV form. */
export function downloadParameters(op: AnyOperation, registry: Registry): RestParameter[] {
  const formats = Object.keys(CSV_FORMAT_DIALECTS);
  return [
    {
      name: 'dataset',
      in: 'path',
      required: true,
      description: `A \`name\` that \`${op.name}\` lists (the datasets of the plan's domains).`,
      schema: { type: 'string', enum: datasetsOf(registry.all).map((d) => d.name) },
      repeatable: false,
    },
    {
      name: FORMAT_PARAMETER,
      in: 'query',
      required: false,
      description: `\`csv\` (RFC 4180) or \`csv-excel\` (for a spreadsheet set to Portuguese: ${EXCEL_PT_TRAITS}).`,
      schema: { type: 'string', enum: formats, default: 'csv' },
      repeatable: false,
    },
  ];
}

/** The full request URL of an example: path parameters substituted, the rest as a query string (arrays repeated). */
export function exampleRequestUrl(op: AnyOperation, example: OperationExample, baseUrl: string): string {
  const inPath = new Set(pathParameterNames(op.rest.path));
  const path = op.rest.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    encodeURIComponent(String(example.input[name] ?? `{${name}}`)),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(example.input)) {
    if (inPath.has(name) || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

/** The error kinds of each HTTP status, in status order (403 has several). */
export function errorKindsByStatus(): Map<number, ErrorKind[]> {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of Object.keys(ERROR_KINDS) as ErrorKind[]) {
    const status = ERROR_KINDS[kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

// ---------------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------------

export function buildOpenApi(registry: Registry, baseUrl: string): Record<string, unknown> {
  const hoister = new SchemaHoister();
  const paths: Json = {};
  for (const op of registry.all) {
    paths[openApiPath(op.rest.path)] = { get: operationObject(op, baseUrl, hoister) };
    const download = op.rest.download;
    if (download) paths[openApiPath(download.path)] = { get: downloadObject(op, download, registry) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'munidata',
      version: OPENAPI_DOCUMENT_VERSION,
      description:
        'Read-only data service over Portuguese municipal data: indicators and municipalities, signals, ' +
        'public procurement and alerts. Every endpoint is GET and needs an API key. Start with `GET /v1/me`, ' +
        `which shows the plan, its data domains, limits and usage. Reference: ${baseUrl}/docs`,
      'x-service-api-version': SERVICE_API_VERSION,
    },
    'x-service-api-version': SERVICE_API_VERSION,
    externalDocs: { description: 'Reference page', url: `${baseUrl}/docs` },
    servers: [{ url: baseUrl }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [
      { name: ACCOUNT_TAG, description: ACCOUNT_TAG_DESCRIPTION },
      ...DOMAIN_NAMES.map((d) => ({ name: d, description: DOMAINS[d].description })),
    ],
    paths,
    components: {
      schemas: { ...hoister.components, Problem: PROBLEM_SCHEMA },
      responses: errorResponses(baseUrl),
      parameters: { IfNoneMatch: IF_NONE_MATCH, Format: FORMAT },
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

function operationObject(op: AnyOperation, baseUrl: string, hoister: SchemaHoister): Json {
  return {
    operationId: op.name,
    summary: op.summary,
    description: operationDescription(op),
    tags: [op.domain ?? ACCOUNT_TAG],
    'x-mcp-tool': op.name,
    'x-a2a-skill': op.name,
    'x-scope': op.scope,
    parameters: [
      ...restParameters(op).map((p) => parameterObject(p, op.examples)),
      ...(csvColumns(op) === undefined ? [] : [{ $ref: '#/components/parameters/Format' }]),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ],
    responses: {
      '200': successResponse(op, baseUrl, hoister),
      '304': notModifiedResponse(),
      ...errorResponseRefs(),
    },
  };
}

/**
 * The REST-only file route of an operation (the bulk download): `x-download-of` names the operation that lists its
 * files, which is the A2A skill and the MCP tool; the route itself is neither.
 */
function downloadObject(op: AnyOperation, route: DownloadRoute, registry: Registry): Json {
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      route.description,
      `Needs the \`${op.scope}\` scope and a plan with the \`${op.domain}\` data domain, and the domain and scope of ` +
        `the dataset's own operation.`,
    ].join('\n\n'),
    tags: [op.domain ?? ACCOUNT_TAG],
    'x-download-of': op.name,
    'x-scope': op.scope,
    parameters: [
      ...downloadParameters(op, registry).map((p) => parameterObject(p, [])),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ],
    responses: {
      '200': {
        description: route.summary,
        headers: {
          ETag: { $ref: '#/components/headers/ETag' },
          'Content-Length': {
            description:
              'The size the list gives, once the file was measured since the data last changed; absent when ' +
              'compressed.',
            schema: { type: 'integer' },
          },
          'Content-Disposition': { description: '`attachment; filename="<dataset>.csv"`.', schema: { type: 'string' } },
          'Cache-Control': { description: '`private, max-age=60`.', schema: { type: 'string' } },
          ...COMMON_HEADER_REFS,
        },
        content: {
          'text/csv': {
            schema: {
              type: 'string',
              description: `\`${CSV_MEDIA_TYPE}\`: a header row, then every row of the dataset; CRLF line ends.`,
            },
          },
        },
      },
      '304': notModifiedResponse(),
      ...errorResponseRefs(),
    },
  };
}

/** The operation's own description, plus what the registry knows about access, quota and paging. */
function operationDescription(op: AnyOperation): string {
  const notes: string[] = [];
  if (op.scope !== null)
    notes.push(`Needs the \`${op.scope}\` scope and a plan with the \`${op.domain}\` data domain.`);
  if (op.free) notes.push('Free of quota.');
  if (isPaged(op)) {
    notes.push(
      'Paged: pass `next_cursor` as `cursor` until `has_more` is false (also given as `Link: rel="next"` and ' +
        '`Next-Cursor`).',
    );
  }
  const csv = csvNote(
    op,
    'send `Accept: text/csv` or `format=csv` ' +
      `(\`format=csv-excel\` for a spreadsheet set to Portuguese: ${EXCEL_PT_TRAITS})`,
  );
  if (csv !== undefined) notes.push(csv);
  return [op.description, ...notes].join('\n\n');
}

function parameterObject(p: RestParameter, examples: readonly OperationExample[]): Json {
  const parameter: Json = { name: p.name, in: p.in, required: p.required };
  if (p.description !== undefined) parameter.description = p.description;
  if (p.repeatable) Object.assign(parameter, { style: 'form', explode: true });
  parameter.schema = p.schema;
  // Keys are the operation's example keys, so one example has one name on every parameter and on the answer.
  const keys = exampleKeys(examples);
  const withValue = examples.flatMap((e, i) => (e.input[p.name] === undefined ? [] : [[keys[i], e] as const]));
  if (withValue.length > 0) {
    parameter.examples = Object.fromEntries(
      withValue.map(([key, e]) => [key, { summary: e.title, value: e.input[p.name] }]),
    );
  }
  return parameter;
}

function successResponse(op: AnyOperation, baseUrl: string, hoister: SchemaHoister): Json {
  const headers: Json = {
    ETag: { $ref: '#/components/headers/ETag' },
    'Cache-Control': {
      description:
        op.cache === 'caller'
          ? 'The answer depends on the caller: `private, no-store`.'
          : 'The same for every caller of the same plan: `private, max-age=60`.',
      schema: { type: 'string' },
    },
    ...COMMON_HEADER_REFS,
  };
  if (isPaged(op)) {
    headers.Link = { $ref: '#/components/headers/Link' };
    headers['Next-Cursor'] = { $ref: '#/components/headers/Next-Cursor' };
  }
  const content: Json = { schema: hoister.hoist(plainSchema(op.output)) };
  if (op.examples.length > 0) {
    // The service answers from live data, so examples carry the request, not a made-up answer.
    const keys = exampleKeys(op.examples);
    content.examples = Object.fromEntries(
      op.examples.map((e, i) => {
        const url = exampleRequestUrl(op, e, baseUrl);
        return [keys[i], { summary: e.title, description: `\`GET ${url}\``, 'x-request-example': url }];
      }),
    );
  }
  const media: Json = { 'application/json': content };
  const csv = csvTable(op.output, op.csvRows);
  if (csv !== undefined) {
    headers['Content-Disposition'] = { $ref: '#/components/headers/Content-Disposition' };
    media['text/csv'] = {
      schema: {
        type: 'string',
        description: `\`${CSV_MEDIA_TYPE}\`: a header row, then one row per item; CRLF line ends.`,
      },
      examples: {
        header: { summary: 'The header row (every answer starts with it, even an empty one)', value: csv.render([]) },
      },
    };
  }
  return { description: op.summary, headers, content: media };
}

function notModifiedResponse(): Json {
  return {
    description: 'Not modified: the `If-None-Match` ETag matches the current answer. No body; free of quota.',
    headers: { ETag: { $ref: '#/components/headers/ETag' }, ...COMMON_HEADER_REFS },
  };
}

/** Each error status refers to one shared response, so every operation documents every refusal the same way. */
function errorResponseRefs(): Json {
  return Object.fromEntries(
    [...errorKindsByStatus().keys()].map((status) => [
      String(status),
      { $ref: `#/components/responses/${responseName(status)}` },
    ]),
  );
}

/** `422` → `UnprocessableEntity`: the component name follows the HTTP reason phrase. */
export function responseName(status: number): string {
  return (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z0-9]+/g, '');
}

function errorResponses(baseUrl: string): Json {
  const responses: Json = {};
  for (const [status, kinds] of errorKindsByStatus()) {
    const headers: Json = { ...COMMON_HEADER_REFS };
    if (status === 401) headers['WWW-Authenticate'] = { description: '`Bearer`.', schema: { type: 'string' } };
    if (status === 405) headers.Allow = { description: 'The methods served: `GET, HEAD`.', schema: { type: 'string' } };
    if (RETRY_AFTER_STATUSES.has(status)) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    responses[responseName(status)] = {
      description: [
        `${STATUS_CODES[status] ?? status}. Problem kinds (the last segment of \`type\`):`,
        ...kinds.map((k) => `- \`${k}\`: ${ERROR_KINDS[k].title}. ${ERROR_KINDS[k].description}`),
      ].join('\n'),
      headers,
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          examples: Object.fromEntries(
            kinds.map((k) => [k, { summary: ERROR_KINDS[k].title, value: problemExample(baseUrl, k) }]),
          ),
        },
      },
    };
  }
  return responses;
}

function problemExample(baseUrl: string, kind: ErrorKind): Json {
  const info = ERROR_KINDS[kind];
  const example: Json = {
    type: problemTypeUrl(baseUrl, kind),
    title: info.title,
    status: info.status,
    request_id: 'req_0123456789abcdef',
  };
  if (kind === 'validation-error') example.errors = [{ field: 'limit', message: 'must be <= 200' }];
  return example;
}

/** Stable, component-safe keys for an operation's examples (`Population of Lisboa` → `population-of-lisboa`). */
function exampleKeys(examples: readonly OperationExample[]): string[] {
  const used = new Set<string>();
  return examples.map((e, i) => {
    const slug = e.title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    // Two examples with the same title (or none) still need distinct keys.
    const key = slug && !used.has(slug) ? slug : `${slug || 'example'}-${i + 1}`;
    used.add(key);
    return key;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Schema hoisting: titled resource schemas become components referenced by $ref
// ---------------------------------------------------------------------------------------------------------

/**
 * Resource schemas carry a `title` (IndicatorSummary, MeResponse, `Page of SnapshotRow`…). Hoisting them keeps the
 * document small and gives client generators stable type names. Two different schemas under one title would make
 * the name ambiguous, so that is refused when the document is built (at start-up), like a duplicate route.
 */
class SchemaHoister {
  readonly components: Record<string, JsonSchema> = {};
  readonly #fingerprints = new Map<string, string>();

  hoist(schema: JsonSchema): unknown {
    return mapSchemas(schema, (node) => (typeof node.title === 'string' ? this.#register(node.title, node) : node));
  }

  #register(title: string, schema: Json): Json {
    const name = schemaName(title);
    const fingerprint = JSON.stringify(schema);
    const known = this.#fingerprints.get(name);
    if (known !== undefined && known !== fingerprint) {
      throw new Error(`OpenAPI: two different schemas are titled "${title}"; give one of them another title`);
    }
    this.#fingerprints.set(name, fingerprint);
    this.components[name] = schema as JsonSchema;
    return { $ref: `#/components/schemas/${name}` };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Fixed components: problem schema, headers, security
// ---------------------------------------------------------------------------------------------------------

const RETRY_AFTER_STATUSES = new Set([402, 429, 503]);

/** The limit headers of an answer, as every answer's are written: the example here and on the docs page. */
export const RATE_LIMIT_EXAMPLE = rateLimitHeaders(
  { limit: 600, remaining: 599, resetSeconds: 42 },
  { limit: 100_000, remaining: 99_000, resetSeconds: 1_209_600 },
);

const HEADERS: Json = {
  ETag: {
    description:
      'Entity tag of the answer. Send it back as `If-None-Match`; an unchanged answer is a 304, free of quota.',
    schema: { type: 'string' },
  },
  'Request-Id': {
    description: 'Identifier of the request; problem documents carry the same `request_id`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: `What remains of each limit and when it resets, e.g. \`${RATE_LIMIT_EXAMPLE.ratelimit}\`.`,
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      `The per-minute limit and the monthly quota of the plan, e.g. ` +
      `\`${RATE_LIMIT_EXAMPLE['ratelimit-policy']}\`.`,
    schema: { type: 'string' },
  },
  Link: {
    description: 'On a page that has a next one: `<{next page URL}>; rel="next"`.',
    schema: { type: 'string' },
  },
  'Next-Cursor': {
    description:
      'On a page that has a next one: its cursor, the same as `next_cursor` (the only place a CSV answer carries it).',
    schema: { type: 'string' },
  },
  'Content-Disposition': {
    description:
      'On a CSV answer: `attachment; filename="<operation>-<path parameters>.csv"`, the name to save it under.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 1 },
  },
};

/** Sent on every answer to an authenticated request (the limit headers once the key is known). */
const COMMON_HEADER_REFS: Json = {
  'Request-Id': { $ref: '#/components/headers/Request-Id' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

const IF_NONE_MATCH: Json = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The `ETag` of an earlier answer; an unchanged answer is a 304 without body, free of quota.',
  schema: { type: 'string' },
};

const FORMAT: Json = {
  name: FORMAT_PARAMETER,
  in: 'query',
  required: false,
  description:
    'The representation, when a link cannot send `Accept`: `json`, `csv` (RFC 4180, as `Accept: text/csv`) or ' +
    `\`csv-excel\` (for a spreadsheet set to Portuguese: ${EXCEL_PT_TRAITS}). ` +
    'Given, it wins over `Accept`.',
  schema: { type: 'string', enum: [...FORMATS] },
};

const SECURITY_SCHEMES: Json = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_live_…',
    description:
      'An API key, `Authorization: Bearer sk_live_…`. Keep it on a server: requests with an `Origin` header get 403.',
  },
  apiKeyHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'The same API key in the `X-API-Key` header, for clients that cannot send `Authorization`.',
  },
};
