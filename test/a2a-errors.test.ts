/**
 * The A2A channel's refusals, one raw JSON-RPC request per row of the A2A error table (docs/a2a.md) and issue 5:
 * HTTP-level answers (401, 403, 429), -32009, -32005, -32602, -32004 (each reason), -32001, -32601, -32700,
 * -32600, the error envelope (ErrorInfo + problem document) and the counting rules.
 */
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { type App, createApp } from '../src/app.js';
import { A2A_HTTP_REFUSAL_CODE } from '../src/channels/a2a/errors.js';
import { loadConfig } from '../src/config.js';
import { defineOperation } from '../src/core/operation.js';
import { ApiError, ERROR_KINDS, type ErrorKind, type ErrorKindInfo } from '../src/lib/errors.js';
import { createRegistry, OPERATIONS } from '../src/operations/index.js';
import { BASE_URL, copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface RpcOptions {
  key?: string | null;
  version?: string | null;
  headers?: Record<string, string>;
  url?: string;
  app?: App;
}

async function post(
  body: string,
  { key = t.keys.premium, version = '1.0', headers = {}, url = '/a2a', app = t.app }: RpcOptions = {},
) {
  const res = await app.http.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(version === null ? {} : { 'a2a-version': version }),
      ...headers,
    },
    payload: body,
  });
  let json: any;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json, body: res.body };
}

let nextId = 1;
function rpc(method: string, params?: unknown, options?: RpcOptions) {
  const request: Record<string, unknown> = { jsonrpc: '2.0', id: nextId++, method };
  if (params !== undefined) request.params = params;
  return post(JSON.stringify(request), options);
}

function message(data: unknown, overrides: Record<string, unknown> = {}) {
  return {
    message: {
      messageId: `m-${nextId}`,
      role: 'ROLE_USER',
      parts: [{ data, mediaType: 'application/json' }],
      ...overrides,
    },
  };
}

function send(skill: string, input: Record<string, unknown> = {}, options?: RpcOptions) {
  return rpc('SendMessage', message({ skill, input }), options);
}

/** A JSON-RPC error with exactly {code, message, data?} and, when `reason` is given, a first ErrorInfo with it. */
function expectRpcError(res: Awaited<ReturnType<typeof post>>, code: number, reason?: string) {
  expect(res.json?.jsonrpc, res.body).toBe('2.0');
  expect(res.json.result).toBeUndefined();
  expect(res.json.error?.code, res.body).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(Object.keys(res.json.error).every((k) => ['code', 'message', 'data'].includes(k))).toBe(true);
  if (reason !== undefined) {
    expect(Array.isArray(res.json.error.data)).toBe(true);
    for (const entry of res.json.error.data) expect(typeof entry['@type']).toBe('string');
    const info = res.json.error.data[0];
    expect(info).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason });
    expect(typeof info.domain).toBe('string');
    expect(info.domain.length).toBeGreaterThan(0);
    for (const value of Object.values(info.metadata ?? {})) expect(typeof value).toBe('string');
  }
  return res.json.error;
}

/** A refusal of a REST kind: ErrorInfo reason = KIND, domain = the service, then the full problem document. */
function expectKind(res: Awaited<ReturnType<typeof post>>, code: number, kind: ErrorKind) {
  const error = expectRpcError(res, code, kind.toUpperCase().replaceAll('-', '_'));
  expect(error.data[0].domain).toBe('munidata.test');
  expect(error.data[0].metadata.kind).toBe(kind);
  const problem = error.data[1];
  expect(problem).toMatchObject({
    type: `${BASE_URL}/problems/${kind}`,
    title: ERROR_KINDS[kind].title,
    status: ERROR_KINDS[kind].status,
    instance: '/a2a',
  });
  expect(problem.request_id).toBe(res.headers['request-id']);
  return error;
}

