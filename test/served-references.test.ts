/**
 * What the service publishes about itself — the OpenAPI document, MCP's tool list, the A2A cards — points only to
 * what the service serves: no repository file (`docs/integrity.md`, which `GET /docs/integrity.md` does not serve),
 * and every anchor of the reference page it names (`/docs#integrity`) is on that page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function published(): Promise<Record<string, string>> {
  const get = async (url: string, headers: Record<string, string> = {}) =>
    (
      await t.app.http.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${t.keys.premium}`, ...headers },
      })
    ).body;
  const tools = await t.app.http.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      authorization: `Bearer ${t.keys.premium}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  return {
    openapi: await get('/v1/openapi.json'),
    'tools/list': tools.body,
    'agent card 1.0': await get('/.well-known/agent-card.json', { 'a2a-version': '1.0' }),
    'agent card 0.3': await get('/.well-known/agent-card.json'),
  };
}

describe('references in what the service publishes', () => {
  it('name no repository file', async () => {
    for (const [what, text] of Object.entries(await published())) {
      expect(text.length, what).toBeGreaterThan(1000);
      expect(text.match(/docs\/[a-z-]+\.md/g) ?? [], what).toEqual([]);
    }
  });

  it('name only anchors the reference page has', async () => {
    const page = (await t.app.http.inject({ method: 'GET', url: '/docs' })).body;
    const ids = new Set([...page.matchAll(/id="([^"]+)"/g)].map((m) => m[1]));
    const named = new Set<string>();
    for (const text of Object.values(await published())) {
      for (const m of text.matchAll(/\/docs#([a-z0-9_-]+)/g)) named.add(m[1]);
    }
    expect(named.has('integrity')).toBe(true);
    for (const anchor of named) expect(ids, anchor).toContain(anchor);
  });
});
