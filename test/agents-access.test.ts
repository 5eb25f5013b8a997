/**
 * Who reaches a company agent: every 404 of docs/agents.md (wrong slug, deployment not live, credential of another
 * deployment, credential of the other channel, deployment without the channel), 401 (missing, wrong, revoked),
 * a browser page (403), and the limits: 60 requests a minute per credential, 200 per deployment shared by its
 * channels, 429 with Retry-After — separate from the data service's plans.
 */
import { GetTaskRequest } from '@a2a-js/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCredential, createDeployment, revokeCredential, setDeploymentStatus } from '../src/agents/admin.js';
import { SOLAR_INSTALLER } from '../src/agents/demo/solar-installer.js';
import { type AgentHostApp, a2aClient, bearer, startAgentHost } from './helpers/agents.js';

let host: AgentHostApp;
beforeAll(async () => {
  host = await startAgentHost();
  const now = new Date(host.clock.now);
  await createDeployment(host.store, { ...SOLAR_INSTALLER, slug: 'draft-co' }, now);
  await setDeploymentStatus(
    host.store,
    (await createDeployment(host.store, { ...SOLAR_INSTALLER, slug: 'a2a-only', channels: ['a2a'] }, now)).slug,
    'live',
    now,
  );
});
afterAll(() => host.close());
beforeEach(() => host.clock.advance(61_000));

const SOL = 'sol-do-norte';
const ATLAS = 'atlas-engenharia';

function a2a(slug: string, secret: string | null, headers: Record<string, string> = {}) {
  return host.app.http.inject({
    method: 'POST',
    url: `/agents/${slug}/a2a`,
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      ...(secret === null ? {} : { authorization: `Bearer ${secret}` }),
      ...headers,
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
  });
}

function mcp(slug: string, secret: string | null) {
  return host.app.http.inject({
    method: 'POST',
    url: `/agents/${slug}/mcp`,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(secret === null ? {} : { authorization: `Bearer ${secret}` }),
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}

function card(slug: string) {
  return host.app.http.inject({
    method: 'GET',
    url: `/agents/${slug}/.well-known/agent-card.json`,
    headers: { 'a2a-version': '1.0' },
  });
}

/** A 404 whose JSON-RPC body carries the not-found problem. */
function expectNotFound(res: Awaited<ReturnType<typeof a2a>>) {
  expect(res.statusCode, res.body).toBe(404);
  const error = res.json().error;
  const problem = Array.isArray(error.data) ? error.data[1] : error.data;
  expect(problem).toMatchObject({ status: 404, type: expect.stringMatching(/\/problems\/not-found$/) });
}

describe('404', () => {
  it('a wrong slug: card, A2A and MCP', async () => {
    expect((await card('no-such-agent')).statusCode).toBe(404);
    expectNotFound(await a2a('no-such-agent', host.credentials[SOL].a2a));
    expectNotFound(await mcp('no-such-agent', host.credentials[SOL].mcp));
  });

  it('a deployment not live: in draft, and paused (then live again)', async () => {
    const draft = (await createCredential(host.store, { slug: 'draft-co', channel: 'a2a' }, new Date(host.clock.now)))
      .secret;
    expect((await card('draft-co')).statusCode).toBe(404);
    expectNotFound(await a2a('draft-co', draft));

    expect((await a2a(SOL, host.credentials[SOL].a2a)).statusCode).toBe(200);
    await setDeploymentStatus(host.store, SOL, 'paused', new Date(host.clock.now));
    host.clock.advance(2_000); // hosts re-read a deployment at most once a second
    expect((await card(SOL)).statusCode).toBe(404);
    expectNotFound(await a2a(SOL, host.credentials[SOL].a2a));
    expectNotFound(await mcp(SOL, host.credentials[SOL].mcp));
    await setDeploymentStatus(host.store, SOL, 'live', new Date(host.clock.now));
    host.clock.advance(2_000);
    expect((await a2a(SOL, host.credentials[SOL].a2a)).statusCode).toBe(200);
    expect((await card(SOL)).statusCode).toBe(200);
  });

  it('a credential of another deployment', async () => {
    expectNotFound(await a2a(SOL, host.credentials[ATLAS].a2a));
    expectNotFound(await mcp(ATLAS, host.credentials[SOL].mcp));
  });

  it('a credential of the other channel, and a deployment without the MCP channel', async () => {
    expectNotFound(await a2a(SOL, host.credentials[SOL].mcp));
    expectNotFound(await mcp(SOL, host.credentials[SOL].a2a));
    const a2aOnly = (await createCredential(host.store, { slug: 'a2a-only', channel: 'a2a' }, new Date(host.clock.now)))
      .secret;
    expect((await a2a('a2a-only', a2aOnly)).statusCode).toBe(200);
    expectNotFound(await mcp('a2a-only', a2aOnly));
    await expect(
      createCredential(host.store, { slug: 'a2a-only', channel: 'mcp' }, new Date(host.clock.now)),
    ).rejects.toThrow(/does not enable the mcp channel/);
  });

  it('through the SDK client: the wrong deployment’s credential fails the call', async () => {
    const client = await a2aClient(host, SOL);
    const error: any = await client
      .getTask(GetTaskRequest.fromJSON({ id: 'x' }), bearer(host.credentials[ATLAS].a2a))
      .catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error.message)).toMatch(/No live agent/);
  });
});