describe('A2A-Version: the version rule comes first', () => {
  it('refuses a request without the header with -32009 VERSION_NOT_SUPPORTED (treated as 0.3)', async () => {
    const error = expectRpcError(await send('me', {}, { version: null }), -32009, 'VERSION_NOT_SUPPORTED');
    expect(error.data[0].domain).toBe('a2a-protocol.org');
    expect(error.data[0].metadata.requestedVersion).toBe('0.3');
  });

  it('reads an empty header as 0.3, and refuses 0.3 and 2.0', async () => {
    for (const version of ['', '0.3', '2.0', '1.1', 'abc']) {
      expectRpcError(await send('me', {}, { version }), -32009, 'VERSION_NOT_SUPPORTED');
    }
  });

  it('checks the version before the method: a 0.3 method without the header is -32009, not -32601', async () => {
    expectRpcError(await rpc('message/send', {}, { version: null }), -32009, 'VERSION_NOT_SUPPORTED');
  });

  it('checks the version before the request object (echoing the id it could read)', async () => {
    const res = await post(JSON.stringify({ id: 'abc', method: 'SendMessage' }), { version: null });
    expectRpcError(res, -32009, 'VERSION_NOT_SUPPORTED');
    expect(res.json.id).toBe('abc');
  });

  it('accepts 1.0 with a patch number, and the query parameter instead of the header', async () => {
    expect((await send('me', {}, { version: '1.0.0' })).json.result.message.role).toBe('ROLE_AGENT');
    expect((await send('me', {}, { version: '1.0.3' })).json.result.message.role).toBe('ROLE_AGENT');
    expect((await send('me', {}, { version: null, url: '/a2a?A2A-Version=1.0' })).json.result.message.role).toBe(
      'ROLE_AGENT',
    );
  });

  it('answers on /a2a/ (trailing slash) as on /a2a', async () => {
    expect((await send('me', {}, { url: '/a2a/' })).json.result.message.metadata.skill).toBe('me');
  });
});

describe('HTTP-level refusals', () => {
  it('401 with WWW-Authenticate and a JSON-RPC body for a missing or wrong key', async () => {
    for (const key of [null, 'sk_live_wrong']) {
      const res = await send('me', {}, { key });
      expect(res.status).toBe(401);
      // The challenge names the Protected Resource Metadata; `error` only when a credential was sent (docs/oauth.md).
      const metadata = `Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/a2a"`;
      expect(res.headers['www-authenticate']).toBe(key === null ? metadata : `${metadata}, error="invalid_token"`);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectKind(res, A2A_HTTP_REFUSAL_CODE, 'invalid-auth');
    }
  });

  it('accepts the key in X-API-Key', async () => {
    const res = await send('me', {}, { key: null, headers: { 'x-api-key': t.keys.premium } });
    expect(res.status).toBe(200);
    expect(res.json.result.message.parts[0].data.plan_code).toBe('premium');
  });

  it('403 for a browser Origin, even with a valid key', async () => {
    const res = await send('me', {}, { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expectKind(res, A2A_HTTP_REFUSAL_CODE, 'origin-not-allowed');
  });

  const apiAccessRequired =
    '403 api-access-required for a plan without data API access, for the whole request (me and the card too)';
  it(apiAccessRequired, async () => {
    for (const res of [
      await send('me', {}, { key: t.keys.free }),
      await rpc('GetExtendedAgentCard', undefined, { key: t.keys.free }),
    ]) {
      expect(res.status).toBe(403);
      expectKind(res, A2A_HTTP_REFUSAL_CODE, 'api-access-required');
    }
  });

  const perMinuteLimit =
    '429 with Retry-After once the per-minute limit is reached; every request counts, even a refused one';
  it(perMinuteLimit, async () => {
    const { key } = await t.keyOnPlan('a2a_rpm', { requests_per_minute: 3 });
    expect((await send('me', {}, { key })).status).toBe(200);
    expectRpcError(await send('me', {}, { key, version: null }), -32009, 'VERSION_NOT_SUPPORTED');
    expectRpcError(await post('{not json', { key }), -32700);
    const res = await send('me', {}, { key });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectKind(res, A2A_HTTP_REFUSAL_CODE, 'rate-limited');
    t.clock.advance(61_000);
    expect((await send('me', {}, { key })).status).toBe(200);
  });
});

describe('-32005: only one data part', () => {
  it('refuses text, file (raw or 0.3 file) and URL parts', async () => {
    const parts = [
      { text: 'population of Lisboa' },
      { kind: 'text', text: 'hello' },
      { raw: 'aGVsbG8=', mediaType: 'text/plain', filename: 'a.txt' },
      { url: 'https://example.com/a.json', mediaType: 'application/json' },
      { kind: 'file', file: { uri: 'https://example.com/a.json' } },
    ];
    for (const part of parts) {
      const res = await rpc('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [part] } });
      expect(res.status).toBe(200);
      expectRpcError(res, -32005, 'CONTENT_TYPE_NOT_SUPPORTED');
    }
  });

  it('refuses a text part next to a data part, and a data part of another media type', async () => {
    const data = { data: { skill: 'me', input: {} }, mediaType: 'application/json' };
    expectRpcError(
      await rpc('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }, data] } }),
      -32005,
    );
    expectRpcError(
      await rpc('SendMessage', {
        message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ ...data, mediaType: 'text/csv' }] },
      }),
      -32005,
      'CONTENT_TYPE_NOT_SUPPORTED',
    );
  });

  it('refuses a body that is not application/json', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: message({ skill: 'me', input: {} }),
    });
    expectRpcError(
      await post(body, { headers: { 'content-type': 'text/plain' } }),
      -32005,
      'CONTENT_TYPE_NOT_SUPPORTED',
    );
    expect(
      (await post(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })).json.result,
    ).toBeDefined();
  });
});

