/**
 * Titled schemas written once where they recur (src/core/shared-schemas.ts): what an MCP tool's output schema puts
 * under `$defs` must say exactly what the inlined schema said, and only what recurs is moved.
 */
import { describe, expect, it } from 'vitest';
import { ToolCatalogue } from '../src/channels/mcp/tools.js';
import type { JsonSchema } from '../src/core/json-schema.js';
import { withRecurringSchemasShared } from '../src/core/shared-schemas.js';
import { createRegistry } from '../src/operations/index.js';

/** The schema with every `#/$defs/…` reference replaced by what it names, and no `$defs`: what a validator reads. */
function inlined(schema: JsonSchema): unknown {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: string }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
      const target = defs[ref.slice('#/$defs/'.length)];
      expect(target, ref).toBeDefined();
      return walk(target);
    }
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k]) => k !== '$defs')
        .map(([k, v]) => [k, walk(v)]),
    );
  };
  return walk(schema);
}

const value = { title: 'Value', type: 'object', properties: { amount: { type: 'number' } } };
const period = { title: 'Period', type: 'object', properties: { start: { type: 'string' } } };

describe('withRecurringSchemasShared', () => {
  it('moves a titled schema that occurs twice to $defs, and its own recurring parts too', () => {
    const release = { title: 'Release', type: 'object', properties: { value: value, budget: value, period } };
    const schema: JsonSchema = {
      type: 'object',
      properties: { releases: { type: 'array', items: release }, compiled: release, period },
    };
    const shared = withRecurringSchemasShared(schema);
    expect(shared.$defs).toEqual({
      Value: value,
      Period: period,
      Release: {
        title: 'Release',
        type: 'object',
        properties: {
          value: { $ref: '#/$defs/Value' },
          budget: { $ref: '#/$defs/Value' },
          period: { $ref: '#/$defs/Period' },
        },
      },
    });
    expect(shared.properties).toEqual({
      releases: { type: 'array', items: { $ref: '#/$defs/Release' } },
      compiled: { $ref: '#/$defs/Release' },
      period: { $ref: '#/$defs/Period' },
    });
    expect(inlined(shared)).toEqual(schema);
  });

  it('leaves a schema where nothing recurs as it was, and two different schemas under one title inline', () => {
    const once: JsonSchema = { type: 'object', properties: { value, period } };
    expect(withRecurringSchemasShared(once)).toBe(once);
    const otherValue = { ...value, properties: { amount: { type: 'string' } } };
    const clash: JsonSchema = { type: 'object', properties: { a: value, b: value, c: otherValue } };
    expect(withRecurringSchemasShared(clash)).toBe(clash);
  });

  it('gives every MCP tool an output schema that says what the inlined one says, the OCDS record half as long', () => {
    const catalogue = new ToolCatalogue(createRegistry().all);
    for (const tool of catalogue.all) {
      const { outputSchema } = tool.definition;
      const refs = JSON.stringify(outputSchema).match(/"\$ref":"[^"]+"/g) ?? [];
      for (const ref of refs) expect(ref).toMatch(/^"\$ref":"#\/\$defs\/[A-Za-z0-9]+"$/);
      // Every shared schema is used at least twice: a schema used once stays inline.
      for (const name of Object.keys(outputSchema.$defs ?? {})) {
        expect(refs.filter((r) => r === `"$ref":"#/$defs/${name}"`).length, name).toBeGreaterThanOrEqual(2);
      }
    }
    const record = catalogue.get('procurement_ocds_record')?.definition.outputSchema as JsonSchema;
    expect(Object.keys(record.$defs ?? {})).toEqual(expect.arrayContaining(['OcdsRelease', 'OcdsValue']));
    expect(JSON.stringify(record).length).toBeLessThan(JSON.stringify(inlined(record)).length * 0.6);
  });
});
