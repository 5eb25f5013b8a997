/**
 * The OpenAPI document and the reference page are derived from the registry; these tests pin what they must
 * declare for every operation. No OpenAPI validator is installed, so the document's structure is checked here,
 * and every JSON Schema in it is compiled by Ajv's 2020-12 validator (the dialect of OpenAPI 3.1).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, openApiPath, pathParameterNames } from '../src/channels/rest/openapi.js';
import { csvTable } from '../src/core/csv.js';
import { plainSchema } from '../src/core/json-schema.js';
import type { AnyOperation } from '../src/core/operation.js';
import { ERROR_KINDS } from '../src/lib/errors.js';
import { createRegistry } from '../src/operations/index.js';
import { renderDocsPage } from '../src/web/docs-page.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

// Navigating a JSON document of known shape: loose typing keeps the assertions readable.
type Json = Record<string, any>;

const BASE_URL = 'https://api.example.test';
const registry = createRegistry();
const doc = buildOpenApi(registry, BASE_URL) as Json;
const components = doc.components as Json;

function getOperation(op: AnyOperation): Json {
  return doc.paths[openApiPath(op.rest.path)].get;
}

function operationNamed(name: string): Json {
  const op = registry.get(name);
  if (!op) throw new Error(`no operation ${name}`);
  return getOperation(op);
}

/** A `$ref` object, or the object itself. Only local component references are expected. */
function deref(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = resolvePointer(node.$ref);
  if (target === undefined) throw new Error(`unresolved ${node.$ref}`);
  return deref(target);
}