describe('-32602: unknown skill or invalid input, naming the field', () => {
  const fieldsOf = (error: any) => error.data[1].errors.map((e: any) => e.field);

  it('unknown or missing skill', async () => {
    const error = expectKind(await send('no_such_skill'), -32602, 'validation-error');
    expect(fieldsOf(error)).toEqual(['message.parts[0].data.skill']);
    expect(error.message).toMatch(/no_such_skill/);
    // A misspelt id is answered with the skill it was likely meant to be.
    const misspelt = expectKind(await send('procurement_red_flag', { id: 1 }), -32602, 'validation-error');
    expect(misspelt.data[1].errors).toEqual([
      {
        field: 'message.parts[0].data.skill',
        message: 'unknown skill "procurement_red_flag"; did you mean `procurement_red_flags`?',
      },
    ]);
    expect(error.data[2]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [{ field: 'message.parts[0].data.skill', description: expect.any(String) }],
    });
    expect(fieldsOf(expectKind(await rpc('SendMessage', message({ input: {} })), -32602, 'validation-error'))).toEqual([
      'message.parts[0].data.skill',
    ]);
  });

  it('invalid input: wrong type, out of range, unknown parameter, missing required one', async () => {
    expect(fieldsOf(expectKind(await send('indicators_list', { limit: 0 }), -32602, 'validation-error'))).toEqual([
      'limit',
    ]);
    // JSON channels are strict: a string is not coerced to an integer.
    expect(fieldsOf(expectKind(await send('indicators_list', { limit: '10' }), -32602, 'validation-error'))).toEqual([
      'limit',
    ]);
    expect(fieldsOf(expectKind(await send('indicators_list', { colour: 'red' }), -32602, 'validation-error'))).toEqual([
      'colour',
    ]);
    expect(
      fieldsOf(expectKind(await send('indicators_series', { key: 'population' }), -32602, 'validation-error')),
    ).toEqual(['municipality']);
    expect(
      fieldsOf(expectKind(await rpc('SendMessage', message({ skill: 'me', input: [] })), -32602, 'validation-error')),
    ).toEqual(['message.parts[0].data.input']);
  });

  it('invalid message: messageId (1 to 128 characters), role, parts, data', async () => {
    const data = { data: { skill: 'me', input: {} }, mediaType: 'application/json' };
    const cases: [unknown, string][] = [
      [{ role: 'ROLE_USER', parts: [data] }, 'message.messageId'],
      [{ messageId: '', role: 'ROLE_USER', parts: [data] }, 'message.messageId'],
      [{ messageId: 'x'.repeat(129), role: 'ROLE_USER', parts: [data] }, 'message.messageId'],
      [{ messageId: 42, role: 'ROLE_USER', parts: [data] }, 'message.messageId'],
      [{ messageId: 'm', role: 'ROLE_AGENT', parts: [data] }, 'message.role'],
      [{ messageId: 'm', parts: [data] }, 'message.role'],
      [{ messageId: 'm', role: 'ROLE_USER', parts: [] }, 'message.parts'],
      [{ messageId: 'm', role: 'ROLE_USER', parts: [data, data] }, 'message.parts'],
      [{ messageId: 'm', role: 'ROLE_USER', parts: [{ mediaType: 'application/json' }] }, 'message.parts[0].data'],
      [{ messageId: 'm', role: 'ROLE_USER', parts: [{ data: 'me' }] }, 'message.parts[0].data'],
    ];
    for (const [msg, field] of cases) {
      const error = expectKind(await rpc('SendMessage', { message: msg }), -32602, 'validation-error');
      expect(fieldsOf(error), JSON.stringify(msg)).toEqual([field]);
    }
    expect(fieldsOf(expectKind(await rpc('SendMessage', {}), -32602, 'validation-error'))).toEqual(['message']);
    // 128 characters is still fine; snake_case names are accepted too (ProtoJSON).
    expect(
      (await rpc('SendMessage', { message: { messageId: 'x'.repeat(128), role: 'ROLE_USER', parts: [data] } })).json
        .result,
    ).toBeDefined();
    expect(
      (
        await rpc('SendMessage', {
          message: { message_id: 'm', role: 'ROLE_USER', parts: [{ data: data.data, media_type: 'application/json' }] },
        })
      ).json.result,
    ).toBeDefined();
  });

  it('invalid cursor is -32602 INVALID_CURSOR', async () => {
    expectKind(await send('indicators_list', { cursor: 'forged' }), -32602, 'invalid-cursor');
  });

  it('params that are not an object', async () => {
    expectRpcError(await rpc('SendMessage', ['a']), -32602);
  });
});