describe('401 and 403', () => {
  it('no credential, a wrong one, a revoked one: 401 with WWW-Authenticate on both channels', async () => {
    for (const res of [await a2a(SOL, null), await a2a(SOL, 'sk_live_wrong'), await mcp(SOL, null)]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    const created = await createCredential(host.store, { slug: SOL, channel: 'mcp' }, new Date(host.clock.now));
    expect((await mcp(SOL, created.secret)).statusCode).toBe(200);
    await revokeCredential(host.store, created.credential.id, new Date(host.clock.now));
    expect((await mcp(SOL, created.secret)).statusCode).toBe(401);
  });

  it('a data-service API key is not an agent credential', async () => {
    const account = await host.store.createAccount({
      name: 'x',
      plan_code: 'premium',
      beta: false,
      now: new Date().toISOString(),
    });
    const { createKey } = await import('../src/admin/keys.js');
    const key = (await createKey(host.store, { accountId: account.id }, new Date())).secret;
    expect((await a2a(SOL, key)).statusCode).toBe(401);
  });

  it('a browser page (Origin): 403', async () => {
    expect((await a2a(SOL, host.credentials[SOL].a2a, { origin: 'https://example.org' })).statusCode).toBe(403);
  });
});

describe('limits', () => {
  it('60 requests a minute per credential, then 429 with Retry-After; another credential still passes', async () => {
    const secret = (await createCredential(host.store, { slug: ATLAS, channel: 'a2a' }, new Date(host.clock.now)))
      .secret;
    for (let i = 0; i < 60; i++) expect((await a2a(ATLAS, secret)).statusCode).toBe(200);
    const refused = await a2a(ATLAS, secret);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json().error.data[0].reason).toBe('RATE_LIMITED');
    expect((await a2a(ATLAS, host.credentials[ATLAS].a2a)).statusCode).toBe(200);
    host.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await a2a(ATLAS, secret)).statusCode).toBe(200);
  });

  it('200 a minute per deployment, shared by its A2A and MCP channels', async () => {
    const now = new Date(host.clock.now);
    const make = async (channel: 'a2a' | 'mcp') =>
      (await createCredential(host.store, { slug: SOL, channel }, now)).secret;
    const a2aCredentials = [await make('a2a'), await make('a2a')];
    const mcpCredentials = [await make('mcp'), await make('mcp')];
    for (let i = 0; i < 50; i++) {
      for (const secret of a2aCredentials) expect((await a2a(SOL, secret)).statusCode).toBe(200);
      for (const secret of mcpCredentials) expect((await mcp(SOL, secret)).statusCode).toBe(200);
    }
    const fresh = await make('mcp');
    const refused = await mcp(SOL, fresh);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.data.detail).toMatch(/200 requests per minute for this agent/);
    expect((await a2a(SOL, await make('a2a'))).statusCode).toBe(429);
    // The other deployment is not affected.
    expect((await a2a(ATLAS, host.credentials[ATLAS].a2a)).statusCode).toBe(200);
  });

  it('answers carry both limits in RateLimit headers; the data service’s own limits are untouched', async () => {
    const res = await a2a(ATLAS, host.credentials[ATLAS].licensedA2a);
    expect(res.headers['ratelimit-policy']).toBe('"credential";q=60;w=60, "deployment";q=200;w=60');
    expect(res.headers.ratelimit).toMatch(/^"credential";r=\d+;t=\d+, "deployment";r=\d+;t=\d+$/);
  });
});