function resolvePointer(ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    node = node?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) collectRefs(n, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  it('declares OpenAPI 3.1.0, the document version and the dated API version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('munidata');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info['x-service-api-version']).toBe('2026-07');
    expect(doc['x-service-api-version']).toBe('2026-07');
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
  });

  it('declares bearer and X-API-Key authentication', () => {
    expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
  });

  it('has one path with one GET per operation, operationId = name (and one per file route: the bulk download)', () => {
    const downloads = registry.all.filter((op) => op.rest.download !== undefined);
    expect(downloads.map((op) => op.name)).toEqual(['bulk_datasets']);
    expect(Object.keys(doc.paths)).toHaveLength(registry.all.length + downloads.length);
    const ids: string[] = [];
    for (const op of registry.all) {
      const item = doc.paths[openApiPath(op.rest.path)];
      expect(Object.keys(item), op.name).toEqual(['get']);
      expect(item.get.operationId).toBe(op.name);
      expect(item.get['x-mcp-tool']).toBe(op.name);
      expect(item.get['x-a2a-skill']).toBe(op.name);
      expect(item.get['x-scope']).toBe(op.scope);
      expect(item.get.tags).toEqual([op.domain ?? 'account']);
      ids.push(item.get.operationId);
    }
    for (const op of downloads) {
      const item = doc.paths['/v1/bulk/{dataset}'];
      expect(Object.keys(item)).toEqual(['get']);
      // REST only: no skill or tool of that name; the operation that lists the files is both.
      expect(item.get.operationId).toBe('bulk_download');
      expect(item.get['x-download-of']).toBe(op.name);
      expect(item.get['x-mcp-tool']).toBeUndefined();
      expect(item.get.tags).toEqual(['bulk']);
      expect(item.get.parameters[0]).toMatchObject({ name: 'dataset', in: 'path', required: true });
      expect(item.get.parameters[0].schema.enum).toEqual(
        expect.arrayContaining(['contracts', 'observations', 'municipalities']),
      );
      expect(Object.keys(item.get.responses['200'].content)).toEqual(['text/csv']);
      ids.push(item.get.operationId);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path template parameter as a required path parameter, and nothing else in the path', () => {
    for (const op of registry.all) {
      const path = openApiPath(op.rest.path);
      expect(path).not.toContain(':');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = getOperation(op).parameters.map(deref);
      const inPath = params.filter((p: Json) => p.in === 'path');
      expect(inPath.map((p: Json) => p.name).sort(), op.name).toEqual(templated.sort());
      expect(templated).toEqual(pathParameterNames(op.rest.path));
      for (const p of inPath) expect(p.required, `${op.name}.${p.name}`).toBe(true);
    }
  });

  it('gives every input property exactly one parameter with the schema’s required flag', () => {
    for (const op of registry.all) {
      const input = plainSchema(op.input);
      const all = getOperation(op)
        .parameters.map(deref)
        .filter((p: Json) => p.in !== 'header');
      // `format` is the REST channel's own (the representation, docs/api.md CSV): on the operations with a CSV form.
      const format = all.filter((p: Json) => p.name === 'format');
      expect(format.length, op.name).toBe(csvTable(op.output, op.csvRows) === undefined ? 0 : 1);
      const params = all.filter((p: Json) => p.name !== 'format');
      expect(params.map((p: Json) => p.name).sort(), op.name).toEqual(Object.keys(input.properties ?? {}).sort());
      for (const p of params) {
        expect(p.required, `${op.name}.${p.name}`).toBe(p.in === 'path' || (input.required ?? []).includes(p.name));
        if (p.schema.type === 'array') expect(p).toMatchObject({ style: 'form', explode: true });
        // OpenAPI: `example` and `examples` are mutually exclusive.
        expect(p.example !== undefined && p.examples !== undefined).toBe(false);
      }
    }
  });

  it('publishes the enumerations of the inputs as enum (category of indicators_list)', () => {
    const category = operationNamed('indicators_list').parameters.find((p: Json) => p.name === 'category');
    expect(category.in).toBe('query');
    expect(category.required).toBe(false);
    expect(category.schema.type).toBe('string');
    expect(category.schema.enum).toEqual(expect.arrayContaining(['demography', 'public_finance', 'territory']));
    expect(category.schema.enum).toHaveLength(11);
    expect(category.description).toBeTruthy();
    // No union of literals is left anywhere in the document: every one is an enum.
    const json = JSON.stringify(doc);
    expect(json).not.toContain('"const"');
  });

  it('bounds limit to 1–200 with default 50 on every paged operation', () => {
    let paged = 0;
    for (const op of registry.all) {
      const limit = getOperation(op).parameters.find((p: Json) => p.name === 'limit');
      // Lookups take a `limit` for their ranked (unpaged) list, with bounds of their own.
      if (!limit || plainSchema(op.output).properties?.next_cursor === undefined) continue;
      paged++;
      // A snapshot page holds up to all 308 municipalities (docs/api.md, Series and snapshots).
      const maximum = op.name === 'indicators_snapshot' ? 308 : 200;
      expect(limit.schema, op.name).toMatchObject({ type: 'integer', minimum: 1, maximum, default: 50 });
      expect(limit.required).toBe(false);
      expect(getOperation(op).responses['200'].headers.Link, op.name).toBeDefined();
    }
    expect(paged).toBeGreaterThanOrEqual(4);
  });

  it('carries the examples of each operation on its parameters and its 200 answer', () => {
    const series = operationNamed('indicators_series');
    const municipality = series.parameters.find((p: Json) => p.name === 'municipality');
    expect((Object.values(municipality.examples) as Json[]).map((e) => e.value)).toEqual([
      '1106',
      'porto',
      ['porto', 'Vila Nova de Gaia'],
    ]);
    const examples = Object.values(series.responses['200'].content['application/json'].examples) as Json[];
    expect(examples.map((e) => e['x-request-example'])).toEqual([
      `${BASE_URL}/v1/indicators/population/series?municipality=1106`,
      `${BASE_URL}/v1/indicators/birth_rate/series?municipality=porto&from=2018-01-01`,
      `${BASE_URL}/v1/indicators/population/series?municipality=porto&municipality=Vila+Nova+de+Gaia&from=2020-01-01`,
    ]);
    for (const e of examples) expect(e.value).toBeUndefined();
  });

  it('resolves every $ref to a component', () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|responses|parameters|headers)\/[A-Za-z0-9._-]+$/);
      expect(resolvePointer(ref), ref).toBeDefined();
    }
    for (const section of Object.values(components) as Json[]) {
      for (const name of Object.keys(section)) expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
    }
  });

  it('hoists the titled resource schemas into components', () => {
    for (const name of [
      'IndicatorSummary',
      'IndicatorDetail',
      'SnapshotRow',
      'MunicipalitySummary',
      'MeResponse',
      'Problem',
    ]) {
      expect(components.schemas[name], name).toBeDefined();
    }
    const list = operationNamed('indicators_list').responses['200'].content['application/json'].schema;
    expect(list.$ref).toBe('#/components/schemas/PageOfIndicatorSummary');
    expect(components.schemas.PageOfIndicatorSummary.properties.items.items).toEqual({
      $ref: '#/components/schemas/IndicatorSummary',
    });
    expect(operationNamed('me').responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MeResponse',
    });
  });

  it('documents 304 and every error status on every operation, errors through the Problem schema', () => {
    for (const op of registry.all) {
      const responses = getOperation(op).responses;
      expect(responses['200'].content['application/json'].schema, op.name).toBeDefined();
      expect(responses['304'], op.name).toBeDefined();
      expect(responses['200'].headers.ETag).toBeDefined();
      for (const status of ['400', '401', '402', '403', '404', '405', '422', '429', '503']) {
        const response = responses[status];
        expect(response?.$ref, `${op.name} ${status}`).toMatch(/^#\/components\/responses\//);
        const problem = deref(response).content['application/problem+json'];
        expect(problem.schema).toEqual({ $ref: '#/components/schemas/Problem' });
      }
    }
  });

  it('lists the kinds of each status in its shared error response', () => {
    const forbidden = deref({ $ref: '#/components/responses/Forbidden' });
    for (const kind of [
      'beta-access-required',
      'api-access-required',
      'domain-not-in-plan',
      'insufficient-scope',
      'origin-not-allowed',
    ]) {
      expect(forbidden.description).toContain(kind);
      expect(forbidden.content['application/problem+json'].examples[kind].value.type).toBe(
        `${BASE_URL}/problems/${kind}`,
      );
    }
    for (const status of [402, 429, 503]) {
      const ref = operationNamed('indicators_list').responses[String(status)];
      expect(deref(ref).headers['Retry-After'], String(status)).toBeDefined();
    }
    const problem = components.schemas.Problem;
    expect(problem.required).toEqual(['type', 'title', 'status']);
    expect(Object.keys(problem.properties)).toEqual(
      expect.arrayContaining([
        'type',
        'title',
        'status',
        'detail',
        'instance',
        'request_id',
        'feature_key',
        'upgrade_url',
        'errors',
      ]),
    );
  });

  it('declares tags for the account and every data domain', () => {
    const names = (doc.tags as Json[]).map((t) => t.name);
    expect(names).toEqual(['account', 'indicators', 'signals', 'procurement', 'alerts', 'bulk']);
    for (const tag of doc.tags as Json[]) expect(tag.description).toBeTruthy();
    for (const op of registry.all) expect(names).toContain(getOperation(op).tags[0]);
  });

  it('is structurally valid OpenAPI 3.1 (the fields this document uses)', () => {
    expect(Object.keys(doc).filter((k) => !k.startsWith('x-'))).toEqual(
      expect.arrayContaining(['openapi', 'info', 'servers', 'paths', 'components']),
    );
    for (const key of Object.keys(doc)) {
      expect([
        'openapi',
        'info',
        'jsonSchemaDialect',
        'servers',
        'paths',
        'webhooks',
        'components',
        'security',
        'tags',
        'externalDocs',
      ]).toContain(key.startsWith('x-') ? 'info' : key);
    }
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, operation] of Object.entries(item as Json)) {
        expect(method).toBe('get');
        expect(typeof operation.summary).toBe('string');
        expect(typeof operation.description).toBe('string');
        for (const p of operation.parameters.map(deref)) {
          expect(['path', 'query', 'header', 'cookie']).toContain(p.in);
          expect(typeof p.name).toBe('string');
          expect(p.schema ?? p.content).toBeDefined();
        }
        for (const [status, response] of Object.entries(operation.responses as Json)) {
          expect(status).toMatch(/^[1-5]\d\d$/);
          const resolved = deref(response);
          expect(typeof resolved.description, `${path} ${status}`).toBe('string');
          for (const header of Object.values(resolved.headers ?? {}) as Json[]) {
            expect(deref(header).schema, `${path} ${status} header`).toBeDefined();
          }
          for (const media of Object.values(resolved.content ?? {}) as Json[]) {
            for (const example of Object.values(media.examples ?? {}) as Json[]) {
              expect(example.value !== undefined && example.externalValue !== undefined).toBe(false);
            }
          }
        }
      }
    }
  });

  it('contains only JSON Schemas that Ajv (2020-12) compiles, and whose examples validate', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // The component schemas are reachable under the document's own pointers.
    ajv.addSchema({ $id: 'https://openapi.test/doc', components: { schemas: components.schemas } });
    const compile = (schema: Json) =>
      ajv.compile({
        ...JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://openapi.test/doc#/components/')),
      });
    for (const name of Object.keys(components.schemas)) compile({ $ref: `#/components/schemas/${name}` });
    for (const op of registry.all) {
      const operation = getOperation(op);
      compile(operation.responses['200'].content['application/json'].schema);
      for (const p of operation.parameters.map(deref)) {
        const validate = compile(p.schema);
        for (const example of Object.values(p.examples ?? {}) as Json[]) {
          expect(validate(example.value), `${op.name}.${p.name} example`).toBe(true);
        }
      }
    }
    const problem = compile({ $ref: '#/components/schemas/Problem' });
    for (const response of Object.values(components.responses) as Json[]) {
      for (const example of Object.values(response.content['application/problem+json'].examples) as Json[]) {
        expect(problem(example.value), JSON.stringify(example.value)).toBe(true);
      }
    }
  });
});

