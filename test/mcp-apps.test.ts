/**
 * MCP Apps on /mcp through the MCP SDK's client: the tools whose answer is best seen name their `ui://` view in
 * `_meta.ui.resourceUri`, `resources/list` names the views of the tools a key may call, `resources/read` answers
 * a self-contained HTML document of the extension's type, and the tool results stay what they were. The views
 * drawing in a browser: test/mcp-apps-browser.test.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './helpers/mcp-tools.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let url: URL;
beforeAll(async () => {
  t = await startTestApp();
  url = new URL(await listen(t));
});
afterAll(() => t.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'apps-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return client;
}

const DRAWN = {
  indicators_snapshot: 'ui://munidata/indicator-map',
  indicators_series: 'ui://munidata/indicator-series',
  procurement_entity_profile: 'ui://munidata/procurement-entity',
  procurement_entity_red_flags: 'ui://munidata/procurement-entity',
};

describe('MCP Apps', () => {
  it('declares the Apps extension and resources', async () => {
    const client = await connect(t.keys.premium);
    const capabilities = client.getServerCapabilities() as any;
    expect(capabilities.resources).toEqual({ subscribe: false, listChanged: false });
    expect(capabilities.extensions['io.modelcontextprotocol/ui']).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
    await client.close();
  });

  it('names a view in the descriptor of each drawn tool, and none in the others', async () => {
    const client = await connect(t.keys.premium);
    const { tools } = await client.listTools();
    const declared = Object.fromEntries(
      tools.filter((tool) => tool._meta !== undefined).map((tool) => [tool.name, (tool._meta as any).ui.resourceUri]),
    );
    expect(declared).toEqual(DRAWN);
    await client.close();
  });

  it('lists the views of the tools a key may call', async () => {
    const premium = await connect(t.keys.premium);
    const views = await listedViews(premium);
    expect(views.map((r) => r.uri).sort()).toEqual([...new Set(Object.values(DRAWN))].sort());
    for (const resource of views) expect(resource.mimeType).toBe('text/html;profile=mcp-app');
    await premium.close();
    // A plan without procurement calls no procurement tool: its view is not listed.
    const indicators = await connect(t.keys.indicatorsOnly);
    const some = (await listedViews(indicators)).map((r) => r.uri).sort();
    expect(some).toEqual(['ui://munidata/indicator-map', 'ui://munidata/indicator-series']);
    await indicators.close();
  });

  it('reads a view: one self-contained HTML document with an empty CSP', async () => {
    const client = await connect(t.keys.premium);
    for (const uri of new Set(Object.values(DRAWN))) {
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      const [view] = contents as any[];
      expect(view.uri).toBe(uri);
      expect(view.mimeType).toBe('text/html;profile=mcp-app');
      expect(view._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [] });
      expect(view.text).toMatch(/^<!doctype html>/);
      // Nothing loaded from an address: no external script, style, image or frame, and no fetch in the view's own
      // code (the last script; d3, inlined before it, has d3.json, which the view never calls).
      expect(/<(script|link|img|iframe)[^>]*\s(src|href)=/i.test(view.text)).toBe(false);
      const own = view.text.slice(view.text.lastIndexOf('<script>'));
      expect(own).toContain('ui/initialize');
      expect(/\b(fetch|XMLHttpRequest|WebSocket|EventSource)\b/.test(own)).toBe(false);
      expect(view.text.includes('id="boundaries"')).toBe(uri.endsWith('indicator-map'));
    }
    await client.close();
  });

  it('refuses an address it does not have with -32602 (Resource not found)', async () => {
    const client = await connect(t.keys.premium);
    for (const uri of ['ui://munidata/nothing', 'https://example.com/x']) {
      const error = await client.readResource({ uri }).catch((e) => e);
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(-32602);
    }
    await client.close();
  });

  it('answers the views in the 2026-07-28 era too, with its caching hints', async () => {
    const modern = async (method: string, params: object) => {
      const res = await t.app.http.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${t.keys.premium}`,
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          // A read names its resource in Mcp-Name, as a call names its tool (docs/mcp.md, two eras).
          ...('uri' in params && typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}),
        },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': {} } },
            },
          },
        }),
      });
      expect(res.statusCode).toBe(200);
      const { result } = res.json();
      expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: expect.any(Number) });
      return result;
    };
    // The views come after the records (docs/mcp.md, Resources): follow the pages.
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const listed = await modern('resources/list', cursor === undefined ? {} : { cursor });
      uris.push(...listed.resources.map((r: { uri: string }) => r.uri));
      cursor = listed.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toContain('ui://munidata/indicator-map');
    const read = await modern('resources/read', { uri: 'ui://munidata/indicator-series' });
    expect(read.contents[0].mimeType).toBe('text/html;profile=mcp-app');
  });

  it("answers a drawn tool's call with the same structured JSON as REST", async () => {
    const client = await connect(t.keys.premium);
    const result = await client.callTool({ name: 'indicators_snapshot', arguments: { key: 'population', limit: 308 } });
    const rest = await t.get('/v1/indicators/population/snapshot?limit=308');
    expect(result.structuredContent).toEqual(rest.json);
    await client.close();
  });
});

/** The `ui://` views among every page of `resources/list` (the records come first: docs/mcp.md, Resources). */
async function listedViews(client: Client): Promise<{ uri: string; mimeType?: string }[]> {
  const all: { uri: string; mimeType?: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    all.push(...page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all.filter((resource) => resource.uri.startsWith('ui://'));
}
