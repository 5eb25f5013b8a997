/**
 * Graceful shutdown, as `serve` does it on SIGTERM (closeGracefully): a server listening on a real port, with a
 * request in flight — a slow upload, its body still coming — when shutdown begins. New connections are refused,
 * the request in flight is answered and charged, and its charge is in the store when the store closes.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    const account = await real.createAccount({ name: 'shutdown', plan_code: 'premium', beta: false, now: now.toISOString() });
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
    const app = await createApp({ config: loadConfig({ BASE_URL, LOG_LEVEL: 'silent' }), store, ...(counters && { counters }) });
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
    // Closed soon after: the connection the answer left open (kept alive by the client) does not hold it up.
    const answeredAt = Date.now();
    await closed;
    expect(Date.now() - answeredAt).toBeLessThan(2_000);

    expect(usageAtClose).toBe(1);
    await expect(real.getUsage(account.id, period)).rejects.toThrow(); // closed
  });
});