describe('-32004: refusals with their reason', () => {
  it('DOMAIN_NOT_IN_PLAN', async () => {
    const error = expectKind(
      await send('indicators_list', {}, { key: t.keys.noIndicatorsDomain }),
      -32004,
      'domain-not-in-plan',
    );
    expect(error.data[0].metadata.feature_key).toBe('indicators');
  });

  it('INSUFFICIENT_SCOPE', async () => {
    expectKind(await send('indicators_list', {}, { key: t.keys.signalsOnlyScope }), -32004, 'insufficient-scope');
  });

  it('NOT_FOUND', async () => {
    expectKind(await send('municipalities_get', { code: '9999' }), -32004, 'not-found');
    expectKind(await send('indicators_get', { key: 'no_such_indicator' }), -32004, 'not-found');
  });

  it('BETA_ACCESS_REQUIRED', async () => {
    await t.store.setBetaGate('indicators_stats', true);
    t.clock.advance(1_500);
    try {
      expectKind(await send('indicators_stats', { key: 'population' }), -32004, 'beta-access-required');
      expect((await send('indicators_stats', { key: 'population' }, { key: t.keys.beta })).json.result).toBeDefined();
    } finally {
      await t.store.setBetaGate('indicators_stats', false);
      t.clock.advance(1_500);
    }
  });

  it('QUOTA_EXCEEDED, with retry_after; me still answers', async () => {
    const { key } = await t.keyOnPlan('a2a_quota', { requests_per_month: 2 });
    expect((await send('indicators_stats', { key: 'population' }, { key })).json.result).toBeDefined();
    expect((await send('indicators_stats', { key: 'population' }, { key })).json.result).toBeDefined();
    const res = await send('indicators_stats', { key: 'population' }, { key });
    expect(res.status).toBe(200);
    const error = expectKind(res, -32004, 'quota-exceeded');
    expect(Number(error.data[0].metadata.retry_after)).toBeGreaterThan(0);
    expect(error.data[1].feature_key).toBe('requests_per_month');
    expect((await send('me', {}, { key })).json.result.message.parts[0].data.usage.requests_this_month).toBe(2);
  });

  it('SendStreamingMessage and SubscribeToTask: UNSUPPORTED_OPERATION', async () => {
    expectRpcError(
      await rpc('SendStreamingMessage', message({ skill: 'me', input: {} })),
      -32004,
      'UNSUPPORTED_OPERATION',
    );
    expectRpcError(await rpc('SubscribeToTask', { id: 't1' }), -32004, 'UNSUPPORTED_OPERATION');
  });
});

