/**
 * The MCP channel's precomputed parts, in isolation: the tool definitions and the cached tools/list JSON, the
 * tools/call result builders and the cache of successful result bytes.
 */
import { describe, expect, it } from 'vitest';
import { errorResultJson, SuccessResultCache, successResultJson } from '../src/channels/mcp/results.js';
import { ToolCatalogue } from '../src/channels/mcp/tools.js';
import { plainSchema } from '../src/core/json-schema.js';
import { createRegistry } from '../src/operations/index.js';

const registry = createRegistry();

describe('tool catalogue', () => {
  const catalogue = new ToolCatalogue(registry.all);

  it('defines one tool per operation, with the registry input schema and an object output schema', () => {
    for (const op of registry.all) {
      const tool = catalogue.get(op.name);
      expect(tool?.definition.name).toBe(op.name);
      expect(tool?.definition.inputSchema).toEqual(plainSchema(op.input));
      expect(tool?.definition.outputSchema.type).toBe('object');
      // the answer, or (with isError) the problem document: SDK clients check structuredContent against it
      expect(tool?.definition.outputSchema.anyOf).toHaveLength(2);
      expect(tool?.wrapsArray).toBe(plainSchema(op.output).type === 'array');
    }
  });

  it('serialises the list once per distinct set of callable tools', () => {
    const all = catalogue.listResult(registry.all);
    expect(catalogue.listResult([...registry.all])).toBe(all); // the same string, not a rebuilt one
    const onlyMe = catalogue.listResult(registry.all.filter((op) => op.name === 'me'));
    expect(JSON.parse(onlyMe).tools.map((tool: { name: string }) => tool.name)).toEqual(['me']);
    expect(JSON.parse(all).tools).toHaveLength(registry.all.length);
  });
});

describe('tools/call results', () => {
  const answer = JSON.stringify({ items: [{ name: 'Águeda', note: 'a "quoted" \\ value\nline' }], has_more: false });

  it('carries the answer as structuredContent and the same JSON as text', () => {
    const result = JSON.parse(successResultJson(answer, false));
    expect(result.structuredContent).toEqual(JSON.parse(answer));
    expect(result.content).toEqual([{ type: 'text', text: answer }]);
    expect(result.isError).toBeUndefined();
  });

  it('wraps an array answer as {items}', () => {
    const result = JSON.parse(successResultJson('[1,2]', true));
    expect(result.structuredContent).toEqual({ items: [1, 2] });
    expect(JSON.parse(result.content[0].text)).toEqual({ items: [1, 2] });
  });

  it('carries a problem document with isError', () => {
    const problem = { type: 'http://x/problems/not-found', title: 'Not found', status: 404 };
    expect(JSON.parse(errorResultJson(problem))).toEqual({
      content: [{ type: 'text', text: JSON.stringify(problem) }],
      structuredContent: problem,
      isError: true,
    });
  });

  it('caches result bytes by answer text, separately for wrapped answers, within its byte bound', () => {
    const cache = new SuccessResultCache(4096, 2048);
    const first = cache.get(answer, false);
    expect(first.toString('utf8')).toBe(successResultJson(answer, false));
    expect(cache.get(`${answer}`, false)).toBe(first);
    expect(cache.get('[1]', true).toString('utf8')).toBe(successResultJson('[1]', true));
    expect(cache.get('[1]', false).toString('utf8')).toBe(successResultJson('[1]', false));
    // many distinct answers: still correct, and the oldest ones leave
    for (let i = 0; i < 200; i++) {
      const json = JSON.stringify({ i, pad: 'x'.repeat(100) });
      expect(JSON.parse(cache.get(json, false).toString('utf8')).structuredContent.i).toBe(i);
    }
    expect(cache.get(answer, false)).not.toBe(first);
    // an answer over the entry bound is built, not kept
    const big = JSON.stringify({ pad: 'y'.repeat(5000) });
    expect(cache.get(big, false)).not.toBe(cache.get(big, false));
  });
});
