/**
 * One operation called on one channel, read back in the channel's own form: REST (GET on the path the OpenAPI
 * document derives), A2A `SendMessage` with a data part, MCP `tools/call`. A success is the JSON answer (a REST
 * array as `{items}`, as the agent channels wrap it); a refusal is its kind and the problem document it carries.
 */
import { exampleRequestUrl } from '../../src/channels/rest/openapi.js';
import type { TestApp } from './test-app.js';

export type Channel = 'rest' | 'a2a' | 'mcp';
export const CHANNELS: readonly Channel[] = ['rest', 'a2a', 'mcp'];

export type Called = { ok: true; json: any } | { ok: false; kind: string; problem: any };

let rpcId = 0;

export async function callOperation(
  t: TestApp,
  channel: Channel,
  name: string,
  input: Record<string, unknown>,
  key = t.keys.premium,
): Promise<Called> {
  const op = t.app.registry.all.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  if (channel === 'rest') {
    const res = await t.get(exampleRequestUrl(op, { title: '', input }, ''), { key });
    if (res.status === 200) return { ok: true, json: Array.isArray(res.json) ? { items: res.json } : res.json };
    return { ok: false, kind: String(res.json?.type).split('/').pop() ?? '?', problem: res.json };
  }
  if (channel === 'a2a') {
    const res = await t.app.http.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'a2a-version': '1.0' },
      payload: {
        jsonrpc: '2.0',
        id: ++rpcId,
        method: 'SendMessage',
        params: {
          message: {
            messageId: `call-${rpcId}`,
            role: 'ROLE_USER',
            parts: [{ data: { skill: name, input }, mediaType: 'application/json' }],
          },
        },
      },
    });
    const body = res.json();
    if (body.result) return { ok: true, json: body.result.message.parts[0].data };
    const problem = body.error?.data?.find((d: { '@type'?: string }) => String(d['@type']).endsWith('/problems'));
    return { ok: false, kind: String(problem?.type).split('/').pop() ?? '?', problem };
  }
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${key}`,
    },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: input } },
  });
  const body = res.json();
  if (body.result && !body.result.isError) return { ok: true, json: body.result.structuredContent };
  const problem = body.result?.isError ? body.result.structuredContent : body.error?.data;
  return { ok: false, kind: String(problem?.type).split('/').pop() ?? '?', problem };
}
