/**
 * Text holding a NUL (U+0000) never reaches a database (docs/architecture.md, "Text the stores hold"): the SQL
 * port of both stores refuses it, and every surface that passes one on answers in its own form — a company
 * agent's unknown slug or task (404, -32001), an invalid parameter (-32602), the console's error page, OAuth's
 * invalid_client and invalid_grant — never a 5xx. Run on SQLite and on PostgreSQL (MUNIDATA_TEST_BACKEND).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../src/agents/admin.js';
import { ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { UnstorableTextError } from '../src/lib/storable-text.js';
import { openTestPort } from './helpers/backend.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { connectedClient, tokenRequest } from './helpers/oauth-flow.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let secret: string;
const SLUG = 'sol-do-norte';
beforeAll(async () => {
  t = await startTestApp();
  await ensureDemoAgents(t.store, new Date(t.clock.now));
  secret = (await createCredential(t.store, { slug: SLUG, channel: 'a2a', licensed: false }, new Date(t.clock.now)))
    .secret;
});
afterAll(() => t.close());

describe('the SQL port', () => {
  it('refuses a bound string or list item holding a NUL, before the database, with a typed error', async () => {
    const { port, close } = await openTestPort();
    try {
      await port.script('CREATE TABLE names (name TEXT)');
      await expect(port.query('SELECT $1 AS v', ['a\u0000b'])).rejects.toBeInstanceOf(UnstorableTextError);
      await expect(port.run('INSERT INTO names (name) VALUES ($1)', ['\u0000'])).rejects.toBeInstanceOf(
        UnstorableTextError,
      );
      const inList = port.dialect.inList('name', '$1');
      await expect(port.query(`SELECT name FROM names WHERE ${inList}`, [['a', 'b\u0000']])).rejects.toBeInstanceOf(
        UnstorableTextError,
      );
      // A batch of rows is bound as JSON, where a value's NUL is the escape \u0000.
      const rows = port.dialect.rows('$1', [['name', 'text']]);
      const insertRows = `INSERT INTO names (name) SELECT r.name FROM ${rows} AS r WHERE true`;
      await expect(port.run(insertRows, [JSON.stringify([['a'], ['b\u0000c']])])).rejects.toBeInstanceOf(
        UnstorableTextError,
      );
      expect(await port.query('SELECT count(*) AS n FROM names')).toEqual([{ n: 0 }]);
      // Text that spells the escape out is text, in a batch as anywhere.
      await port.run(insertRows, [JSON.stringify([['\\u0000'], ['[\\u0000]']])]);
      await port.run('INSERT INTO names (name) VALUES ($1)', ['[\\u0000]']);
      expect((await port.query('SELECT name FROM names')).map((r) => r.name).sort()).toEqual([
        '[\\u0000]',
        '[\\u0000]',
        '\\u0000',
      ]);
      await port.run('DELETE FROM names');
      // the symbol for NUL is text
      expect(await port.query('SELECT $1 AS v', ['a\u2400b'])).toEqual([{ v: 'a\u2400b' }]);
    } finally {
      await close();
    }
  });
});

describe('company agents', () => {
  const rpc = async (method: string, params: unknown, url = `/agents/${SLUG}/a2a`) => {
    t.clock.advance(2_000);
    const res = await t.app.http.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    return { status: res.statusCode, json: JSON.parse(res.body) };
  };

  it('a slug holding a NUL is an agent that does not exist: 404 on the card, A2A and MCP', async () => {
    const card = await t.app.http.inject({ method: 'GET', url: '/agents/a%00b/.well-known/agent-card.json' });
    expect(card.statusCode, card.body).toBe(404);
    expect(card.json()).toMatchObject({ status: 404, type: expect.stringContaining('/problems/not-found') });
    const a2a = await rpc('GetTask', { id: 'x' }, '/agents/a%00b/a2a');
    expect(a2a.status).toBe(404);
    expect(a2a.json.error.message).toMatch(/No live agent/);
    const mcp = await t.app.http.inject({
      method: 'POST',
      url: '/agents/%00/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(mcp.statusCode, mcp.body).toBe(404);
  });

  it('a task id holding a NUL is a task that does not exist: -32001', async () => {
    for (const method of ['GetTask', 'CancelTask']) {
      const { status, json } = await rpc(method, { id: 'a\u0000b' });
      expect(status).toBe(200);
      expect(json.error?.code, JSON.stringify(json)).toBe(-32001);
    }
  });

  it('a context id or a forged page token holding a NUL is an invalid parameter: -32602', async () => {
    const forged = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z\u0000', 'x'])).toString('base64url');
    for (const params of [{ contextId: 'c\u0000' }, { pageToken: forged }]) {
      const { json } = await rpc('ListTasks', params);
      expect(json.error?.code, JSON.stringify(json)).toBe(-32602);
    }
    const message = {
      messageId: 'm-nul',
      role: 'ROLE_USER',
      contextId: 'c\u0000',
      parts: [
        { data: { skill: 'assess_project_fit', input: { project_type: 'residential_solar', municipality: 'porto' } } },
      ],
    };
    const { json } = await rpc('SendMessage', { message, configuration: { returnImmediately: true } });
    expect(json.error?.code, JSON.stringify(json)).toBe(-32602);
  });
});

describe('the console', () => {
  it('signing in with an email holding a NUL is the console error page, 400', async () => {
    const c = new ConsoleClient(t);
    const res = await c.signIn('a\u0000b@premium.example', 'whatever it is');
    expect(res.status, res.body).toBe(400);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.body).toContain('role="alert"');
  });

  it('an agent page named with a NUL is the console error page, not a fault', async () => {
    const owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'nul@premium.example', role: 'owner' });
    const c = new ConsoleClient(t);
    expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
    const res = await c.get('/console/agents/%00');
    expect(res.status, res.body).toBeGreaterThanOrEqual(400);
    expect(res.status, res.body).toBeLessThan(500);
    expect(res.body).toContain('role="alert"');
  });
});

describe('OAuth', () => {
  it('a client id holding a NUL is an unknown client: invalid_client, not server_error', async () => {
    const res = await t.app.http.inject({ method: 'GET', url: '/oauth/authorize?client_id=a%00b&response_type=code' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('invalid_client');
  });

  it('a refresh token holding a NUL is an unknown grant: invalid_grant', async () => {
    const { client } = await connectedClient(t, t.accounts.premium);
    const res = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: 'a\u0000b',
      client_id: client.client_id,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });
});

describe('every route', () => {
  /** The app's routes as Fastify lists them (method and path, `:name` for a parameter). */
  function routes(): { method: string; path: string }[] {
    const listed: { method: string; path: string }[] = [];
    for (const line of t.app.http.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /[─└├]+ (\S+) \(([A-Z, ]+)\)/.exec(line);
      for (const method of m?.[2].split(', ') ?? [])
        if (method !== 'HEAD' && method !== 'OPTIONS')
          listed.push({ method, path: `/${(m?.[1] ?? '').replace(/^\//, '')}` });
    }
    return listed;
  }

  const nulNeverAFault =
    'a NUL in each path parameter, in query parameters and in form fields is never a fault, signed in or not';
  it(nulNeverAFault, async () => {
    const owner = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'routes@premium.example',
      role: 'owner',
    });
    const c = new ConsoleClient(t);
    await c.signIn(owner.email, owner.password);
    const cookie = [...c.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const fields = [
      'email',
      'password',
      'current',
      'name',
      'slug',
      'label',
      'token',
      'id',
      'uid',
      'client_id',
      'next',
      'q',
    ];
    const query = fields.map((f) => `${f}=a%00b`).join('&');
    const all = routes();
    expect(all.length).toBeGreaterThan(100);
    const faults: string[] = [];
    for (const { method, path } of all) {
      const url = path.replace(/:[A-Za-z_]+|\*/g, 'a%00b');
      for (const [target, headers] of [
        [url, {}],
        [`${url}?${query}`, { cookie, authorization: `Bearer ${t.keys.premium}` }],
      ] as const) {
        t.clock.advance(61_000);
        const form = method === 'POST' ? `_csrf=${c.csrf}&${query}` : undefined;
        const res = await t.app.http.inject({
          method: method as 'GET',
          url: target,
          headers: { ...headers, ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
          payload: form,
        });
        if (res.statusCode >= 500) faults.push(`${method} ${target} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(faults).toEqual([]);
  }, 120_000);
});
