/**
 * Parity (docs/architecture.md): every operation's examples give the same JSON on every channel (a REST array is
 * `{"items": [...]}` on the agent channels), and the same bad inputs and the same refusals give the same error
 * kind. REST is the reference; each other channel is one entry of CHANNELS, a function from (operation, input,
 * key) to the JSON answer or the error kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequestUrl } from '../src/channels/rest/openapi.js';
import { plainSchema } from '../src/core/json-schema.js';
import type { AnyOperation } from '../src/core/operation.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** What a channel answered: the JSON (arrays already wrapped as {items}), or the REST error kind. */
type Answer = { ok: true; json: unknown } | { ok: false; kind: string; detail?: unknown };

type Channel = (op: AnyOperation, input: Record<string, unknown>, key: string) => Promise<Answer>;

const kindOfReason = (reason: string) => reason.toLowerCase().replaceAll('_', '-');

async function rest(op: AnyOperation, input: Record<string, unknown>, key: string): Promise<Answer> {
  const res = await t.get(exampleRequestUrl(op, { title: '', input }, ''), { key });
  if (res.status === 200) return { ok: true, json: Array.isArray(res.json) ? { items: res.json } : res.json };
  return { ok: false, kind: String(res.json?.type).split('/').pop() ?? '?', detail: res.json };
}

let rpcId = 0;
async function a2a(op: AnyOperation, input: Record<string, unknown>, key: string): Promise<Answer> {
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
          messageId: `parity-${rpcId}`,
          role: 'ROLE_USER',
          parts: [{ data: { skill: op.name, input }, mediaType: 'application/json' }],
        },
      },
    },
  });
  const body = res.json();
  if (body.result) return { ok: true, json: body.result.message.parts[0].data };
  const reason = body.error?.data?.[0]?.reason;
  return {
    ok: false,
    kind: typeof reason === 'string' ? kindOfReason(reason) : `code ${body.error?.code}`,
    detail: body.error,
  };
}

/**
 * MCP `tools/call`: a success is `structuredContent`; a failed call is an `isError` result whose structuredContent
 * is the REST problem document; a refusal of the whole request is an HTTP error whose JSON-RPC `data` is it.
 */
