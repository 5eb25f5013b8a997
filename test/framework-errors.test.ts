/**
 * Answers made before any route runs — by Fastify (a URL it cannot decode, a body it will not read) or by Node's
 * HTTP parser (headers too large, a malformed request) — and the methods an endpoint does not serve: each is in
 * the form of the channel the request was for, with a request id (docs/api.md, Errors; docs/a2a.md; docs/mcp.md).
 * Over a real socket where Node answers itself.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { expectProblem, expectValidation } from './helpers/expectations.js';
import { BASE_URL, startTestApp, type TestApp, type TestResponse } from './helpers/test-app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp();
  await ensureDemoAgents(t.store, new Date(t.clock.now));
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.http.server.address() as { port: number }).port;
});
afterAll(() => t.close());

async function send(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; payload?: string } = {},
): Promise<TestResponse> {
  t.clock.advance(61_000);
  const res = await t.app.http.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${t.keys.premium}`, ...options.headers },
    payload: options.payload,
  });
  let json: any;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: res.body, json };
}

/** Raw bytes to the listening server; the whole answer, as text, once the server closes or after a pause. */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
    setTimeout(() => socket.end(), 1000);
  });
}

/** A JSON-RPC refusal of the whole request on A2A: the status, and -32000 with ErrorInfo + problem carrying the id. */
function expectA2aRefusal(res: TestResponse, status: number, kind: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.json.jsonrpc).toBe('2.0');
  expect(res.json.error.code).toBe(-32000);
  expect(res.json.error.data[0]).toMatchObject({ reason: kind.toUpperCase().replaceAll('-', '_'), metadata: { kind } });
  expect(res.json.error.data[1]).toMatchObject({ type: `${BASE_URL}/problems/${kind}`, status });
  expect(res.json.error.data[1].request_id).toBe(res.headers['request-id']);
}

function expectMcpRefusal(res: TestResponse, status: number, kind: string) {
  expect(res.status, res.body).toBe(status);
  expect(res.json.jsonrpc).toBe('2.0');
  expect(res.json.error.code).toBe(-32000);
  expect(res.json.error.data).toMatchObject({ type: `${BASE_URL}/problems/${kind}`, status });
  expect(res.json.error.data.request_id).toBe(res.headers['request-id']);
}

