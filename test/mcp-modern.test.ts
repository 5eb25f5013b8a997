/**
 * The 2026-07-28 revision of MCP on the wire (app.http.inject), beside the 2025 revisions on the same endpoint:
 * what a request carrying `_meta` gets (server/discover, tools/list and tools/call with their result members),
 * every refusal the revision names with its HTTP status and code (-32602 naming the missing `_meta` field, -32020
 * for headers that disagree with the body, -32022 with the supported versions, 404 -32601 for methods this
 * revision does not have), and that a 2025 request is answered exactly as before. Real clients of every era are in
 * mcp-eras.test.ts; the conformance suite's 2026-07-28 run is in mcp-conformance.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MODERN = '2026-07-28';
const ALL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'];
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '0.0.1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let nextId = 0;

interface Call {
  params?: Record<string, unknown>;
  /** Replaces the headers a 2026 client derives from the body; `null` drops one. */
  headers?: Record<string, string | null>;
  key?: string;
  /** The whole `_meta`; `undefined` keeps META. */
  meta?: Record<string, unknown> | null;
}

/** A request as a 2026-07-28 client sends it: `_meta` in the params, the version, method and name headers. */
async function modern(method: string, { params = {}, headers = {}, key = t.keys.premium, meta }: Call = {}) {
  const id = ++nextId;
  const body = { jsonrpc: '2.0', id, method, params: meta === null ? params : { ...params, _meta: meta ?? META } };
  const derived: Record<string, string | null> = {
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(derived).filter((e): e is [string, string] => e[1] !== null));
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...sent,
    },
    payload: JSON.stringify(body),
  });
  return { id, status: res.statusCode, headers: res.headers, json: res.json() };
}

/** The same request as a 2025 client sends it (no `_meta`, no Mcp-Method). */
async function legacy(
  method: string,
  params: Record<string, unknown> = {},
  version = '2025-11-25',
  key = t.keys.premium,
) {
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'mcp-protocol-version': version },
    payload: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params }),
  });
  return { status: res.statusCode, json: res.json() };
}

function expectError(res: Awaited<ReturnType<typeof modern>>, status: number, code: number, message?: RegExp) {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json).toMatchObject({ jsonrpc: '2.0', id: res.id, error: { code } });
  expect(res.json.result).toBeUndefined();
  if (message) expect(res.json.error.message).toMatch(message);
}

const serverInfo = async () =>
  (await legacy('initialize', { protocolVersion: '2025-11-25', capabilities: {} })).json.result;

