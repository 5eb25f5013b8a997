/** Registry-wide invariants, and every operation's examples answered for real over REST. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileInput } from '../src/core/validate.js';
import { DOMAINS } from '../src/lib/domains.js';
import { createRegistry, OPERATIONS } from '../src/operations/index.js';
import { Registry } from '../src/operations/registry.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const DOCUMENTED_ROUTES = [
  '/v1/me',
  '/v1/sources',
  '/v1/indicators',
  '/v1/indicators/{key}',
  '/v1/indicators/{key}/series',
  '/v1/indicators/{key}/snapshot',
  '/v1/indicators/{key}/stats',
  '/v1/indicators/{key}/medians',
  '/v1/municipalities',
  '/v1/municipalities/{code}',
  '/v1/municipalities/{code}/indicators',
  '/v1/signals',
  '/v1/signals/{signal_id}',
  '/v1/signal-families',
  '/v1/signal-types',
  '/v1/signal-cases',
  '/v1/signal-cases/{case_id}',
  '/v1/alert-rules',
  '/v1/alert-matches',
  // Procurement (docs/decisions.md, Procurement; docs/ocds.md).
  '/v1/procurement/contracts',
  '/v1/procurement/contracts/{id}',
  '/v1/procurement/contracts/{id}/red-flags',
  '/v1/procurement/aggregate',
  '/v1/procurement/entities',
  '/v1/procurement/entities/{nif}',
  '/v1/procurement/entities/{nif}/red-flags',
  '/v1/procurement/lookup/municipalities',
  '/v1/procurement/lookup/entities',
  '/v1/procurement/announcements',
  '/v1/procurement/amendments',
  '/v1/procurement/ocds/releases',
  '/v1/procurement/ocds/records/{ocid}',
  // Bulk download (docs/api.md, Bulk download): the list; each file is its REST-only route /v1/bulk/{dataset}.
  '/v1/bulk',
];

describe('the registry', () => {
  it('serves every route the README lists, under the operation names it gives', () => {
    const routes = OPERATIONS.map((op) => op.rest.path.replace(/:([a-z_]+)/g, '{$1}'));
    expect(routes.sort()).toEqual([...DOCUMENTED_ROUTES].sort());
    expect(OPERATIONS.map((op) => op.name).sort()).toEqual(
      [
        'me',
        'sources',
        'indicators_list',
        'indicators_get',
        'indicators_series',
        'indicators_snapshot',
        'indicators_stats',
        'indicators_medians',
        'municipalities_search',
        'municipalities_get',
        'municipalities_indicators',
        'signals_list',
        'signals_get',
        'signal_families',
        'signal_types',
        'signal_cases_list',
        'signal_cases_get',
        'alert_rules',
        'alert_matches',
        'procurement_contracts',
        'procurement_contract_get',
        'procurement_red_flags',
        'procurement_aggregate',
        'procurement_entities',
        'procurement_entity_profile',
        'procurement_entity_red_flags',
        'procurement_lookup_municipalities',
        'procurement_lookup_entities',
        'procurement_announcements',
        'procurement_amendments',
        'procurement_ocds_releases',
        'procurement_ocds_record',
        'bulk_datasets',
      ].sort(),
    );
  });

  it('gives every operation a title, summary, description, examples and the scope of its domain', () => {
    for (const op of OPERATIONS) {
      expect(op.title.length, op.name).toBeGreaterThan(3);
      expect(op.summary.length, op.name).toBeGreaterThan(10);
      expect(op.description.length, op.name).toBeGreaterThan(op.summary.length);
      expect(op.examples.length, op.name).toBeGreaterThan(0);
      expect(op.scope, op.name).toBe(op.domain === null ? null : DOMAINS[op.domain].scope);
      expect(op.input.additionalProperties, op.name).toBe(false);
    }
  });

  it("validates every example against the operation's input schema", () => {
    for (const op of OPERATIONS) {
      const validate = compileInput(op.input, 'json');
      for (const example of op.examples)
        expect(validate(structuredClone(example.input)), `${op.name}: ${example.title}`).toBe(true);
    }
  });

  it('refuses duplicate names and routes before serving', () => {
    const [first] = OPERATIONS;
    expect(() => new Registry([first, first])).toThrow(/Duplicate operation name/);
    expect(() => new Registry([first, { ...first, name: 'other' }])).toThrow(/Duplicate REST path/);
    expect(() => new Registry([{ ...first, domain: 'signals', scope: 'indicators:read' }])).toThrow(/needs scope/);
    // A file route (the bulk download) is a route like any other, and its operationId names no operation.
    const bulk = OPERATIONS.find((op) => op.rest.download !== undefined);
    if (!bulk?.rest.download) throw new Error('no operation has a file route');
    const route = bulk.rest.download;
    expect(() => new Registry([bulk, { ...first, rest: { path: route.path } }])).toThrow(/Duplicate REST path/);
    expect(() => new Registry([bulk, { ...first, name: route.operationId }])).toThrow(/is an operation's name/);
    expect(
      () => new Registry([{ ...bulk, rest: { ...bulk.rest, download: { ...route, path: '/v1/bulk/:name' } } }]),
    ).toThrow(/:dataset/);
  });
});

describe('examples answered over REST', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers every example with 200 and JSON', async () => {
    for (const op of createRegistry().all) {
      for (const example of op.examples) {
        const input = { ...example.input };
        const path = op.rest.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
          const value = String(input[name]);
          delete input[name];
          return encodeURIComponent(value);
        });
        // A repeatable parameter (an array) is given by repeating it.
        const query = new URLSearchParams(
          Object.entries(input).flatMap(([k, v]): [string, string][] =>
            (Array.isArray(v) ? v : [v]).map((item) => [k, String(item)]),
          ),
        ).toString();
        const res = await t.get(query ? `${path}?${query}` : path);
        expect(res.status, `${op.name}: ${example.title} → ${res.body.slice(0, 200)}`).toBe(200);
      }
    }
  });
});

describe('configuration', () => {
  it('is read from the environment in src/main.ts only', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (
          path.endsWith('.ts') &&
          !path.endsWith('src/main.ts') &&
          readFileSync(path, 'utf8').includes('process.env')
        ) {
          offenders.push(path);
        }
      }
    };
    walk(new URL('../src', import.meta.url).pathname);
    expect(offenders).toEqual([]);
  });
});