async function mcp(op: AnyOperation, input: Record<string, unknown>, key: string): Promise<Answer> {
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${key}`,
    },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: op.name, arguments: input } },
  });
  const body = res.json();
  const problem = body.result?.isError ? body.result.structuredContent : body.error?.data;
  if (body.result && !body.result.isError) return { ok: true, json: body.result.structuredContent };
  const kind = typeof problem?.type === 'string' ? problem.type.split('/').pop() : `code ${body.error?.code}`;
  return { ok: false, kind, detail: problem ?? body.error };
}

/** The agent channels, compared with REST. */
const CHANNELS: Record<string, Channel> = { a2a, mcp };

/** Bad inputs derived from the operation's input schema: each parameter that has an obviously wrong value. */
function badInputs(op: AnyOperation): { what: string; input: Record<string, unknown> }[] {
  const properties = plainSchema(op.input).properties ?? {};
  const base = { ...(op.examples[0]?.input ?? {}) };
  const cases: { what: string; input: Record<string, unknown> }[] = [];
  if ('limit' in properties) cases.push({ what: 'limit=0', input: { ...base, limit: 0 } });
  if ('cursor' in properties) cases.push({ what: 'forged cursor', input: { ...base, cursor: 'Zm9yZ2Vk' } });
  for (const name of ['municipality', 'code']) {
    if (name in properties && properties[name].type !== 'array') {
      cases.push({ what: `unknown ${name}`, input: { ...base, [name]: '9999' } });
    }
  }
  if ('key' in properties) cases.push({ what: 'unknown indicator', input: { ...base, key: 'no_such_indicator' } });
  return cases;
}

const operations = () => t.app.registry.all;

describe.each(Object.keys(CHANNELS))('REST ↔ %s', (channelName) => {
  const channel = (...args: Parameters<Channel>) => CHANNELS[channelName](...args);

  it('answers every example of every operation with the same JSON', async () => {
    let compared = 0;
    for (const op of operations()) {
      t.clock.advance(61_000); // stay clear of the per-minute limit
      for (const example of op.examples) {
        const viaRest = await rest(op, example.input, t.keys.premium);
        const viaChannel = await channel(op, example.input, t.keys.premium);
        expect(viaRest.ok, `${op.name} (${example.title}) on REST: ${JSON.stringify(viaRest)}`).toBe(true);
        expect(viaChannel, `${op.name} (${example.title})`).toEqual(viaRest);
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(operations().length);
  });

  it('refuses the same bad inputs with the same error kind', async () => {
    const refused = new Set<string>();
    for (const op of operations()) {
      t.clock.advance(61_000);
      for (const { what, input } of badInputs(op)) {
        const viaRest = await rest(op, input, t.keys.premium);
        const viaChannel = await channel(op, input, t.keys.premium);
        if (viaRest.ok) {
          // A filter value that matches nothing may be a valid, empty answer: then the same answer.
          expect(viaChannel, `${op.name} ${what}`).toEqual(viaRest);
          continue;
        }
        expect(viaChannel.ok, `${op.name} ${what}`).toBe(false);
        expect((viaChannel as { kind: string }).kind, `${op.name} ${what}`).toBe(viaRest.kind);
        refused.add(`${op.name} ${what}`);
      }
    }
    // At least the set the issue names: unknown municipality, limit=0, forged cursor, unknown indicator.
    for (const named of [
      'indicators_series unknown municipality',
      'municipalities_get unknown code',
      'indicators_list limit=0',
      'indicators_list forged cursor',
      'indicators_get unknown indicator',
    ]) {
      expect(refused, named).toContain(named);
    }
  });

  it('names what to call next in its own form: a REST path, a tool, a skill', async () => {
    const form = { a2a: 'The skill', mcp: 'The tool' }[channelName];
    const next = { indicators_get: 'indicators_list', signals_get: 'signals_list' };
    for (const [name, input] of [
      ['indicators_get', { key: 'no_such_indicator' }],
      ['signals_get', { signal_id: 999_999 }],
    ] as const) {
      const op = t.app.registry.get(name) as AnyOperation;
      const path = (t.app.registry.get(next[name]) as AnyOperation).rest.path;
      const viaRest = (await rest(op, input, t.keys.premium)) as { detail: any };
      const viaChannel = (await channel(op, input, t.keys.premium)) as { detail: any };
      expect(viaRest).toMatchObject({ ok: false, kind: 'not-found' });
      expect(viaRest.detail.detail).toMatch(new RegExp(`\\. GET ${path} lists them\\.$`));
      const said = channelName === 'a2a' ? viaChannel.detail.message : viaChannel.detail.detail;
      expect(said).toMatch(new RegExp(`\\. ${form} ${next[name]} lists them\\.$`));
      expect(said).not.toContain('/v1/');
    }
  });

  it('names the next call in its own form in every refusal that names one: filters, alert ids, datasets', async () => {
    const form = { a2a: 'The skill', mcp: 'The tool' }[channelName];
    const path = (name: string) => (t.app.registry.get(name) as AnyOperation).rest.path;
    const cases = [
      ['signals_list', { municipality: ['nowhere'] }, ['municipalities_search', 'procurement_lookup_municipalities']],
      ['procurement_contracts', { municipality: ['nowhere'] }, ['municipalities_search']],
      ['alert_matches', { municipality: [309] }, ['municipalities_search']],
      ['bulk_datasets', { dataset: 'nope' }, ['bulk_datasets']],
    ] as const;
    for (const [name, input, next] of cases) {
      const op = t.app.registry.get(name) as AnyOperation;
      const viaRest = (await rest(op, input, t.keys.premium)) as { ok: boolean; detail: any };
      const viaChannel = (await channel(op, input, t.keys.premium)) as { ok: boolean; detail: any };
      expect(viaRest.ok, name).toBe(false);
      const restSaid: string = viaRest.detail.detail;
      const said: string = channelName === 'a2a' ? viaChannel.detail.message : viaChannel.detail.detail;
      for (const other of next) {
        expect(restSaid, name).toContain(`GET ${path(other)} `);
        expect(restSaid, name).not.toMatch(new RegExp(`\\b${other}\\b`));
        expect(said, name).toContain(`${form} ${other} `);
      }
      expect(said, name).not.toContain('/v1/');
    }
  });

  it('names the parameter a misspelt one was likely meant to be, or the parameters there are', async () => {
    const op = t.app.registry.get('signals_list') as AnyOperation;
    const cases = [
      ['types', 'is not a parameter of this operation; did you mean `type`?'],
      ['municipio', 'is not a parameter of this operation; did you mean `municipality`?'],
      ['zzz', expect.stringMatching(/^is not a parameter of this operation; it takes: .*\btype\b.*\bfamily\b/)],
    ] as const;
    for (const [field, message] of cases) {
      const viaRest = (await rest(op, { [field]: 'x' }, t.keys.premium)) as { detail: any };
      const viaChannel = (await channel(op, { [field]: 'x' }, t.keys.premium)) as { detail: any };
      expect(viaRest.detail.errors, field).toEqual([{ field, message }]);
      const problem = channelName === 'a2a' ? viaChannel.detail.data[1] : viaChannel.detail;
      expect(problem.errors, field).toEqual(viaRest.detail.errors);
    }
  });

  it('refuses a domain outside the plan and a missing scope with the same kind', async () => {
    for (const op of operations().filter((o) => o.domain !== null)) {
      t.clock.advance(61_000);
      const input = op.examples[0]?.input ?? {};
      const cases: [string, string][] = [
        [op.domain === 'signals' ? t.keys.indicatorsOnly : t.keys.noIndicatorsDomain, 'domain-not-in-plan'],
        [
          op.domain === 'signals' ? t.keys.indicatorsOnly : t.keys.signalsOnlyScope,
          op.domain === 'signals' ? 'domain-not-in-plan' : 'insufficient-scope',
        ],
      ];
      for (const [key, kind] of cases) {
        const viaRest = await rest(op, input, key);
        const viaChannel = await channel(op, input, key);
        expect(viaRest, `${op.name} on REST`).toMatchObject({ ok: false, kind });
        expect(viaChannel, `${op.name}`).toMatchObject({ ok: false, kind });
      }
    }
  });
});
