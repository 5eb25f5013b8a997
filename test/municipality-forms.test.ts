/**
 * `municipality` as one string or as a list, through the real clients of A2A (@a2a-js/sdk) and MCP
 * (@modelcontextprotocol/sdk) — docs/api.md, Input values. The lists of signals and cases take a list (SPEC), yet an
 * agent that sends one string there is understood, as REST reads a parameter given once; a list sent where one
 * string is taken is refused naming the form. Both were refused or read alike on A2A and MCP ("must be a list").
 */
import { Message, SendMessageRequest } from '@a2a-js/sdk';
import type { Client as A2aClient } from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a2aClientAt, fetchVia } from './helpers/a2a-client.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let address: string;
let a2a: A2aClient;
let mcp: McpClient;

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  const localFetch = fetchVia(address);
  a2a = await a2aClientAt(BASE_URL, localFetch);
  mcp = new McpClient({ name: 'municipality-forms', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${address}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${t.keys.premium}` } },
    }),
  );
});
afterAll(async () => {
  await mcp.close();
  await t.close();
});

/** The answer on a channel: `{ok, value}` or `{ok: false, message}` (the error's message). */
type Answer = { ok: true; value: unknown } | { ok: false; message: string };

async function onA2a(skill: string, input: Record<string, unknown>): Promise<Answer> {
  const request = SendMessageRequest.fromJSON({
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ data: { skill, input }, mediaType: 'application/json' }],
    },
  });
  try {
    const answer = await a2a.sendMessage(request, { serviceParameters: { Authorization: `Bearer ${t.keys.premium}` } });
    return { ok: true, value: (Message.toJSON(answer as Message) as any).parts[0].data };
  } catch (error: any) {
    expect(error.envelopeCode, String(error)).toBe(-32602);
    return { ok: false, message: String(error.message) };
  }
}

async function onMcp(name: string, input: Record<string, unknown>): Promise<Answer> {
  const result: any = await mcp.callTool({ name, arguments: input });
  if (result.isError) return { ok: false, message: String(result.structuredContent.detail) };
  return { ok: true, value: result.structuredContent };
}

const CHANNELS = [
  { channel: 'A2A', call: onA2a },
  { channel: 'MCP', call: onMcp },
];

describe.each(CHANNELS)('on $channel', ({ call }) => {
  it.each([
    ['signals_list', '/v1/signals'],
    ['signal_cases_list', '/v1/signal-cases'],
    ['procurement_contracts', '/v1/procurement/contracts'],
  ])('%s reads one municipality string as a list of one, answering what REST answers', async (name, path) => {
    const rest = await t.get(`${path}?municipality=porto&limit=5`);
    expect(rest.status, rest.body).toBe(200);
    const one = await call(name, { municipality: 'porto', limit: 5 });
    const list = await call(name, { municipality: ['porto'], limit: 5 });
    expect(one).toEqual({ ok: true, value: rest.json });
    expect(list).toEqual(one);
  });

  it('refuses a list where one municipality string is taken, naming the form', async () => {
    expect(await call('procurement_entities', { municipality: ['porto', 'lisboa'] })).toEqual({
      ok: false,
      message:
        'municipality: must be one string, not a list: The municipality (code, slug or name) whose entity to list.',
    });
  });

  it('keeps taking one municipality or a list on indicators_series', async () => {
    const one = await call('indicators_series', { key: 'population', municipality: 'porto', limit: 3 });
    const list = await call('indicators_series', { key: 'population', municipality: ['porto'], limit: 3 });
    expect(one.ok && list.ok).toBe(true);
    // The pages' cursors are bound to the input as given; the points are the same.
    expect((list as any).value.items).toEqual((one as any).value.items);
    expect((one as any).value.items).toHaveLength(3);
  });
});
