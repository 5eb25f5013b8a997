/**
 * Graceful shutdown, as `serve` does it on SIGTERM (closeGracefully): a server listening on a real port, with a
 * request in flight — a slow upload, its body still coming — when shutdown begins. New connections are refused,
 * the request in flight is answered and charged, and its charge is in the store when the store closes.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import { RedisCounters } from '../src/access/redis-counters.js';
import { createKey } from '../src/admin/keys.js';
import { createApp } from '../src/app.js';
import { closeGracefully } from '../src/cli/graceful-shutdown.js';
import { loadConfig } from '../src/config.js';
import { deleteKeys, REDIS_URL, sleep, uniquePrefix } from './helpers/redis.js';
import { BASE_URL, copyDemoStore } from './helpers/test-app.js';

const PREFIX = uniquePrefix('shutdown');
afterAll(() => deleteKeys(PREFIX));

describe.each(['in-process', 'Redis'] as const)('graceful shutdown with %s counters', (kind) => {
  it('refuses new connections, finishes the request in flight, writes its charge, then closes the store', async () => {
    const { store: real } = copyDemoStore();
    const now = new Date();
    const account = await real.createAccount({
      name: 'shutdown',
      plan_code: 'premium',
      beta: false,
      now: now.toISOString(),
    });
    const period = monthlyPeriod(now).key;
    // What the store holds at the moment it is closed: the charges must be written by then.
    let usageAtClose: number | undefined;
    const store = new Proxy(real, {
      get(target, property) {
        if (property === 'close') {
          return async () => {
            usageAtClose = await target.getUsage(account.id, period);
            await target.close();
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const counters = kind === 'Redis' ? await RedisCounters.open({ url: REDIS_URL, store, prefix: PREFIX }) : undefined;
    const app = await createApp({
      // A keep-alive far longer than a close may take on a loaded machine (see the bound below).
      config: loadConfig({ BASE_URL, LOG_LEVEL: 'silent', KEEP_ALIVE_TIMEOUT_MS: '60000' }),
      store,
      ...(counters && { counters }),
    });
    const key = (await createKey(real, { accountId: account.id }, now)).secret;
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.http.server.address() as AddressInfo;

    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'indicators_get', arguments: { key: 'population' } },
    });
    const slow = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/mcp',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': Buffer.byteLength(body),
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      slow.on('error', reject);
      slow.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
    });
    const arrived = once(app.http.server, 'request');
    slow.write(body.slice(0, 20)); // the headers and the start of the body
    await arrived;

    const closed = closeGracefully(app, store);
    await sleep(50);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(await Promise.race([closed.then(() => 'closed'), sleep(300).then(() => 'waiting')])).toBe('waiting');

    slow.end(body.slice(20));
    const res = await answer;
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body).result.structuredContent.key).toBe('population');
    // Closed soon after: the connection the answer left open (kept alive by the client) does not hold it up for
    // the keep-alive timeout (60 s here). The bound sits far under it, with room for a loaded machine (4 s were
    // once exceeded under the 5 s default), not as a speed target.
    const answeredAt = Date.now();
    await closed;
    expect(Date.now() - answeredAt).toBeLessThan(20_000);

    expect(usageAtClose).toBe(1);
    await expect(real.getUsage(account.id, period)).rejects.toThrow(); // closed
  });
});

describe('a request that arrives while the server drains', () => {
  const pipelinedIsAnswered =
    'is answered, not refused: pipelined behind a request in flight, it gets its answer and the connection closes';
  it(pipelinedIsAnswered, async () => {
    const { store } = copyDemoStore();
    const now = new Date();
    const account = await store.createAccount({
      name: 'drain',
      plan_code: 'premium',
      beta: false,
      now: now.toISOString(),
    });
    const key = (await createKey(store, { accountId: account.id }, now)).secret;
    const app = await createApp({ config: loadConfig({ BASE_URL, LOG_LEVEL: 'silent' }), store });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.http.server.address() as AddressInfo;

    // A keep-alive connection busy with a slow upload when the shutdown begins...
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = once(socket, 'close');
    await once(socket, 'connect');
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'indicators_get', arguments: { key: 'population' } },
    });
    const arrived = once(app.http.server, 'request');
    socket.write(
      `POST /mcp HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n` +
        'accept: application/json, text/event-stream\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await arrived;
    const closed = closeGracefully(app, store);
    await sleep(50);
    // ...then the rest of that upload and, on the same connection, the next request.
    socket.write(`${body.slice(20)}GET /v1/me HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\n\r\n`);
    await ended;
    await closed;

    // The first answer's body ends without a newline: the second status line follows it on the same line.
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses, received).toEqual([200, 200]);
    const second = received.slice(received.lastIndexOf('HTTP/1.1 '));
    expect(second.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)).account_id).toBe(account.id);
  });
});
