/**
 * What the A2A Technology Compatibility Kit found (`npm run tck`, docs/a2a.md "The TCK"), kept fixed with our own
 * tests, and the A2A 1.0.1 patch applied to both kinds of agent this service hosts — the data agent at `/a2a`
 * and a company agent — through the A2A SDK client where it can send the request, raw where it cannot (a wrong
 * version: the SDK always sends 1.0).
 *
 * - CORE-MULTI-004: a message naming a task the caller does not have is TaskNotFoundError (-32001), whatever its
 *   parts; the parts were read first, so a text part gave -32005.
 * - 1.0.1: every entry of `error.data` is an object with `@type` (and `error` holds only code, message, data);
 *   task states are spelled `TASK_STATE_*`, in errors too.
 */
import { readFileSync } from 'node:fs';
import { CancelTaskRequest, GetTaskRequest, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { a2aClientAt } from './helpers/a2a-client.js';
import {
  type AgentHostApp,
  a2aClient,
  bearer,
  localFetch,
  SLUGS,
  skillRequest,
  startAgentHost,
} from './helpers/agents.js';
import { unlimitedKey } from './helpers/mcp-tools.js';
import { BASE_URL } from './helpers/test-app.js';

let host: AgentHostApp;
let dataKey: string;
const clients: Record<string, Client> = {};
const slug = SLUGS[0];

beforeAll(async () => {
  host = await startAgentHost();
  dataKey = await unlimitedKey(host, 'tck_findings');
  const fetchImpl = localFetch(host);
  clients.data = await a2aClientAt(BASE_URL, fetchImpl);
  clients[slug] = await a2aClient(host, slug);
});
afterAll(() => host.close());

const AGENTS = [
  { name: 'the data agent', client: () => clients.data, secret: () => dataKey, path: '/a2a' },
  {
    name: `the company agent ${slug}`,
    client: () => clients[slug],
    secret: () => host.credentials[slug].a2a,
    path: `/agents/${slug}/a2a`,
  },
];

function messageTo(taskId: string, part: Record<string, unknown>) {
  return SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', taskId, parts: [part] },
  });
}