describe('REST: every answer a problem document', () => {
  it('a path that is not valid percent-encoding or UTF-8 is 422 naming the path', async () => {
    for (const url of ['/v1/indicators/%ZZ', '/v1/indicators/%ED%A0%80', '/v1/signals/%FF']) {
      expectValidation(await send('GET', url), 'path');
    }
  });

  it('a path parameter of any length reaches the core: 422 naming it, as on A2A and MCP', async () => {
    expectValidation(await send('GET', `/v1/indicators/${'a'.repeat(150)}`), 'key');
    expectValidation(await send('GET', `/v1/municipalities/${'x'.repeat(5000)}`), 'code');
  });

  it('a GET with a body is answered as without one, whatever its content type or syntax', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/weird' }, {}] as Record<
      string,
      string
    >[]) {
      const res = await send('GET', '/v1/indicators?limit=1', { headers, payload: '{not json' });
      expect(res.status, res.body).toBe(200);
    }
  });

  it('other methods are 405 with Allow whatever the body: bad JSON, an odd content type, none', async () => {
    for (const [headers, payload] of [
      [{ 'content-type': 'application/json' }, '{'],
      [{ 'content-type': 'application/json' }, ''],
      [{ 'content-type': 'text/weird' }, 'x'],
    ] as const) {
      const res = await send('POST', '/v1/indicators', { headers, payload });
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  it('a body over the limit is 413 payload-too-large; an unknown route is 404 whatever its body', async () => {
    expectProblem(
      await send('POST', '/v1/indicators', {
        headers: { 'content-type': 'application/json' },
        payload: 'x'.repeat(100_000),
      }),
      413,
      'payload-too-large',
    );
    expectProblem(
      await send('POST', '/nowhere', { headers: { 'content-type': 'application/json' }, payload: '{' }),
      404,
      'not-found',
    );
    expectProblem(await send('DELETE', '/v1/nothing'), 404, 'not-found');
  });

  it('a malformed content type is 400 bad-request, not Fastify JSON', async () => {
    expectProblem(
      await send('POST', '/nowhere', { headers: { 'content-type': '/;;' }, payload: 'x' }),
      400,
      'bad-request',
    );
  });

  const nodeErrorsAsProblems =
    'headers too large (431) and an unparsable request (400) come from Node as problem documents with a request id';
  it(nodeErrorsAsProblems, async () => {
    const big = await raw(`GET /v1/indicators HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(big.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(big.body);
    expect(problem).toMatchObject({ type: `${BASE_URL}/problems/header-fields-too-large`, status: 431 });
    expect(problem.request_id).toMatch(/^req_/);
    expect(big.headers['request-id']).toBe(problem.request_id);

    const garbage = await raw(
      'GET /v1/indicators HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ type: `${BASE_URL}/problems/bad-request`, status: 400 });

    const longUrl = await raw(`GET /v1/indicators/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(longUrl.status).toBe(431);
    expect(JSON.parse(longUrl.body).request_id).toBe(longUrl.headers['request-id']);
  });

  it('OPTIONS is 405 as before (no CORS: browser requests are refused)', async () => {
    const res = await send('OPTIONS', '/v1/indicators', {
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expectProblem(res, 405, 'method-not-allowed');
  });
});

describe('A2A and MCP: JSON-RPC refusals', () => {
  it.each([
    'GET',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
  ])('%s /a2a is 405 with Allow: POST, in the A2A form', async (method) => {
    for (const url of ['/a2a', '/a2a/']) {
      const res = await send(method, url, { headers: { 'content-type': 'application/json' } });
      expectA2aRefusal(res, 405, 'method-not-allowed');
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('a company agent that does not exist is still 404 (in the A2A form), not 405', async () => {
    const res = await send('GET', '/agents/no-such-agent/a2a');
    expect(res.status, res.body).toBe(404);
    expect(res.json.error.data[0]).toMatchObject({ reason: 'NOT_FOUND' });
    expect(res.headers.allow).toBeUndefined();
  });

  it('HEAD /a2a is 405 too', async () => {
    const res = await send('HEAD', '/a2a');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('headers too large on /a2a and /mcp are JSON-RPC refusals with the status', async () => {
    for (const [path, check] of [
      ['/a2a', (body: any) => expect(body.error.data[1]).toMatchObject({ status: 431 })],
      ['/mcp', (body: any) => expect(body.error.data).toMatchObject({ status: 431 })],
    ] as const) {
      const res = await raw(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      const body = JSON.parse(res.body);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      check(body);
    }
  });

  it('a bad URL on the MCP path is a JSON-RPC refusal', async () => {
    const res = await send('POST', '/mcp%ZZ');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('MCP non-POST methods keep their 405', async () => {
    const res = await send('DELETE', '/mcp');
    expectMcpRefusal(res, 405, 'method-not-allowed');
    expect(res.headers.allow).toBe('POST');
  });
});

describe("every method and the answers Node gives before routing, in the channel's form", () => {
  const SLUG = DEMO_DEPLOYMENTS[0].slug;
  const ODD_METHODS = ['TRACE', 'PROPFIND', 'SEARCH', 'PURGE', 'MKCOL', 'QUERY'];

  it.each(
    ODD_METHODS,
  )('%s on every JSON-RPC endpoint is 405 with Allow: POST, on GET routes with Allow: GET, HEAD', async (method) => {
    for (const url of ['/a2a', '/a2a/', `/agents/${SLUG}/a2a`]) {
      const res = await send(method, url, { headers: { 'content-type': 'application/json' } });
      expectA2aRefusal(res, 405, 'method-not-allowed');
      expect(res.headers.allow, url).toBe('POST');
    }
    for (const url of ['/mcp', `/agents/${SLUG}/mcp`]) {
      const res = await send(method, url, { headers: { 'content-type': 'application/json' } });
      expectMcpRefusal(res, 405, 'method-not-allowed');
      expect(res.headers.allow, url).toBe('POST');
    }
    for (const url of [
      '/v1/indicators',
      '/.well-known/agent-card.json',
      `/agents/${SLUG}/.well-known/agent-card.json`,
    ]) {
      const res = await send(method, url, { headers: { 'content-type': 'application/json' } });
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow, url).toBe('GET, HEAD');
    }
  });

  it.each(
    ODD_METHODS,
  )('%s on a page or a health route is 405 with the Allow of the methods it serves', async (method) => {
    for (const url of ['/healthz', '/readyz', '/docs', '/console', '/explore', `/problems/not-found`]) {
      const res = await send(method, url, { headers: { 'content-type': 'application/json' } });
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow, url).toBe('GET, HEAD');
    }
  });

  it('a path served for POST alone is 405 to GET, with its Allow; a path no route serves stays 404', async () => {
    const token = await send('GET', '/oauth/token');
    expectProblem(token, 405, 'method-not-allowed');
    expect(token.headers.allow).toBe('OPTIONS, POST');
    expect(token.json.detail).toBe('GET is not served at /oauth/token; use OPTIONS, POST.');
    for (const [method, url] of [
      ['GET', '/healthz/x'],
      ['TRACE', '/no-such-page'],
      ['DELETE', '/explore/nowhere/at/all'],
    ]) {
      const res = await send(method, url);
      expectProblem(res, 404, 'not-found');
      expect(res.headers.allow, url).toBeUndefined();
    }
  });

  it("a path no route serves names the nearest route of its method, with the request's own segments", async () => {
    for (const [method, url, near] of [
      ['GET', '/v1/alerts/rules', 'GET /v1/alert-rules'],
      ['GET', '/v1/procurement/contract/42', 'GET /v1/procurement/contracts/42'],
      ['HEAD', '/v1/municipality/1106', 'HEAD /v1/municipalities/1106'],
      ['POST', '/oauth/tokens', 'POST /oauth/token'],
    ]) {
      const res = await send(method, url);
      expectProblem(res, 404, 'not-found');
      if (method !== 'HEAD') expect(res.json.detail).toBe(`No route ${method} ${url}. Did you mean ${near}?`);
      else expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // Far from every route, or near only a route of another method: no guess.
    for (const [method, url] of [
      ['GET', '/v1/nothing-like-it'],
      ['GET', '/oauth/tokens'],
    ]) {
      const res = await send(method, url);
      expectProblem(res, 404, 'not-found');
      expect(res.json.detail).toBe(`No route ${method} ${url}.`);
    }
  });

  const requestWithoutHost =
    "an HTTP/1.1 request without Host is 400 in the channel's form, with its request id; HTTP/1.0 needs none";
  it(requestWithoutHost, async () => {
    const rest = await raw('GET /v1/indicators HTTP/1.1\r\nAuthorization: Bearer x\r\n\r\n');
    expect(rest.status).toBe(400);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(rest.body);
    expect(problem).toMatchObject({
      type: `${BASE_URL}/problems/bad-request`,
      status: 400,
      instance: '/v1/indicators',
    });
    expect(problem.request_id).toBe(rest.headers['request-id']);
    const a2a = await raw('POST /a2a HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}');
    expect(a2a.status).toBe(400);
    expect(JSON.parse(a2a.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    const twice = await raw('GET /v1/indicators HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n');
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body).detail).toMatch(/one Host header/);
    const old = await raw('GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it("an Expect other than 100-continue is 417 in the channel's form; 100-continue still works", async () => {
    const rest = await raw('GET /v1/indicators HTTP/1.1\r\nHost: x\r\nExpect: xyz\r\n\r\n');
    expect(rest.status).toBe(417);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(rest.body);
    expect(problem).toMatchObject({ type: `${BASE_URL}/problems/expectation-failed`, status: 417 });
    expect(problem.request_id).toBe(rest.headers['request-id']);
    const mcp = await raw('POST /mcp HTTP/1.1\r\nHost: x\r\nExpect: xyz\r\nContent-Length: 2\r\n\r\n{}');
    expect(mcp.status).toBe(417);
    const inMcp = JSON.parse(mcp.body).error.data;
    expect(inMcp).toMatchObject({ type: `${BASE_URL}/problems/expectation-failed`, status: 417 });
    const described = await t.get('/problems/expectation-failed', { key: null });
    expect(described.json).toMatchObject({ status: 417 });
    const continued = await raw(
      'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    expect(continued.status).toBe(100);
    expect(continued.body).toContain('HTTP/1.1 200');
  });

  it('CONNECT is answered 501 not-implemented, a problem document, then the connection closed', async () => {
    const tunnel = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(tunnel.status).toBe(501);
    expect(tunnel.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(tunnel.body)).toMatchObject({ type: `${BASE_URL}/problems/not-implemented`, status: 501 });
    expect(tunnel.headers.connection).toBe('close');
    const onA2a = await raw('CONNECT /a2a HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(onA2a.status).toBe(501);
    expect(JSON.parse(onA2a.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });
});
