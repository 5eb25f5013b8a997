/**
 * The MCP channel through the MCP SDK's own client (`Client` + `StreamableHTTPClientTransport`), against the
 * app listening on port 0, with both protocol versions: initialize, tools/list filtered by plan and scope, every
 * example of every tool (same JSON as REST), failed calls as `isError` results, and what counts against the quota.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequestUrl } from '../src/channels/rest/openapi.js';
import { listen } from './helpers/mcp-tools.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let url: URL;
beforeAll(async () => {
  t = await startTestApp();
  url = new URL(await listen(t));
});
afterAll(() => t.close());

const VERSIONS = ['2025-11-25', '2025-06-18'] as const;

interface Exchange {
  method: string;
  rpcMethod: string | undefined;
  status: number;
  sentVersion: string | null;
}

/**
 * An SDK client on the service. The SDK client always offers its latest version; to speak 2025-06-18 the fetch
 * wrapper rewrites the offered version in `initialize` (the server then answers with it, and the client sends it
 * in MCP-Protocol-Version from then on). Every HTTP exchange is recorded.
 */
async function connect(
  key: string,
  version: (typeof VERSIONS)[number],
  headers: Record<string, string> = { Authorization: `Bearer ${key}` },
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const speaking = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let body = init?.body;
    let rpcMethod: string | undefined;
    if (typeof body === 'string') {
      const message = JSON.parse(body);
      rpcMethod = message.method;
      if (message.method === 'initialize') {
        message.params.protocolVersion = version;
        body = JSON.stringify(message);
      }
    }
    const response = await fetch(input, { ...init, body });
    const sent = new Headers(init?.headers);
    exchanges.push({
      method: init?.method ?? 'GET',
      rpcMethod,
      status: response.status,
      sentVersion: sent.get('mcp-protocol-version'),
    });
    return response;
  };
  const client = new Client({ name: 'munidata-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: speaking });
  await client.connect(transport);
  return { client, transport, exchanges };
}

async function restJson(op: { name: string }, input: Record<string, unknown>, key = t.keys.premium): Promise<unknown> {
  const operation = t.app.registry.get(op.name);
  if (!operation) throw new Error(op.name);
  const res = await t.get(exampleRequestUrl(operation, { title: '', input }, ''), { key });
  expect(res.status, `${op.name} on REST: ${res.body}`).toBe(200);
  return Array.isArray(res.json) ? { items: res.json } : res.json;
}

function problemOf(result: CallToolResult): any {
  expect(result.isError).toBe(true);
  const text = result.content.find((c) => c.type === 'text');
  expect(text && JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

describe.each(VERSIONS)('SDK client, protocol %s', (version) => {
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let exchanges: Exchange[];

  beforeAll(async () => {
    t.clock.advance(61_000);
    ({ client, transport, exchanges } = await connect(t.keys.premium, version));
  });
  afterAll(() => client.close());

  it('negotiates the version and describes the server', () => {
    expect(transport.protocolVersion).toBe(version);
    // 2025-11-25 adds description, website and icons to what 2025-06-18 defines (discovery.test.ts).
    const since20251125 = { description: expect.any(String), websiteUrl: expect.any(String), icons: expect.any(Array) };
    expect(client.getServerVersion()).toEqual({
      name: 'munidata',
      title: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      ...(version === '2025-06-18' ? {} : since20251125),
    });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    expect(client.getServerCapabilities()?.logging).toBeUndefined();
    expect(client.getInstructions()).toMatch(/`me` first/);
    // initialize without the header, then the negotiated version on every later POST; the GET probe gets 405.
    expect(exchanges[0]).toMatchObject({ method: 'POST', rpcMethod: 'initialize', status: 200, sentVersion: null });
    expect(exchanges[1]).toMatchObject({ rpcMethod: 'notifications/initialized', status: 202, sentVersion: version });
    expect(exchanges.filter((e) => e.method === 'GET').every((e) => e.status === 405)).toBe(true);
  });

  it('lists every tool of the registry for a premium key, each with schemas and read-only annotations', async () => {
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual(t.app.registry.all.map((op) => op.name));
    for (const tool of tools) {
      const op = t.app.registry.get(tool.name);
      expect(tool.title).toBe(op?.title);
      expect(tool.description).toContain(op?.description);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
    }
    expect(tools.find((tool) => tool.name === 'me')?.description).toMatch(/Call this first/);
  });

  it('answers every example of every tool with the REST JSON, structured and as text', async () => {
    await client.listTools(); // the SDK client then checks structuredContent against each outputSchema
    let calls = 0;
    for (const op of t.app.registry.all) {
      t.clock.advance(61_000);
      for (const example of op.examples) {
        const result = (await client.callTool({ name: op.name, arguments: example.input })) as CallToolResult;
        expect(result.isError, `${op.name}: ${JSON.stringify(result.structuredContent)}`).toBeFalsy();
        const text = result.content.find((c) => c.type === 'text') as { text: string };
        expect(JSON.parse(text.text)).toEqual(result.structuredContent);
        const rest = await restJson(op, example.input);
        if (op.name === 'me') {
          // usage moves with every charged request; the rest of the answer is the same
          expect({ ...(result.structuredContent as any), usage: undefined }).toEqual({
            ...(rest as any),
            usage: undefined,
          });
        } else {
          expect(result.structuredContent, op.name).toEqual(rest);
        }
        calls++;
      }
    }
    expect(calls).toBeGreaterThanOrEqual(t.app.registry.all.length);
  });

  it('wraps a list answer as {items}', async () => {
    const result = (await client.callTool({
      name: 'municipalities_indicators',
      arguments: { code: 'lisboa' },
    })) as CallToolResult;
    expect(Array.isArray((result.structuredContent as any).items)).toBe(true);
  });

  it('returns failed calls as isError results carrying the REST problem document', async () => {
    await client.listTools();
    const cases: [string, Record<string, unknown>, string, number][] = [
      ['indicators_snapshot', { key: 'unemployment_rate', limit: 0 }, 'validation-error', 422],
      ['indicators_snapshot', { key: 'unemployment_rate', bogus: 1 }, 'validation-error', 422],
      ['indicators_get', {}, 'validation-error', 422],
      ['indicators_series', { key: 'population', municipality: 1106 }, 'validation-error', 422],
      ['indicators_get', { key: 'no_such_indicator' }, 'not-found', 404],
      ['municipalities_get', { code: '9999' }, 'not-found', 404],
      ['indicators_snapshot', { key: 'unemployment_rate', cursor: 'Zm9yZ2Vk' }, 'invalid-cursor', 400],
    ];
    for (const [name, args, kind, status] of cases) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const problem = problemOf(result);
      expect(problem, `${name} ${JSON.stringify(args)}`).toMatchObject({
        type: `${BASE_URL}/problems/${kind}`,
        status,
        title: expect.any(String),
      });
      expect(problem.request_id).toMatch(/^req_/);
    }
    const invalid = problemOf(
      (await client.callTool({
        name: 'indicators_snapshot',
        arguments: { key: 'population', limit: 500 },
      })) as CallToolResult,
    );
    expect(invalid.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
  });

  it('answers an unknown tool with JSON-RPC -32602', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(/Unknown tool: no_such_tool \(tools\/list lists the tools\)/);
    // A misspelt name is answered with the tool it was likely meant to be.
    const misspelt = await client.callTool({ name: 'procurement_red_flag', arguments: { id: 1 } }).catch((e) => e);
    expect((misspelt as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((misspelt as McpError).message).toMatch(
      /Unknown tool: procurement_red_flag\. Did you mean procurement_red_flags\?/,
    );
  });

  it('answers ping', async () => {
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe('tools/list by plan and scope', () => {
  /** The tools a key may call, by the rules `me` reports: no domain, or the plan's domain and the key's scope. */
  async function expectedTools(key: string): Promise<string[]> {
    const me = (await t.get('/v1/me', { key })).json;
    return t.app.registry.all
      .filter((op) => op.domain === null || (me.domains.includes(op.domain) && me.scopes.includes(op.scope)))
      .map((op) => op.name);
  }

  for (const [label, keyOf] of [
    ['premium', () => t.keys.premium],
    ['indicators-only plan', () => t.keys.indicatorsOnly],
    ['signals-only scope', () => t.keys.signalsOnlyScope],
    ['plan without the indicators domain', () => t.keys.noIndicatorsDomain],
  ] as const) {
    it(`shows a ${label} key only the tools it may call`, async () => {
      t.clock.advance(61_000);
      const key = keyOf();
      const { client } = await connect(key, '2025-11-25');
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(await expectedTools(key));
        expect(names).toContain('me');
      } finally {
        await client.close();
      }
    });
  }

  it('hides indicator tools from a signals-only scope and refuses them as isError insufficient-scope', async () => {
    const { client } = await connect(t.keys.signalsOnlyScope, '2025-06-18');
    try {
      // me and sources (free, every plan), and the signals tools: the scope's own domain, nothing of the others.
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'me',
        'sources',
        'signals_list',
        'signals_get',
        'signal_families',
        'signal_types',
        'signal_cases_list',
        'signal_cases_get',
      ]);
      const problem = problemOf((await client.callTool({ name: 'indicators_list', arguments: {} })) as CallToolResult);
      expect(problem).toMatchObject({
        type: `${BASE_URL}/problems/insufficient-scope`,
        status: 403,
        feature_key: 'indicators:read',
      });
      const me = (await client.callTool({ name: 'me', arguments: {} })) as CallToolResult;
      expect(me.structuredContent).toMatchObject({ scopes: ['signals:read'] });
    } finally {
      await client.close();
    }
  });

  it('refuses a tool of a domain outside the plan as isError domain-not-in-plan', async () => {
    const { client } = await connect(t.keys.noIndicatorsDomain, '2025-11-25');
    try {
      const problem = problemOf(
        (await client.callTool({ name: 'municipalities_search', arguments: { q: 'porto' } })) as CallToolResult,
      );
      expect(problem).toMatchObject({
        type: `${BASE_URL}/problems/domain-not-in-plan`,
        status: 403,
        feature_key: 'indicators',
      });
    } finally {
      await client.close();
    }
  });
});

describe('credentials', () => {
  it('accepts the key in X-API-Key', async () => {
    const { client } = await connect(t.keys.premium, '2025-11-25', { 'X-API-Key': t.keys.premium });
    try {
      const me = (await client.callTool({ name: 'me', arguments: {} })) as CallToolResult;
      expect(me.structuredContent).toMatchObject({ account_id: t.accounts.premium, plan_code: 'premium' });
    } finally {
      await client.close();
    }
  });

  it('fails to connect without a key or with a wrong one (401 on initialize)', async () => {
    await expect(connect('', '2025-11-25', {})).rejects.toThrow(/401|Unauthorized|invalid/i);
    await expect(connect(`sk_live_${'A'.repeat(40)}`, '2025-06-18')).rejects.toThrow(/401|Unauthorized|invalid/i);
  });

  it('refuses a free plan at connect time (403 api-access-required)', async () => {
    await expect(connect(t.keys.free, '2025-11-25')).rejects.toThrow(/403|api-access-required|data API/i);
  });
});

describe('counting', () => {
  async function usedThisMonth(client: Client): Promise<number> {
    const me = (await client.callTool({ name: 'me', arguments: {} })) as CallToolResult;
    return (me.structuredContent as any).usage.requests_this_month;
  }

  const chargesEachCallOnce =
    'charges each successful tools/call once; initialize, tools/list, ping, me and failed calls are free';
  it(chargesEachCallOnce, async () => {
    t.clock.advance(61_000);
    const { client } = await connect(t.keys.indicatorsOnly, '2025-11-25');
    try {
      const before = await usedThisMonth(client);
      await client.listTools();
      await client.ping();
      await client.callTool({ name: 'me', arguments: {} });
      const second = await connect(t.keys.indicatorsOnly, '2025-06-18'); // another initialize
      await second.client.close();
      expect(await usedThisMonth(client)).toBe(before);

      await client.callTool({ name: 'indicators_snapshot', arguments: { key: 'population', limit: 5 } });
      expect(await usedThisMonth(client)).toBe(before + 1);
      await client.callTool({ name: 'indicators_snapshot', arguments: { key: 'population', limit: 5 } });
      expect(await usedThisMonth(client)).toBe(before + 2);

      const failed = (await client.callTool({
        name: 'indicators_get',
        arguments: { key: 'no_such_indicator' },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect(await usedThisMonth(client)).toBe(before + 2);
    } finally {
      await client.close();
    }
  });
});