describe('SERVICE_UNAVAILABLE and internal errors', () => {
  let app: App;
  let key: string;
  beforeAll(async () => {
    const { store, dbPath } = copyDemoStore();
    const failing = (name: string, error: () => Error) =>
      defineOperation({
        name,
        title: name,
        summary: 'Fails.',
        description: 'Fails, for the tests.',
        domain: 'indicators',
        scope: 'indicators:read',
        input: Type.Object({}, { additionalProperties: false }),
        output: Type.Object({}),
        rest: { path: `/v1/test/${name}` },
        cache: 'data',
        examples: [],
        handler: () => {
          throw error();
        },
      });
    const registry = createRegistry([
      ...OPERATIONS,
      failing(
        'unavailable',
        () => new ApiError('service-unavailable', { detail: 'The store is down.', retryAfter: 5 }),
      ),
      failing('broken', () => new Error('SELECT * FROM secrets failed')),
    ]);
    app = await createApp({
      config: loadConfig({ BASE_URL, MUNIDATA_DB: dbPath, LOG_LEVEL: 'silent' }),
      store,
      registry,
    });
    const account = await store.createAccount({
      name: 'x',
      plan_code: 'premium',
      beta: false,
      now: new Date().toISOString(),
    });
    key = (await createKey(store, { accountId: account.id }, new Date())).secret;
    return async () => {
      await app.close();
      await store.close();
    };
  });

  it('SERVICE_UNAVAILABLE is -32004 on HTTP 503 with Retry-After', async () => {
    const res = await send('unavailable', {}, { app, key });
    const error = expectKind(res, -32004, 'service-unavailable');
    expect(error.data[0].metadata.retry_after).toBe('5');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('an unexpected error is -32603 INTERNAL and leaks nothing', async () => {
    const res = await send('broken', {}, { app, key });
    expect(res.status).toBe(200);
    expectKind(res, -32603, 'internal');
    expect(res.body).not.toMatch(/secrets/);
  });
});

describe('tasks, methods and envelopes', () => {
  it('GetTask and CancelTask: -32001 TASK_NOT_FOUND (no tasks are ever created)', async () => {
    const error = expectRpcError(await rpc('GetTask', { id: 'task-1' }), -32001, 'TASK_NOT_FOUND');
    expect(error.data[0].metadata.taskId).toBe('task-1');
    expectRpcError(await rpc('CancelTask', { id: 'task-1' }), -32001, 'TASK_NOT_FOUND');
    expectRpcError(await rpc('GetTask', {}), -32602);
    // A message continuing a task: there is none.
    expectRpcError(
      await rpc('SendMessage', message({ skill: 'me', input: {} }, { taskId: 'task-1' })),
      -32001,
      'TASK_NOT_FOUND',
    );
  });

  it('ListTasks: an empty, well-formed list', async () => {
    expect((await rpc('ListTasks', {})).json.result).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 0,
    });
    expect((await rpc('ListTasks')).json.result.tasks).toEqual([]);
    expect((await rpc('ListTasks', { page_size: 10 })).json.result.pageSize).toBe(10);
    expectRpcError(await rpc('ListTasks', { pageSize: 500 }), -32602);
  });

  it('push notification methods: -32003', async () => {
    expectRpcError(
      await rpc('CreateTaskPushNotificationConfig', { taskId: 't', url: 'https://x' }),
      -32003,
      'PUSH_NOTIFICATION_NOT_SUPPORTED',
    );
  });

  it('unknown methods (and 0.3 method names): -32601', async () => {
    expectRpcError(await rpc('tasks/get', { id: 'x' }), -32601);
    expectRpcError(await rpc('message/send', {}), -32601);
    expectRpcError(await rpc('Nope'), -32601);
  });

  it('malformed JSON: -32700 with id null', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": ', '', 'nope']) {
      const res = await post(body);
      expect(res.status).toBe(200);
      expectRpcError(res, -32700);
      expect(res.json.id).toBeNull();
    }
  });

  it('not a JSON-RPC request: -32600', async () => {
    const bodies = [
      { id: 1, method: 'SendMessage' },
      { jsonrpc: '1.0', id: 1, method: 'SendMessage' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, method: 42 },
      { jsonrpc: '2.0', id: { a: 1 }, method: 'ListTasks' },
      { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: 'x' },
      [{ jsonrpc: '2.0', id: 1, method: 'ListTasks' }],
      42,
      'SendMessage',
      null,
    ];
    for (const body of bodies) {
      const res = await post(JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(200);
      expectRpcError(res, -32600);
    }
    expect((await post(JSON.stringify({ id: 7, method: 'ListTasks' }))).json.id).toBe(7);
  });

  it('a body over 1 MiB: HTTP 413 with a JSON-RPC error; an unreadable Content-Type: -32005', async () => {
    const big = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { pad: 'x'.repeat(1_100_000) } }),
    );
    expect(big.status).toBe(413);
    expectRpcError(big, -32600);
    const unreadable = await post('{}', { headers: { 'content-type': 'no type here' } });
    expect(unreadable.status).toBe(200);
    expectRpcError(unreadable, -32005, 'CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('echoes string and numeric ids exactly', async () => {
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 'req-é-1', method: 'ListTasks' }))).json.id).toBe(
      'req-é-1',
    );
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ListTasks' }))).json.id).toBe(0);
  });
});

