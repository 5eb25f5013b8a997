/**
 * The A2A channel through a real A2A 1.0 client (@a2a-js/sdk) against the service listening on a port: card
 * resolution, SendMessage for every example of every skill, GetExtendedAgentCard, GetTask, ListTasks. Plus the
 * card's own HTTP contract (1.0 and 0.3 shapes, caching, ETag, Vary) with raw requests.
 */
import {
  AgentCard,
  GetTaskRequest,
  ListTasksRequest,
  Message,
  SendMessageRequest,
  type SendMessageResult,
} from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_SCHEMAS_EXTENSION_URI } from '../src/channels/a2a/card.js';
import { restRoute } from '../src/channels/a2a/send-message.js';
import { exampleRequestUrl } from '../src/channels/rest/openapi.js';
import { csvNote } from '../src/core/csv-note.js';
import { plainSchema } from '../src/core/json-schema.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let address: string;

/** The card names `BASE_URL`; the test server listens elsewhere: send every request of the SDK there. */
const localFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return fetch(url.replace(BASE_URL, address), init);
};

function factory(): ClientFactory {
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: localFetch })],
      preferredTransports: ['JSONRPC'],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: localFetch }),
    }),
  );
}

const auth = (key: string) => ({ serviceParameters: { Authorization: `Bearer ${key}` } });

function sendRequest(skill: string, input: Record<string, unknown>) {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ data: { skill, input }, mediaType: 'application/json' }],
    },
  });
}

function asWireMessage(result: SendMessageResult): any {
  expect('messageId' in result, 'a message, not a task').toBe(true);
  return Message.toJSON(result as Message);
}

function operation(name: string) {
  const op = t.app.registry.get(name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
}

let client: Client;
beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  client = await factory().createFromUrl(BASE_URL);
});
afterAll(() => t.close());

/** A client that fetches the card without `A2A-Version`, as the TCK does; `legacyCompat` reads 0.3 cards too. */
async function clientFromHeaderlessCard(legacyCompat: boolean): Promise<Client> {
  const withoutVersion: typeof fetch = (input, init) => localFetch(input, { ...init, headers: {} });
  const compat = { legacyCompat: { enabled: legacyCompat } };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: localFetch, ...compat })],
      preferredTransports: ['JSONRPC'],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: withoutVersion, ...compat }),
    }),
  ).createFromUrl(BASE_URL);
}

describe('agent card through the SDK', () => {
  it.each([
    false,
    true,
  ])('a 1.0 client reading the card served without A2A-Version finds the 1.0 interface (compat %s)', async (compat) => {
    const reader = await clientFromHeaderlessCard(compat);
    const answer = asWireMessage(await reader.sendMessage(sendRequest('me', {}), auth(t.keys.premium)));
    expect(answer).toMatchObject({ role: 'ROLE_AGENT', metadata: { skill: 'me', rest: '/v1/me' } });
    // The card it read was the 0.3-shaped one, and /a2a still refuses a call without the version.
    const raw = await fetch(`${address}/.well-known/agent-card.json`);
    expect(((await raw.json()) as { preferredTransport?: string }).preferredTransport).toBe('JSONRPC');
    const unversioned = await t.app.http.inject({
      method: 'POST',
      url: '/a2a',
      headers: { authorization: `Bearer ${t.keys.premium}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }),
    });
    expect(JSON.parse(unversioned.body).error.code).toBe(-32009);
  });

  it('resolves the 1.0 card with one skill per operation', async () => {
    const card = await new DefaultAgentCardResolver({ fetchImpl: localFetch }).resolve(BASE_URL);
    const wire = AgentCard.toJSON(card) as any;
    expect(wire.supportedInterfaces).toEqual([
      { url: `${BASE_URL}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ]);
    expect(wire.capabilities).toMatchObject({ extendedAgentCard: true });
    expect(wire.capabilities.streaming ?? false).toBe(false);
    expect(wire.skills.map((s: any) => s.id)).toEqual(t.app.registry.all.map((op) => op.name));
    expect(Object.keys(wire.securitySchemes).sort()).toEqual(['apiKey', 'bearer', 'oauth2']);
  });
});

describe('SendMessage through the SDK', () => {
  it('answers every example of every skill with one data part: the REST JSON, metadata {skill, rest}', async () => {
    let calls = 0;
    for (const op of t.app.registry.all) {
      for (const example of op.examples) {
        const message = asWireMessage(
          await client.sendMessage(sendRequest(op.name, example.input), auth(t.keys.premium)),
        );
        const rest = exampleRequestUrl(op, example, '');
        expect(message.role).toBe('ROLE_AGENT');
        expect(message.messageId).toMatch(/^[0-9a-f-]{36}$/);
        expect(message.parts).toHaveLength(1);
        expect(message.parts[0].mediaType).toBe('application/json');
        expect(message.metadata).toEqual({ skill: op.name, rest });
        const restAnswer = await t.get(rest);
        expect(restAnswer.status, `${op.name} ${rest}`).toBe(200);
        const expected = Array.isArray(restAnswer.json) ? { items: restAnswer.json } : restAnswer.json;
        expect(message.parts[0].data, `${op.name}: ${example.title}`).toEqual(expected);
        calls++;
      }
    }
    expect(calls).toBeGreaterThanOrEqual(t.app.registry.all.length);
  });

  it('gives each answer a new messageId and echoes the contextId', async () => {
    const request = SendMessageRequest.fromJSON({
      message: {
        messageId: 'm-1',
        contextId: 'ctx-1',
        role: 'ROLE_USER',
        parts: [{ data: { skill: 'me', input: {} }, mediaType: 'application/json' }],
      },
    });
    const first = asWireMessage(await client.sendMessage(request, auth(t.keys.premium)));
    const second = asWireMessage(await client.sendMessage(request, auth(t.keys.premium)));
    expect(first.messageId).not.toBe(second.messageId);
    expect(first.contextId).toBe('ctx-1');
  });

  it('surfaces refusals as typed SDK errors carrying the ErrorInfo and the problem document', async () => {
    const error: any = await client
      .sendMessage(sendRequest('indicators_list', {}), auth(t.keys.noIndicatorsDomain))
      .then(
        () => undefined,
        (e) => e,
      );
    expect(error?.name).toBe('UnsupportedOperationError');
    expect(error.envelopeCode ?? error.code).toBe(-32004);
    expect(error.data[0]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'DOMAIN_NOT_IN_PLAN',
    });
    expect(error.data[1]).toMatchObject({ type: `${BASE_URL}/problems/domain-not-in-plan`, status: 403 });
  });
});