describe.each(AGENTS)('$name', ({ client, secret, path }) => {
  const taskNotFound =
    'answers a message to a task the caller does not have with TaskNotFoundError, whatever its parts (CORE-MULTI-004)';
  it(taskNotFound, async () => {
    for (const part of [
      { text: 'Message to invalid task' },
      { raw: 'dGNr', mediaType: 'application/x-unsupported' },
      { data: { skill: 'no_such_skill', input: {} }, mediaType: 'application/json' },
    ]) {
      host.clock.advance(1_000);
      const error: any = await client()
        .sendMessage(messageTo(`tck-nonexistent-${crypto.randomUUID()}`, part), bearer(secret()))
        .catch((e) => e);
      expect(error?.name, JSON.stringify(part)).toBe('TaskNotFoundError');
      expect(error.data[0]).toMatchObject({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
      });
    }
  });

  const errorEnvelope =
    'gives every error an envelope of code, message and data, each data entry an object with @type (A2A 1.0.1)';
  it(errorEnvelope, async () => {
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      host.clock.advance(1_000);
      const res = await fetch(`${host.address}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${secret()}`,
          'A2A-Version': '1.0',
          'Content-Type': 'application/json',
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const rpc = (method: string, params?: unknown) => ({
      jsonrpc: '2.0',
      id: 1,
      method,
      ...(params === undefined ? {} : { params }),
    });
    const message = (parts: unknown[]) => ({ message: { messageId: 'm-1', role: 'ROLE_USER', parts } });
    const answers = [
      await post(rpc('GetTask', { id: 'no-such-task' })), // -32001
      await post(rpc('CancelTask', { id: 'no-such-task' })), // -32001
      await post(rpc('SendStreamingMessage', message([{ text: 'x' }]))), // -32004
      await post(rpc('CreateTaskPushNotificationConfig', { taskId: 'x', url: 'https://example.com' })), // -32003
      await post(rpc('SendMessage', message([{ text: 'x' }]))), // -32005
      await post(rpc('SendMessage', message([{ data: { skill: 'no_such_skill', input: {} } }]))), // -32602
      await post(rpc('SendMessage', message([{ text: 'x' }])), { 'A2A-Version': '99.0' }), // -32009
      await post(rpc('SendMessage', message([{ text: 'x' }])), { 'Content-Type': 'text/plain' }), // -32005
      await post(rpc('GetTask')), // -32602
      await post(rpc('NoSuchMethod')), // -32601
      await post('{"jsonrpc":'), // -32700
    ];
    const codes = answers.map((a) => a.error?.code);
    expect(codes).toEqual([-32001, -32001, -32004, -32003, -32005, -32602, -32009, -32005, -32602, -32601, -32700]);
    for (const { error } of answers) {
      expect(
        Object.keys(error).every((k) => ['code', 'message', 'data'].includes(k)),
        JSON.stringify(error),
      ).toBe(true);
      expect(typeof error.message).toBe('string');
      if (error.data === undefined) continue;
      expect(Array.isArray(error.data), JSON.stringify(error)).toBe(true);
      for (const entry of error.data) {
        expect(entry !== null && typeof entry === 'object' && !Array.isArray(entry)).toBe(true);
        expect(typeof entry['@type'], JSON.stringify(error)).toBe('string');
      }
    }
  });
});

describe(`task state names on the company agent ${slug} (A2A 1.0.1: TASK_STATE_*)`, () => {
  const completedStateName =
    'names the state TASK_STATE_COMPLETED in the task and in the refusals of a message to it and of canceling it';
  it(completedStateName, async () => {
    host.clock.advance(61_000);
    const project = { project_type: 'residential_solar', municipality: 'porto', area_m2: 60 };
    const answer = await clients[slug].sendMessage(
      skillRequest('assess_project_fit', project),
      bearer(host.credentials[slug].a2a),
    );
    const task = Task.toJSON(answer as Task) as any;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const read = Task.toJSON(
      await clients[slug].getTask(GetTaskRequest.fromJSON({ id: task.id }), bearer(host.credentials[slug].a2a)),
    ) as any;
    expect(read.status.state).toBe('TASK_STATE_COMPLETED');

    const again: any = await clients[slug]
      .sendMessage(
        messageTo(task.id, { data: { skill: 'assess_project_fit', input: project } }),
        bearer(host.credentials[slug].a2a),
      )
      .catch((e) => e);
    expect(again?.name).toBe('UnsupportedOperationError');
    expect(again.message).toContain('TASK_STATE_COMPLETED');
    const cancel: any = await clients[slug]
      .cancelTask(CancelTaskRequest.fromJSON({ id: task.id }), bearer(host.credentials[slug].a2a))
      .catch((e) => e);
    expect(cancel?.name).toBe('TaskNotCancelableError');
    expect(cancel.message).toContain('TASK_STATE_COMPLETED');
  });
});

describe('the TCK baseline', () => {
  it('names the same tests for both agents as docs/a2a.md lists, each with a reason', () => {
    const baseline = parse(readFileSync(new URL('./a2a-tck-baseline.yml', import.meta.url), 'utf8')) as Record<
      string,
      { test: string; reason: string }[]
    >;
    expect(Object.keys(baseline)).toEqual(['data agent', 'company agent']);
    const docs = readFileSync(new URL('../docs/a2a.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## The TCK'));
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    for (const entries of Object.values(baseline)) {
      // The short form docs use: `Class::test` or `test[param]`, the last two segments of the pytest id.
      const short = entries.map((e) => e.test.replace(/^.*\.(?=[^.]*::)/, '').replace(/^[^:]*::(?=test_\w+\[)/, ''));
      expect(short.sort()).toEqual([...listed].sort());
      for (const entry of entries) expect(entry.reason.length, entry.test).toBeGreaterThan(20);
    }
  });
});
