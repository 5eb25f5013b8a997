/**
 * What every JSON-RPC endpoint does with the envelope, whatever its channel (src/channels/jsonrpc): the data
 * agent `/a2a`, the MCP server `/mcp` and a company agent's `/agents/<slug>/a2a` and `/agents/<slug>/mcp`.
 * Params nested deeper than the documented bound are refused with -32602 (docs/a2a.md, docs/mcp.md); a
 * notification (no `id`) is accepted with 202 and not run: nothing executed, charged or created (JSON-RPC 2.0 §4.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../src/agents/admin.js';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { MAX_PARAMS_DEPTH } from '../src/channels/jsonrpc/depth.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
const SLUG = DEMO_DEPLOYMENTS[0].slug;
const agent = { a2a: '', mcp: '' };
beforeAll(async () => {
  t = await startTestApp();
  const now = new Date(t.clock.now);
  await ensureDemoAgents(t.store, now);
  agent.a2a = (await createCredential(t.store, { slug: SLUG, channel: 'a2a' }, now)).secret;
  agent.mcp = (await createCredential(t.store, { slug: SLUG, channel: 'mcp' }, now)).secret;
});
afterAll(() => t.close());

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'a2a-version': '1.0',
};

async function post(url: string, key: string, body: unknown) {
  // Every request a second later: a company agent's credential may make 60 a minute.
  t.clock.advance(1_000);
  const res = await t.app.http.inject({
    method: 'POST',
    url,
    headers: { ...HEADERS, authorization: `Bearer ${key}` },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.body, json: res.body === '' ? undefined : JSON.parse(res.body) };
}

/** `depth` levels of objects: `{"a": {"a": … 1}}`, written as text (JSON.stringify would overflow first). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** `id: 'none'` leaves the member out: a notification. Written as text, so that the metadata may be any depth. */
function sendMessage(
  skill: string,
  input: Record<string, unknown>,
  metadataJson = '{}',
  id: number | null | 'none' = 1,
) {
  const part = JSON.stringify({ data: { skill, input }, mediaType: 'application/json' });
  const message = `{"messageId":"m-${Math.random()}","role":"ROLE_USER","metadata":${metadataJson},"parts":[${part}]}`;
  return envelope('SendMessage', `{"message":${message}}`, id);
}

function toolsCall(name: string, argumentsJson: string, id: number | 'none' = 1) {
  return envelope('tools/call', `{"name":"${name}","arguments":${argumentsJson}}`, id);
}

function envelope(method: string, paramsJson: string, id: number | null | 'none') {
  const idMember = id === 'none' ? '' : `"id":${JSON.stringify(id)},`;
  return `{"jsonrpc":"2.0",${idMember}"method":"${method}","params":${paramsJson}}`;
}

const TASK_SKILL = 'assess_project_fit';
const PROJECT = { project_type: 'residential_solar', municipality: 'porto', area_m2: 60 };

async function agentTaskCount(): Promise<number> {
  const list = await post(`/agents/${SLUG}/a2a`, agent.a2a, { jsonrpc: '2.0', id: 9, method: 'ListTasks', params: {} });
  return list.json.result.totalSize;
}

describe(`params nested deeper than ${MAX_PARAMS_DEPTH} levels`, () => {
  it('A2A, the data agent and a company agent: -32602 naming params, with a BadRequest; nothing created', async () => {
    const tasks = await agentTaskCount();
    for (const [url, key, skill, input] of [
      ['/a2a', t.keys.premium, 'me', {}],
      [`/agents/${SLUG}/a2a`, agent.a2a, TASK_SKILL, PROJECT],
    ] as const) {
      for (const depth of [MAX_PARAMS_DEPTH, 100_000]) {
        const res = await post(url, key, sendMessage(skill, input, nested(depth), 7));
        expect(res.status, url).toBe(200);
        expect(res.json.id).toBe(7);
        expect(res.json.error.code, `${url} ${depth}`).toBe(-32602);
        expect(res.json.error.message).toContain(`nested deeper than ${MAX_PARAMS_DEPTH} levels`);
        expect(res.json.error.data).toContainEqual({
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'params', description: expect.stringContaining(String(MAX_PARAMS_DEPTH)) }],
        });
      }
      // Params exactly at the bound are read: params (1) → message (2) → metadata (3) → …
      const within = await post(url, key, sendMessage(skill, input, nested(MAX_PARAMS_DEPTH - 3)));
      expect(within.json.error, `${url}: ${within.body.slice(0, 300)}`).toBeUndefined();
    }
    expect(await agentTaskCount()).toBe(tasks + 1);
  });

  it('MCP, the data server and a company agent: -32602 on HTTP 200, the id kept', async () => {
    for (const [url, key, tool] of [
      ['/mcp', t.keys.premium, 'me'],
      [`/agents/${SLUG}/mcp`, agent.mcp, 'check_service_area'],
    ] as const) {
      const res = await post(url, key, toolsCall(tool, nested(100_000), 5));
      expect(res.status, url).toBe(200);
      expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32602 } });
      expect(res.json.error.message).toContain(`nested deeper than ${MAX_PARAMS_DEPTH} levels`);
    }
  });
});

describe('notifications (no id)', () => {
  it('the data agent: SendMessage without id is 202 with no body, not run and not charged', async () => {
    const { key } = await t.keyOnPlan('a2a_notify', { requests_per_month: 1000 });
    const usage = async () => (await t.get('/v1/me', { key })).json.usage.requests_this_month;
    const before = await usage();
    const res = await post('/a2a', key, sendMessage('indicators_get', { key: 'population' }, '{}', 'none'));
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
    // Whatever else it holds: no version, a 0.3 method, bad params. None is answered.
    for (const body of [
      { jsonrpc: '2.0', method: 'message/send', params: {} },
      { jsonrpc: '2.0', method: 'SendMessage', params: { message: 'no' } },
    ]) {
      const other = await post('/a2a', key, body);
      expect([other.status, other.body]).toEqual([202, '']);
    }
    expect(await usage()).toBe(before);
    // `"id": null` is a request (JSON-RPC discourages it, but allows it): answered, with id null, and charged.
    const nullId = await post('/a2a', key, sendMessage('indicators_get', { key: 'population' }, '{}', null));
    expect(nullId.json).toMatchObject({ jsonrpc: '2.0', id: null, result: { message: { role: 'ROLE_AGENT' } } });
    expect(await usage()).toBe(before + 1);
  });

  it('a company agent: a task skill without id creates no task and gets no answer', async () => {
    const tasks = await agentTaskCount();
    const res = await post(`/agents/${SLUG}/a2a`, agent.a2a, sendMessage(TASK_SKILL, PROJECT, '{}', 'none'));
    expect([res.status, res.body]).toEqual([202, '']);
    expect(await agentTaskCount()).toBe(tasks);
  });

  it('MCP keeps answering a notification 202, on the data server and a company agent', async () => {
    for (const [url, key] of [
      ['/mcp', t.keys.premium],
      [`/agents/${SLUG}/mcp`, agent.mcp],
    ] as const) {
      const res = await post(url, key, toolsCall('me', '{}', 'none'));
      expect([res.status, res.body], url).toEqual([202, '']);
    }
  });
});