describe('metadata.rest', () => {
  it('is the REST route with its query, as the docs write it, for any value', () => {
    const inputs: Record<string, unknown>[] = [
      { key: 'population', municipality: '1106' },
      { key: 'a b/c', municipality: "São João d'Arco (x)!~*", from: '2020-01-01', limit: 10 },
      { key: 'k', municipality: ['1106', 'porto & gaia'], cursor: 'abc+/=' },
    ];
    const op = operation('indicators_series');
    for (const input of inputs) expect(restRoute(op, input)).toBe(exampleRequestUrl(op, { title: '', input }, ''));
    expect(restRoute(op, inputs[0])).toBe('/v1/indicators/population/series?municipality=1106');
    expect(restRoute(operation('me'), {})).toBe('/v1/me');
  });
});

describe('GetExtendedAgentCard through the SDK', () => {
  it('gives the card cut to the skills the key can call, free of quota', async () => {
    const usage = async (key: string) => (await t.get('/v1/me', { key })).json.usage.requests_this_month;
    const before = await usage(t.keys.indicatorsOnly);

    const full = AgentCard.toJSON(await client.getAgentCard(auth(t.keys.premium))) as any;
    expect(full.skills.map((s: any) => s.id)).toEqual(t.app.registry.all.map((op) => op.name));

    const indicatorsOnly = AgentCard.toJSON(await client.getAgentCard(auth(t.keys.indicatorsOnly))) as any;
    const expected = t.app.registry.all
      .filter((op) => op.domain === null || op.domain === 'indicators')
      .map((op) => op.name);
    expect(indicatorsOnly.skills.map((s: any) => s.id)).toEqual(expected);
    expect(Object.keys(indicatorsOnly.capabilities.extensions[0].params.inputSchemas)).toEqual(expected);

    // A key without the indicators scope sees only the skills outside every domain (and its own domains' ones).
    const signalsOnly = AgentCard.toJSON(await client.getAgentCard(auth(t.keys.signalsOnlyScope))) as any;
    expect(signalsOnly.skills.map((s: any) => s.id)).toEqual(
      t.app.registry.all.filter((op) => op.domain === null || op.domain === 'signals').map((op) => op.name),
    );
    expect(await usage(t.keys.indicatorsOnly)).toBe(before);
  });
});

describe('tasks through the SDK', () => {
  it('GetTask: task not found (-32001)', async () => {
    const error: any = await client.getTask(GetTaskRequest.fromJSON({ id: 'no-such-task' }), auth(t.keys.premium)).then(
      () => undefined,
      (e) => e,
    );
    expect(error?.name).toBe('TaskNotFoundError');
    expect(error.data[0].reason).toBe('TASK_NOT_FOUND');
  });

  it('ListTasks: an empty list', async () => {
    const list = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 10 }), auth(t.keys.premium));
    expect(list.tasks).toEqual([]);
    expect(list.nextPageToken).toBe('');
    expect(list.totalSize).toBe(0);
  });
});

