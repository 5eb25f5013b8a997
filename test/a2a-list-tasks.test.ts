/**
 * ListTasks parameters (docs/a2a.md, Tasks): one validation for both A2A endpoints, the data agent (no tasks) and a
 * company agent (the credential's tasks). A bad value is -32602 whose BadRequest names the field, the same on both;
 * a good one is a well-formed page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { type AgentHostApp, SLUGS, startAgentHost } from './helpers/agents.js';

let host: AgentHostApp;
let dataKey: string;
beforeAll(async () => {
  host = await startAgentHost();
  const now = new Date(host.clock.now);
  const account = await host.store.createAccount({
    name: 'ListTasks Lda',
    plan_code: 'premium',
    beta: false,
    now: now.toISOString(),
  });
  dataKey = (await createKey(host.store, { accountId: account.id }, now)).secret;
});
afterAll(() => host.close());

const ENDPOINTS = () => [
  { name: 'the data agent', url: '/a2a', key: dataKey },
  { name: 'a company agent', url: `/agents/${SLUGS[0]}/a2a`, key: host.credentials[SLUGS[0]].a2a },
];

let id = 0;
async function listTasks(endpoint: { url: string; key: string }, params: Record<string, unknown>) {
  host.clock.advance(61_000);
  const res = await host.app.http.inject({
    method: 'POST',
    url: endpoint.url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.key}`, 'a2a-version': '1.0' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'ListTasks', params }),
  });
  return res.json();
}

const BAD: [string, Record<string, unknown>][] = [
  ['statusTimestampAfter', { statusTimestampAfter: '-1' }],
  ['statusTimestampAfter', { statusTimestampAfter: '2024' }],
  ['statusTimestampAfter', { statusTimestampAfter: '2024-01-01' }],
  ['statusTimestampAfter', { statusTimestampAfter: '2024-02-30T00:00:00Z' }],
  ['statusTimestampAfter', { statusTimestampAfter: '2024-01-01T25:00:00Z' }],
  ['statusTimestampAfter', { statusTimestampAfter: 'Mon, 01 Jan 2024 00:00:00 GMT' }],
  ['statusTimestampAfter', { status_timestamp_after: 1704067200 }],
  ['includeArtifacts', { includeArtifacts: 'yes' }],
  ['includeArtifacts', { include_artifacts: 1 }],
  ['status', { status: 'INVALID_STATUS' }],
  ['status', { status: 'COMPLETED' }],
  ['status', { status: 9 }],
  ['status', { status: 'TASK_STATE_PAUSED' }],
  ['status', { status: true }],
  ['historyLength', { historyLength: -1 }],
  ['historyLength', { historyLength: 1.5 }],
  ['historyLength', { history_length: '3' }],
  ['pageToken', { pageToken: 'invalid-token-xyz' }],
  ['pageToken', { pageToken: 5 }],
  ['contextId', { contextId: 5 }],
  ['contextId', { context_id: { a: 1 } }],
  ['pageSize', { pageSize: 0 }],
  ['pageSize', { pageSize: 101 }],
  ['pageSize', { pageSize: '10' }],
];

describe.each([0, 1])('ListTasks on endpoint %i', (which) => {
  const endpoint = () => ENDPOINTS()[which];

  it.each(BAD)('refuses a bad %s with -32602 naming it: %j', async (field, params) => {
    const body = await listTasks(endpoint(), params);
    expect(body.error?.code, `${endpoint().name}: ${JSON.stringify(body)}`).toBe(-32602);
    const violations = body.error.data.find((d: { '@type': string }) =>
      d['@type'].endsWith('google.rpc.BadRequest'),
    ).fieldViolations;
    expect(violations.map((v: { field: string }) => v.field)).toEqual([field]);
  });

  it('accepts well-formed parameters, in camelCase and snake_case', async () => {
    for (const params of [
      {},
      {
        statusTimestampAfter: '2024-01-01T00:00:00Z',
        includeArtifacts: true,
        status: 'TASK_STATE_COMPLETED',
        historyLength: 0,
      },
      {
        status_timestamp_after: '2024-01-01T00:00:00.123+01:00',
        include_artifacts: false,
        status: 3,
        history_length: 2,
      },
      { contextId: 'ctx-1', pageSize: 100, pageToken: '' },
      { status: 'TASK_STATE_UNSPECIFIED' },
      { status: 'TASK_STATE_INPUT_REQUIRED' },
      { status: 'TASK_STATE_AUTH_REQUIRED' },
      { status: 6 },
      { status: 8 },
    ]) {
      const body = await listTasks(endpoint(), params);
      expect(body.result, `${endpoint().name} ${JSON.stringify(params)}: ${JSON.stringify(body)}`).toMatchObject({
        tasks: expect.any(Array),
        nextPageToken: expect.any(String),
      });
    }
  });
});