describe('server/discover', () => {
  const describesTheServer =
    'describes the server: every version it speaks, its capabilities, the instructions, caching hints and its identity';
  it(describesTheServer, async () => {
    const res = await modern('server/discover');
    expect(res.status).toBe(200);
    const init = await serverInfo();
    expect(res.json.result).toEqual({
      resultType: 'complete',
      supportedVersions: ALL_VERSIONS,
      capabilities: init.capabilities,
      instructions: init.instructions,
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': init.serverInfo },
    });
    expect(init.capabilities).toEqual({
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(Number.isInteger(res.json.result.ttlMs) && res.json.result.ttlMs > 0).toBe(true);
  });

  it('serves a request without clientInfo (a SHOULD of the client, never required)', async () => {
    const { 'io.modelcontextprotocol/clientInfo': _, ...meta } = META;
    expect((await modern('server/discover', { meta })).status).toBe(200);
  });
});

describe('tools/list and tools/call', () => {
  it('lists the same tools as the 2025 era, in the same order every time, with hints private to the key', async () => {
    const first = await modern('tools/list');
    expect(first.status).toBe(200);
    const { tools, resultType, ttlMs, cacheScope, _meta } = first.json.result;
    expect({ resultType, cacheScope }).toEqual({ resultType: 'complete', cacheScope: 'private' });
    expect(ttlMs).toBe((await modern('server/discover')).json.result.ttlMs);
    expect(_meta).toEqual({ 'io.modelcontextprotocol/serverInfo': (await serverInfo()).serverInfo });
    expect(tools).toEqual((await legacy('tools/list')).json.result.tools);
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(t.app.registry.all.map((op) => op.name));
    expect((await modern('tools/list')).json.result.tools).toEqual(tools);
    // Another key sees another list: why the scope is private.
    const narrow = (await modern('tools/list', { key: t.keys.signalsOnlyScope })).json.result.tools;
    expect(narrow.length).toBeLessThan(tools.length);
  });

  it('answers a tool call with the 2025 result plus resultType and the server info', async () => {
    const params = { name: 'indicators_stats', arguments: { key: 'population' } };
    const res = await modern('tools/call', { params });
    expect(res.status).toBe(200);
    const { resultType, _meta, ...rest } = res.json.result;
    expect(resultType).toBe('complete');
    expect(_meta).toEqual({ 'io.modelcontextprotocol/serverInfo': (await serverInfo()).serverInfo });
    expect(rest).toEqual((await legacy('tools/call', params)).json.result);
    expect(rest.structuredContent).toEqual((await t.get('/v1/indicators/population/stats')).json);
    // A list answer is wrapped as on 2025; a failed call is an isError result with the same members.
    const list = await modern('tools/call', {
      params: { name: 'municipalities_indicators', arguments: { code: 'lisboa' } },
    });
    expect(Array.isArray(list.json.result.structuredContent.items)).toBe(true);
    const failed = await modern('tools/call', { params: { name: 'municipalities_get', arguments: { code: '9999' } } });
    expect(failed.json.result).toMatchObject({
      isError: true,
      resultType: 'complete',
      structuredContent: { type: `${BASE_URL}/problems/not-found`, status: 404 },
      _meta,
    });
  });

  it('refuses a tool outside the key scopes as isError naming the scope it needs (never offline_access)', async () => {
    const res = await modern('tools/call', {
      params: { name: 'indicators_list', arguments: {} },
      key: t.keys.signalsOnlyScope,
    });
    expect(res.json.result).toMatchObject({
      isError: true,
      structuredContent: {
        type: `${BASE_URL}/problems/insufficient-scope`,
        status: 403,
        feature_key: 'indicators:read',
      },
    });
    expect(res.json.result.structuredContent.detail).toContain('indicators:read');
    // The challenge of a request without a credential names no scope, offline_access least of all.
    const anonymous = await t.app.http.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('answers an unknown tool with -32602, as the 2025 era does', async () => {
    expectError(
      await modern('tools/call', { params: { name: 'no_such_tool', arguments: {} } }),
      200,
      -32602,
      /Unknown tool/,
    );
  });
});

describe('the required _meta fields', () => {
  const missingMeta =
    'refuses a request without _meta, or without the version or the capabilities, with 400 -32602 naming the field';
  it(missingMeta, async () => {
    for (const method of ['server/discover', 'tools/list']) {
      const none = await modern(method, { meta: null });
      expectError(none, 400, -32602, /io\.modelcontextprotocol\/protocolVersion/);
      const { 'io.modelcontextprotocol/protocolVersion': _v, ...noVersion } = META;
      expectError(await modern(method, { meta: noVersion }), 400, -32602, /io\.modelcontextprotocol\/protocolVersion/);
      const { 'io.modelcontextprotocol/clientCapabilities': _c, ...noCapabilities } = META;
      const res = await modern(method, { meta: noCapabilities });
      expectError(res, 400, -32602, /io\.modelcontextprotocol\/clientCapabilities/);
      expect(res.json.error.data).toEqual({ field: 'params._meta.io.modelcontextprotocol/clientCapabilities' });
      const wrongType = { ...META, 'io.modelcontextprotocol/clientCapabilities': 'all' };
      expectError(await modern(method, { meta: wrongType }), 400, -32602, /clientCapabilities/);
    }
  });
});

describe('headers against the body', () => {
  const call = { name: 'indicators_stats', arguments: { key: 'population' } };

  it('refuses a missing or different MCP-Protocol-Version with 400 -32020', async () => {
    expectError(
      await modern('tools/list', { headers: { 'mcp-protocol-version': null } }),
      400,
      -32020,
      /MCP-Protocol-Version/,
    );
    expectError(
      await modern('tools/list', { headers: { 'mcp-protocol-version': '2025-11-25' } }),
      400,
      -32020,
      /MCP-Protocol-Version/,
    );
    const other = { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    expectError(await modern('server/discover', { meta: other }), 400, -32020, /2099-01-01/);
  });

  const mcpMethodHeader =
    'refuses a missing, different or differently cased Mcp-Method with 400 -32020; the header name is any case';
  it(mcpMethodHeader, async () => {
    expectError(await modern('tools/list', { headers: { 'mcp-method': null } }), 400, -32020, /Mcp-Method/);
    expectError(await modern('tools/list', { headers: { 'mcp-method': 'prompts/list' } }), 400, -32020, /Mcp-Method/);
    expectError(await modern('tools/list', { headers: { 'mcp-method': 'TOOLS/LIST' } }), 400, -32020, /Mcp-Method/);
    expect((await modern('tools/list', { headers: { 'mcp-method': null, 'MCP-METHOD': 'tools/list' } })).status).toBe(
      200,
    );
  });

  it('refuses a tools/call whose Mcp-Name is missing or names another tool with 400 -32020', async () => {
    expectError(await modern('tools/call', { params: call, headers: { 'mcp-name': null } }), 400, -32020, /Mcp-Name/);
    expectError(
      await modern('tools/call', { params: call, headers: { 'mcp-name': 'indicators_get' } }),
      400,
      -32020,
      /Mcp-Name/,
    );
    expect((await modern('tools/call', { params: call, headers: { 'mcp-name': '  indicators_stats ' } })).status).toBe(
      200,
    );
  });

  it('decodes a Base64 Mcp-Name before comparing it, and refuses one that is not Base64 of UTF-8', async () => {
    const encoded = `=?base64?${Buffer.from('indicators_stats').toString('base64')}?=`;
    const res = await modern('tools/call', { params: call, headers: { 'mcp-name': encoded } });
    expect(res.status).toBe(200);
    expect(res.json.result.structuredContent).toMatchObject({ indicator: 'population' });
    const other = `=?base64?${Buffer.from('indicators_get').toString('base64')}?=`;
    expectError(
      await modern('tools/call', { params: call, headers: { 'mcp-name': other } }),
      400,
      -32020,
      /indicators_get/,
    );
    expectError(
      await modern('tools/call', { params: call, headers: { 'mcp-name': '=?base64?not base64!?=' } }),
      400,
      -32020,
      /Base64/,
    );
    const notUtf8 = `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`;
    expectError(await modern('tools/call', { params: call, headers: { 'mcp-name': notUtf8 } }), 400, -32020, /UTF-8/);
    // A tool name outside plain ASCII travels Base64-encoded: decoded, it is an unknown tool like any other.
    const accented = { name: 'estatísticas', arguments: {} };
    const encodedAccent = `=?base64?${Buffer.from(accented.name).toString('base64')}?=`;
    expectError(
      await modern('tools/call', { params: accented, headers: { 'mcp-name': encodedAccent } }),
      200,
      -32602,
      /Unknown tool/,
    );
  });
});

describe('versions', () => {
  const unsupportedVersion =
    'answers an unsupported version, in either era, with 400 -32022 listing the three versions it speaks';
  it(unsupportedVersion, async () => {
    const unknown = { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const modernRes = await modern('tools/list', { meta: unknown, headers: { 'mcp-protocol-version': '2099-01-01' } });
    expectError(modernRes, 400, -32022);
    expect(modernRes.json.error.data).toEqual({ supported: ALL_VERSIONS, requested: '2099-01-01' });
    for (const version of ['2024-11-05', '2025-03-26', 'latest']) {
      const res = await legacy('tools/list', {}, version);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: -32022, data: { supported: ALL_VERSIONS, requested: version } });
    }
  });

  it('serves a 2025 request exactly as before: no resultType, no _meta, ping and initialize answered', async () => {
    const list = await legacy('tools/list');
    expect(list.status).toBe(200);
    expect(Object.keys(list.json.result)).toEqual(['tools']);
    expect((await legacy('ping', {}, '2025-06-18')).json.result).toEqual({});
    // A `_meta` naming a 2025 version is not the modern era: a 2025 server ignores `_meta`.
    const withMeta = await legacy('tools/list', {
      _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
    });
    expect(Object.keys(withMeta.json.result)).toEqual(['tools']);
  });
});

describe('resources, prompts and completion', () => {
  it('gives every cacheable result its hints, private to the key: a read a minute, lists as tools/list', async () => {
    const uri = 'munidata://municipalities/1106';
    const read = await modern('resources/read', { params: { uri }, headers: { 'mcp-name': uri } });
    expect(read.status).toBe(200);
    expect(read.json.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    const ttlMs = (await modern('tools/list')).json.result.ttlMs;
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
      const list = await modern(method);
      expect(list.json.result, method).toMatchObject({ resultType: 'complete', ttlMs, cacheScope: 'private' });
    }
    const get = await modern('prompts/get', {
      params: { name: 'find_open_tenders', arguments: { cpv: '45', district: 'Porto' } },
    });
    expect(get.json.result).toMatchObject({ resultType: 'complete', messages: expect.any(Array) });
    expect(get.json.result.ttlMs).toBeUndefined();
  });

  it('checks that Mcp-Name says the URI of a read and the name of a prompt (400 -32020)', async () => {
    const uri = 'munidata://municipalities/1106';
    const other = { 'mcp-name': 'munidata://municipalities/1312' };
    expectError(await modern('resources/read', { params: { uri }, headers: other }), 400, -32020, /Mcp-Name/);
    expectError(await modern('resources/read', { params: { uri } }), 400, -32020, /Mcp-Name/);
    const prompt = { name: 'profile_municipality', arguments: { municipality: '1106' } };
    expectError(await modern('prompts/get', { params: prompt, headers: { 'mcp-name': 'x' } }), 400, -32020, /Mcp-Name/);
  });
});

describe('methods this revision does not have', () => {
  it('answers initialize, ping, the removed methods and any unknown one with 404 -32601, echoing the id', async () => {
    for (const method of [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'subscriptions/listen',
      'constructor',
      'no/such',
    ]) {
      expectError(await modern(method), 404, -32601, /Method not found/);
    }
  });
});