describe('the card over HTTP', () => {
  const card = (headers: Record<string, string> = {}, url = '/.well-known/agent-card.json') =>
    t.app.http.inject({ method: 'GET', url, headers });

  it('serves the 1.0 card with A2A-Version 1.0 (header, query parameter, or a patch), else the 0.3 card', async () => {
    for (const [headers, url] of [
      [{ 'a2a-version': '1.0' }, undefined],
      [{ 'a2a-version': '1.0.0' }, undefined],
      [{}, '/.well-known/agent-card.json?A2A-Version=1.0'],
    ] as [Record<string, string>, string | undefined][]) {
      const res = await card(headers, url);
      expect(res.statusCode).toBe(200);
      const json = res.json();
      expect(json.supportedInterfaces[0]).toEqual({
        url: `${BASE_URL}/a2a`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      });
      expect(json.url).toBeUndefined();
    }
    for (const headers of [{}, { 'a2a-version': '0.3' }, { 'a2a-version': '' }] as Record<string, string>[]) {
      const json = (await card(headers)).json();
      // 0.3-shaped, claiming only what the endpoint serves: protocol 1.0 (a 0.3 call gets -32009), and the 1.0
      // interface a 1.0 client looks for.
      expect(json).toMatchObject({
        protocolVersion: '1.0',
        url: `${BASE_URL}/a2a`,
        preferredTransport: 'JSONRPC',
        supportsAuthenticatedExtendedCard: true,
      });
      const v1 = (await card({ 'a2a-version': '1.0' })).json();
      expect(json.supportedInterfaces).toEqual(v1.supportedInterfaces);
      expect(json.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(json.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    }
  });

  it('is public, with Cache-Control, ETag, Vary: A2A-Version, and 304 on If-None-Match', async () => {
    const v1 = await card({ 'a2a-version': '1.0' });
    const v03 = await card();
    for (const res of [v1, v03]) {
      expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
      expect(res.headers.etag).toMatch(/^W\/"[^"]+"$/);
      expect(String(res.headers.vary)).toMatch(/A2A-Version/);
    }
    expect(v1.headers.etag).not.toBe(v03.headers.etag);
    const again = await card({ 'a2a-version': '1.0', 'if-none-match': String(v1.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(v1.headers.etag);
    expect(again.body).toBe('');
    expect((await card({ 'a2a-version': '1.0', 'if-none-match': String(v03.headers.etag) })).statusCode).toBe(200);
    // Weak comparison (RFC 9110): the tag without its W/ prefix matches too.
    expect((await card({ 'a2a-version': '1.0', 'if-none-match': String(v1.headers.etag).slice(2) })).statusCode).toBe(
      304,
    );
  });

  it('lists every skill with id, name, description, tags and examples; input schemas in extension 0', async () => {
    const json = (await card({ 'a2a-version': '1.0' })).json();
    expect(json.capabilities).toMatchObject({ streaming: false, pushNotifications: false, extendedAgentCard: true });
    const extension = json.capabilities.extensions[0];
    expect(extension.uri).toBe(INPUT_SCHEMAS_EXTENSION_URI);
    expect(json.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) },
      apiKey: { apiKeySecurityScheme: expect.objectContaining({ location: 'header', name: 'X-API-Key' }) },
      oauth2: {
        oauth2SecurityScheme: expect.objectContaining({
          oauth2MetadataUrl: `${BASE_URL}/.well-known/oauth-authorization-server`,
        }),
      },
    });
    expect(json.securityRequirements).toEqual([
      { schemes: { bearer: { list: [] } } },
      { schemes: { apiKey: { list: [] } } },
      { schemes: { oauth2: { list: [] } } },
    ]);
    expect(json.defaultInputModes).toEqual(['application/json']);
    for (const op of t.app.registry.all) {
      const skill = json.skills.find((s: any) => s.id === op.name);
      expect(skill).toMatchObject({
        id: op.name,
        name: op.title,
        tags: [op.domain ?? 'account'],
      });
      // The operation's description, and for a skill that answers CSV the A2A note of how to ask for it.
      const csv = csvNote(op, '');
      expect(skill.description.startsWith(op.description), op.name).toBe(true);
      expect(skill.description.includes('Also as CSV'), op.name).toBe(csv !== undefined);
      expect(skill.examples.map((e: string) => JSON.parse(e))).toEqual(
        op.examples.map((e) => ({ skill: op.name, input: e.input })),
      );
      expect(extension.params.inputSchemas[op.name]).toEqual(plainSchema(op.input));
    }
    // The 0.3 card carries the same skills and schemas.
    const legacy = (await card()).json();
    expect(legacy.skills).toEqual(json.skills);
    expect(legacy.capabilities.extensions).toEqual(json.capabilities.extensions);
  });

  it('needs no key, a wrong key does not hide it, and a browser may read it', async () => {
    expect((await card({ authorization: 'Bearer sk_live_wrong', 'a2a-version': '1.0' })).statusCode).toBe(200);
    expect((await card({ origin: 'https://example.org' })).statusCode).toBe(200);
  });
});
