/**
 * The MCP channel on the wire (app.http.inject): every row of the MCP error table (docs/mcp.md) and every refusal the
 * issue names, with exact statuses, headers and bodies. The SDK client test (mcp.test.ts) shows that real clients
 * get on with these answers; this file pins the answers themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Counters } from '../src/access/counters.js';
import { MemoryCounters } from '../src/access/memory-counters.js';
import { createKey } from '../src/admin/keys.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ApiError } from '../src/lib/errors.js';
import { OPERATIONS } from '../src/operations/index.js';
import { BASE_URL, copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface RpcOptions {
  key?: string | null;
  headers?: Record<string, string>;
  method?: 'POST' | 'GET' | 'DELETE' | 'PUT' | 'OPTIONS';
  /** Sent as is (a string) or serialised (anything else). */
  body?: unknown;
  app?: TestApp['app'];
}

let nextId = 0;
const request = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id: ++nextId,
  method,
  ...(params === undefined ? {} : { params }),
});
const initialize = (protocolVersion: string) =>
  request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '0.0.1' } });

async function mcp(
  body: unknown,
  { key = t.keys.premium, headers = {}, method = 'POST', app = t.app }: Omit<RpcOptions, 'body'> = {},
) {
  const res = await app.http.inject({
    method,
    url: '/mcp',
    headers: {
      ...(method === 'POST'
        ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
        : {}),
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    ...(method === 'POST' ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  let json: any;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: res.body, json };
}

type Res = Awaited<ReturnType<typeof mcp>>;

/** An HTTP-level refusal: the status, a JSON-RPC error body (-32000) whose data is the REST problem document. */
function expectRefusal(res: Res, status: number, kind: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.jsonrpc).toBe('2.0');
  expect(res.json.error.code).toBe(-32000);
  expect(res.json.error.data).toMatchObject({
    type: `${BASE_URL}/problems/${kind}`,
    status,
    title: expect.any(String),
  });
  expect(res.json.error.data.request_id).toBe(res.headers['request-id']);
}

function expectRpcError(res: Res, code: number, id: unknown, status = 200) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json).toMatchObject({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
}

function expectIsError(res: Res, kind: string, status: number) {
  expect(res.status, res.body).toBe(200);
  const result = res.json.result;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toMatchObject({
    type: `${BASE_URL}/problems/${kind}`,
    status,
    title: expect.any(String),
  });
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  return result.structuredContent;
}

// ---------------------------------------------------------------------------------------------------------

describe('transport', () => {
  it('answers GET and DELETE with 405 and Allow: POST, whatever the credential', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      for (const key of [t.keys.premium, null]) {
        const res = await mcp(undefined, { method, key, headers: { accept: 'text/event-stream' } });
        expectRefusal(res, 405, 'method-not-allowed');
        expect(res.headers.allow).toBe('POST');
        expect(res.headers['content-type']).not.toMatch(/event-stream/);
      }
    }
    expect((await mcp(undefined, { method: 'PUT' })).status).toBe(405);
    const head = await t.app.http.inject({
      method: 'HEAD',
      url: '/mcp',
      headers: { authorization: `Bearer ${t.keys.premium}` },
    });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('POST');
  });

  it('refuses an empty body with 400 -32700', async () => {
    const res = await t.app.http.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${t.keys.premium}` },
    });
    expectRpcError(
      { status: res.statusCode, headers: res.headers, body: res.body, json: res.json() },
      -32700,
      null,
      400,
    );
  });

  const protocolVersionHeader =
    'accepts MCP-Protocol-Version 2025-06-18, 2025-11-25 or none, and refuses an unknown value with 400 -32022';
  it(protocolVersionHeader, async () => {
    for (const version of ['2025-06-18', '2025-11-25', undefined]) {
      const res = await mcp(request('ping'), { headers: version ? { 'mcp-protocol-version': version } : {} });
      expect(res.status, `${version}: ${res.body}`).toBe(200);
      expect(res.json.result).toEqual({});
    }
    // -32022 (UnsupportedProtocolVersion) with every version this endpoint speaks, 2026-07-28 included
    // (mcp-modern.test.ts).
    const supported = ['2026-07-28', '2025-11-25', '2025-06-18'];
    for (const version of ['2025-03-26', '2024-11-05', '2026-01-01', 'latest']) {
      const body = request('tools/list');
      const res = await mcp(body, { headers: { 'mcp-protocol-version': version } });
      expectRpcError(res, -32022, body.id, 400);
      expect(res.json.error.message).toMatch(/Unsupported protocol version/);
      expect(res.json.error.data).toEqual({ supported, requested: version });
    }
    const init = initialize('2025-11-25');
    expectRpcError(await mcp(init, { headers: { 'mcp-protocol-version': '2025-03-26' } }), -32022, init.id, 400);
  });

  it('answers a notification (and a client response) with 202 and an empty body', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]) {
      const res = await mcp(body, { headers: { 'mcp-protocol-version': '2025-06-18' } });
      expect(res.status).toBe(202);
      expect(res.body).toBe('');
    }
  });

  it('refuses a batch (JSON array) with 400', async () => {
    const res = await mcp([request('ping'), request('tools/list')]);
    expectRpcError(res, -32600, null, 400);
  });

  it('refuses unreadable JSON with 400 -32700 and a non-request with 400 -32600', async () => {
    expectRpcError(await mcp('{"jsonrpc":"2.0",'), -32700, null, 400);
    expectRpcError(await mcp({ jsonrpc: '1.0', id: 1, method: 'ping' }), -32600, 1, 400);
    expectRpcError(await mcp({ jsonrpc: '2.0', id: null, method: 'ping' }), -32600, null, 400);
    expectRpcError(await mcp('"ping"'), -32600, null, 400);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await mcp('q=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectRpcError(res, -32000, null, 415);
  });

  it('answers with JSON, no session and no SSE', async () => {
    const res = await mcp(initialize('2025-11-25'));
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('initialize and the other start-up methods', () => {
  const initializeAnswer =
    'answers with the client version when supported, else the latest, with serverInfo, tools and instructions';
  it(initializeAnswer, async () => {
    for (const [offered, answered] of [
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2025-03-26', '2025-11-25'],
      ['2024-11-05', '2025-11-25'],
      ['2099-01-01', '2025-11-25'],
    ]) {
      const body = initialize(offered);
      const res = await mcp(body);
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(body.id);
      expect(res.json.result).toEqual({
        protocolVersion: answered,
        capabilities: {
          tools: { listChanged: false },
          resources: { subscribe: false, listChanged: false },
          prompts: { listChanged: false },
          completions: {},
          extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
        },
        // 2025-06-18 defines only these three; 2025-11-25 adds description, website and icons (discovery.test.ts).
        serverInfo: {
          name: 'munidata',
          title: expect.any(String),
          version: expect.any(String),
          ...(answered === '2025-06-18' ? {} : { description: expect.any(String), websiteUrl: expect.any(String) }),
          ...(answered === '2025-06-18' ? {} : { icons: [expect.objectContaining({ mimeType: 'image/svg+xml' })] }),
        },
        instructions: expect.stringMatching(/`me` first/),
      });
    }
  });

  it('refuses initialize without a protocol version with -32602', async () => {
    const body = request('initialize', { capabilities: {} });
    expectRpcError(await mcp(body), -32602, body.id);
  });

  it('answers ping with {} and an unknown method with -32601', async () => {
    const ping = request('ping');
    expect((await mcp(ping)).json).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    for (const method of ['resources/subscribe', 'logging/setLevel', 'tools/delete', 'constructor', 'toString']) {
      const body = request(method, {});
      expectRpcError(await mcp(body), -32601, body.id);
    }
  });

  it('refuses a tools/list cursor it never issued with -32602', async () => {
    const body = request('tools/list', { cursor: 'abc' });
    expectRpcError(await mcp(body), -32602, body.id);
  });

  it('pages resources/list only with the cursors it issued: a made-up, edited or borrowed one is -32602', async () => {
    const first = await mcp(request('resources/list', {}));
    expect(first.json.result, first.body).toBeDefined();
    const issued: string = first.json.result.nextCursor;
    expect(typeof issued).toBe('string');
    const second = await mcp(request('resources/list', { cursor: issued }));
    expect(second.json.result.resources.length).toBeGreaterThan(0);
    expect(second.json.result.resources[0].uri).not.toBe(first.json.result.resources[0].uri);

    const snapshot = await mcp(
      request('tools/call', { name: 'indicators_snapshot', arguments: { key: 'population', limit: 1 } }),
    );
    const borrowed: string = snapshot.json.result.structuredContent.next_cursor;
    const edited = `${issued.slice(0, -1)}${issued.endsWith('A') ? 'B' : 'A'}`;
    const madeUp = Buffer.from('r5').toString('base64url'); // the shape of the cursors before they were signed
    for (const cursor of [madeUp, 'cjEwMA', edited, borrowed, 'abc', '', 5]) {
      const body = request('resources/list', { cursor });
      const res = await mcp(body);
      expectRpcError(res, -32602, body.id);
      expect(res.json.error.message).toMatch(/cursor is not one this server issued/);
    }
  });

  it('keeps string ids', async () => {
    const res = await mcp({ jsonrpc: '2.0', id: 'a-string-id', method: 'ping' });
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 'a-string-id', result: {} });
  });
});

describe('tools/list', () => {
  it('lists tools with title, description, object input and output schemas and annotations', async () => {
    const res = await mcp(request('tools/list'));
    const { tools } = res.json.result;
    expect(tools.map((tool: any) => tool.name)).toEqual(t.app.registry.all.map((op) => op.name));
    for (const tool of tools) {
      // `_meta` only on a tool an MCP Apps view draws (test/mcp-apps.test.ts).
      expect(
        Object.keys(tool)
          .filter((k) => k !== '_meta')
          .sort(),
      ).toEqual(['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
      expect(tool.annotations).toEqual({
        title: tool.title,
        readOnlyHint: true,
        idempotentHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
    }
    const me = tools.find((tool: any) => tool.name === 'me');
    expect(me.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('gives a list tool an object output schema: the REST array wrapped as items', async () => {
    const { tools } = (await mcp(request('tools/list'))).json.result;
    const tool = tools.find((x: any) => x.name === 'municipalities_indicators');
    const answer = tool.outputSchema.anyOf[0];
    expect(answer).toMatchObject({ type: 'object', required: ['items'], properties: { items: { type: 'array' } } });
    expect(tool.outputSchema.anyOf[1]).toMatchObject({ title: 'Problem', required: ['type', 'title', 'status'] });
  });

  it('serves the same bytes to keys with the same callable tools', async () => {
    const a = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const b = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: t.keys.beta });
    expect(a.body).toBe(b.body);
    const scoped = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { key: t.keys.signalsOnlyScope });
    // A premium key with only the `signals:read` scope: `me` and exactly the signals tools.
    const signalTools = OPERATIONS.filter((op) => op.scope === 'signals:read').map((op) => op.name);
    expect(signalTools.length).toBeGreaterThan(0);
    expect(scoped.json.result.tools.map((tool: any) => tool.name)).toEqual(['me', 'sources', ...signalTools]);
  });
});

describe('tools/call', () => {
  it('answers with structuredContent and the same JSON as text', async () => {
    const res = await mcp(request('tools/call', { name: 'indicators_get', arguments: { key: 'population' } }));
    const { result } = res.json;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual((await t.get('/v1/indicators/population')).json);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  });

  it('takes missing arguments as {}', async () => {
    const res = await mcp(request('tools/call', { name: 'me' }));
    expect(res.json.result.structuredContent.account_id).toBe(t.accounts.premium);
  });

  it('answers an unknown tool and malformed params with -32602', async () => {
    for (const params of [
      { name: 'no_such_tool', arguments: {} },
      { arguments: {} },
      { name: 42 },
      { name: 'me', arguments: [] },
      { name: 'me', arguments: 'x' },
      { name: 'me', arguments: null },
    ]) {
      const body = request('tools/call', params);
      expectRpcError(await mcp(body), -32602, body.id);
    }
    const noParams = request('tools/call');
    expectRpcError(await mcp(noParams), -32602, noParams.id);
    const positional = request('tools/call', ['me', {}]);
    expectRpcError(await mcp(positional), -32602, positional.id);
  });

  it('returns bad arguments as an isError validation-error naming the field', async () => {
    const problem = expectIsError(
      await mcp(request('tools/call', { name: 'indicators_snapshot', arguments: { key: 'population', limit: 0 } })),
      'validation-error',
      422,
    );
    expect(problem.errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
    // JSON channels are typed: a string where an integer is expected is refused, not coerced
    expectIsError(
      await mcp(request('tools/call', { name: 'indicators_snapshot', arguments: { key: 'population', limit: '5' } })),
      'validation-error',
      422,
    );
  });

  it('returns not-found and invalid-cursor as isError results', async () => {
    expectIsError(
      await mcp(request('tools/call', { name: 'municipalities_get', arguments: { code: '9999' } })),
      'not-found',
      404,
    );
    expectIsError(
      await mcp(
        request('tools/call', { name: 'indicators_snapshot', arguments: { key: 'population', cursor: 'Zm9yZ2Vk' } }),
      ),
      'invalid-cursor',
      400,
    );
  });

  it('returns a tool outside the plan or the scope as an isError result', async () => {
    expectIsError(
      await mcp(request('tools/call', { name: 'indicators_list', arguments: {} }), { key: t.keys.noIndicatorsDomain }),
      'domain-not-in-plan',
      403,
    );
    expectIsError(
      await mcp(request('tools/call', { name: 'indicators_list', arguments: {} }), { key: t.keys.signalsOnlyScope }),
      'insufficient-scope',
      403,
    );
  });
});

describe('access (docs/mcp.md, Errors)', () => {
  const unauthorisedChallenge =
    '401 without a key, with a wrong key and with another scheme, with a Bearer challenge naming the resource metadata';
  it(unauthorisedChallenge, async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: `Bearer sk_live_${'A'.repeat(40)}` },
      { authorization: `Basic ${t.keys.premium}` },
    ];
    for (const headers of cases) {
      const body = initialize('2025-11-25');
      const res = await mcp(body, { key: null, headers });
      expectRefusal(res, 401, 'invalid-auth');
      // The challenge names the Protected Resource Metadata; `error` only when a credential was sent (docs/oauth.md).
      const metadata = `Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp"`;
      expect(res.headers['www-authenticate']).toBe(
        headers.authorization ? `${metadata}, error="invalid_token"` : metadata,
      );
      expect(res.json.id).toBe(body.id);
    }
  });

  it('accepts the key in X-API-Key', async () => {
    const res = await mcp(request('tools/call', { name: 'me', arguments: {} }), {
      key: null,
      headers: { 'x-api-key': t.keys.premium },
    });
    expect(res.json.result.structuredContent.account_id).toBe(t.accounts.premium);
  });

  it('403 for a request from a web page (Origin), even with a valid key', async () => {
    expectRefusal(
      await mcp(initialize('2025-11-25'), { headers: { origin: 'https://evil.example' } }),
      403,
      'origin-not-allowed',
    );
    expectRefusal(
      await mcp(request('ping'), { headers: { origin: 'http://127.0.0.1:3000' } }),
      403,
      'origin-not-allowed',
    );
  });

  it('403 api-access-required for a plan without data API access, on every method', async () => {
    for (const body of [
      initialize('2025-11-25'),
      request('tools/list'),
      request('ping'),
      request('tools/call', { name: 'me', arguments: {} }),
    ]) {
      const res = await mcp(body, { key: t.keys.free });
      expectRefusal(res, 403, 'api-access-required');
      expect(res.json.error.data.upgrade_url).toBe(`${BASE_URL}/docs#plans`);
    }
  });

  const betaToolRefused =
    '403 beta-access-required for a beta tool outside the beta group; the tool is hidden from tools/list';
  it(betaToolRefused, async () => {
    await t.store.setBetaGate('indicators_stats', true);
    t.clock.advance(1_500); // reference data is re-read at most once a second
    try {
      const call = request('tools/call', { name: 'indicators_stats', arguments: { key: 'population' } });
      const res = await mcp(call);
      expectRefusal(res, 403, 'beta-access-required');
      expect(res.json.id).toBe(call.id);
      const listed = (await mcp(request('tools/list'))).json.result.tools.map((tool: any) => tool.name);
      expect(listed).not.toContain('indicators_stats');
      const beta = await mcp(call, { key: t.keys.beta });
      expect(beta.json.result.structuredContent.indicator).toBe('population');
      expect(
        (await mcp(request('tools/list'), { key: t.keys.beta })).json.result.tools.map((tool: any) => tool.name),
      ).toContain('indicators_stats');
    } finally {
      await t.store.setBetaGate('indicators_stats', false);
      t.clock.advance(1_500);
    }
  });

  const perMinuteLimit =
    '429 with Retry-After past the per-minute limit; every HTTP request counts, start-up calls and GET included';
  it(perMinuteLimit, async () => {
    const key = (await t.keyOnPlan('mcp_rpm', { requests_per_minute: 5 })).key;
    const statuses: number[] = [];
    statuses.push((await mcp(initialize('2025-11-25'), { key })).status);
    statuses.push((await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }, { key })).status);
    statuses.push((await mcp(undefined, { key, method: 'GET' })).status);
    statuses.push((await mcp(request('tools/list'), { key })).status);
    statuses.push((await mcp(request('ping'), { key })).status);
    const limited = await mcp(request('tools/call', { name: 'me', arguments: {} }), { key });
    statuses.push(limited.status);
    expect(statuses).toEqual([200, 202, 405, 200, 200, 429]);
    expectRefusal(limited, 429, 'rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t.clock.advance(61_000);
    expect((await mcp(request('ping'), { key })).status).toBe(200);
  });

  it('reports the limits in RateLimit headers on every answer', async () => {
    const key = (await t.keyOnPlan('mcp_headers', { requests_per_minute: 50, requests_per_month: 10 })).key;
    const first = await mcp(request('ping'), { key });
    const second = await mcp(request('tools/list'), { key });
    expect(first.headers['ratelimit-policy']).toMatch(/"minute";q=50;w=60/);
    expect(first.headers.ratelimit).toMatch(/"minute";r=49;/);
    expect(second.headers.ratelimit).toMatch(/"minute";r=48;/);
    const call = await mcp(request('tools/call', { name: 'indicators_get', arguments: { key: 'population' } }), {
      key,
    });
    expect(call.headers.ratelimit).toMatch(/"month";r=9;/);
  });

  it('402 quota-exceeded as an isError result once the monthly quota is used', async () => {
    const key = (await t.keyOnPlan('mcp_quota', { requests_per_month: 2 })).key;
    const call = request('tools/call', { name: 'indicators_get', arguments: { key: 'population' } });
    expect((await mcp(call, { key })).json.result.isError).toBeUndefined();
    expect((await mcp(call, { key })).json.result.isError).toBeUndefined();
    const problem = expectIsError(await mcp(call, { key }), 'quota-exceeded', 402);
    expect(problem.feature_key).toBe('requests_per_month');
    // me, tools/list and ping stay available
    const me = await mcp(request('tools/call', { name: 'me', arguments: {} }), { key });
    expect(me.json.result.structuredContent.usage).toMatchObject({ requests_this_month: 2, requests_remaining: 0 });
    expect((await mcp(request('tools/list'), { key })).status).toBe(200);
  });

  it('503 when a dependency is unavailable, with Retry-After', async () => {
    const { store, dbPath } = copyDemoStore();
    const counters = new MemoryCounters(store);
    // Counters that cannot be reached (a Redis outage): every rate check fails with service-unavailable.
    const unavailable: Counters = {
      hitRate: async () => {
        throw new ApiError('service-unavailable', { detail: 'The counters are unreachable.', retryAfter: 5 });
      },
      reserveQuota: (...args) => counters.reserveQuota(...args),
      commitQuota: (...args) => counters.commitQuota(...args),
      refundQuota: (...args) => counters.refundQuota(...args),
      usage: (...args) => counters.usage(...args),
      ping: () => counters.ping(),
      flush: () => counters.flush(),
      close: () => counters.close(),
    };
    const app = await createApp({
      config: loadConfig({ BASE_URL, MUNIDATA_DB: dbPath, LOG_LEVEL: 'silent' }),
      store,
      counters: unavailable,
    });
    try {
      const now = new Date();
      const account = await store.createAccount({
        name: 'x',
        plan_code: 'premium',
        beta: false,
        now: now.toISOString(),
      });
      const key = (await createKey(store, { accountId: account.id }, now)).secret;
      const res = await mcp(initialize('2025-11-25'), { key, app });
      expectRefusal(res, 503, 'service-unavailable');
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await app.close();
      await store.close();
    }
  });
});