describe('docs page', () => {
  const page = renderDocsPage(registry, BASE_URL);

  it('documents every operation by name and path', () => {
    for (const op of registry.all) {
      expect(page).toContain(op.name);
      expect(page).toContain(openApiPath(op.rest.path));
      expect(page).toContain(`id="${op.name}"`);
    }
  });

  it('has the plans anchor that upgrade_url points at, and the OpenAPI link', () => {
    expect(page).toContain('id="plans"');
    for (const plan of ['free', 'premium', 'premium_indicators']) expect(page).toContain(`<code>${plan}</code>`);
    expect(page).toContain(`${BASE_URL}/v1/openapi.json`);
  });

  it('lists every error kind with a link to its description', () => {
    for (const kind of Object.keys(ERROR_KINDS)) {
      expect(page).toContain(kind);
      expect(page).toContain(`href="${BASE_URL}/problems/${kind}"`);
    }
  });

  it('shows example requests with path parameters substituted', () => {
    expect(page).toContain(`GET ${BASE_URL}/v1/indicators/population/series?municipality=1106`);
    expect(page).toContain(`GET ${BASE_URL}/v1/municipalities/1106`);
    expect(page).toContain(`${BASE_URL}/v1/indicators?category=demography`);
  });

  it('lists enum values and limits in the parameter tables', () => {
    expect(page).toContain('<code>public_finance</code>');
    expect(page).toMatch(/integer, 1 to 200, default <code>50<\/code>/);
  });

  it('is self-contained and escapes its text', () => {
    expect(page.toLowerCase()).not.toContain('<script');
    // A <link> only to inline data (the empty icon that keeps browsers from asking for /favicon.ico).
    for (const link of page.match(/<link\b[^>]*>/gi) ?? []) expect(link).toMatch(/href="data:/);
    expect(page).not.toMatch(/src="http/i);
    // Descriptions carrying quotes come out escaped (municipalities_search: `"evora" finds Évora`).
    expect(page).toContain('&quot;evora&quot; finds Évora');
    const escaped = renderDocsPage(registry, 'https://x.test/<script>"');
    expect(escaped.toLowerCase()).not.toContain('<script');
  });
});