describe('counting', () => {
  const countsOncePerCall =
    'SendMessage to a data skill counts once per call, repeated or not; me, the cards and failures are free';
  it(countsOncePerCall, async () => {
    const { key } = await t.keyOnPlan('a2a_count', { requests_per_month: 1000 });
    const usage = async () =>
      (await send('me', {}, { key })).json.result.message.parts[0].data.usage.requests_this_month;
    expect(await usage()).toBe(0);
    await send('indicators_get', { key: 'population' }, { key });
    await send('indicators_get', { key: 'population' }, { key });
    expect(await usage()).toBe(2);
    await rpc('GetExtendedAgentCard', undefined, { key });
    await t.app.http.inject({
      method: 'GET',
      url: '/.well-known/agent-card.json',
      headers: { authorization: `Bearer ${key}` },
    });
    await send('indicators_get', { key: 'no_such_indicator' }, { key });
    await send('indicators_list', { limit: 0 }, { key });
    await rpc('GetTask', { id: 'x' }, { key });
    await rpc('ListTasks', {}, { key });
    expect(await usage()).toBe(2);
  });

  it('reports the limits in RateLimit headers on A2A answers', async () => {
    const res = await send('indicators_get', { key: 'population' });
    expect(res.headers['ratelimit-policy']).toMatch(/"minute"/);
    expect(res.headers['request-id']).toMatch(/^req_/);
  });
});

describe('docs/a2a.md', () => {
  it('its error table agrees with ERROR_KINDS', () => {
    const doc = readFileSync(new URL('../docs/a2a.md', import.meta.url), 'utf8');
    const rows = new Map<string, string>();
    for (const match of doc.matchAll(/^\| `([a-z-]+)` \| `([A-Z_]+)` \| ([^|]+?) \|/gm))
      rows.set(match[1], match[3].trim());
    for (const [kind, info] of Object.entries(ERROR_KINDS) as [string, ErrorKindInfo][]) {
      const expected =
        info.a2a === 'http'
          ? `HTTP ${info.status}`
          : info.a2aHttpStatus
            ? `${info.a2a} on HTTP ${info.status}`
            : String(info.a2a);
      expect(rows.get(kind), kind).toBe(expected);
    }
    expect(rows.size).toBe(Object.keys(ERROR_KINDS).length);
  });
});
