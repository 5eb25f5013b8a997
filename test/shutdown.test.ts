/**
 * Graceful shutdown, as `serve` does it on SIGTERM (closeGracefully): a server listening on a real port, with a
 * request in flight — a slow upload, its body still coming — when shutdown begins. New connections are refused,
 * the request in flight is answered and charged, its charge is written to the store, then the store closes.
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
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { deleteKeys, REDIS_URL, sleep, uniquePrefix } from './helpers/redis.js';
import { BASE_URL, copyDemoStore } from './helpers/test-app.js';

const PREFIX = uniquePrefix('shutdown');
afterAll(() => deleteKeys(PREFIX));

describe.each(['in-process', 'Redis'] as const)('graceful shutdown with %s counters', (kind) => {
  it('refuses new connections, finishes the request in flight, writes its charge, then closes the store', async () => {
    const { store, dbPath } = copyDemoStore();
    const counters = kind === 'Redis' ? await RedisCounters.open({ url: REDIS_URL, store, prefix: PREFIX }) : undefined;
    const app = await createApp({
      config: loadConfig({ BASE_URL, MUNIDATA_DB: dbPath, LOG_LEVEL: 'silent' }),
      store,
      ...(counters && { counters }),
    });
    const now = new Date();
    const account = await store.createAccount({ name: 'shutdown', plan_code: 'premium', beta: false, now: now.toISOString() });
    const key = (await createKey(store, { accountId: account.id }, now)).secret;
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

    await expect(store.getUsage(account.id, monthlyPeriod(now).key)).rejects.toThrow(); // closed
    const reopened = openSqliteStore(dbPath);
    try {
      expect(await reopened.getUsage(account.id, monthlyPeriod(now).key)).toBe(1);
    } finally {
      await reopened.close();
    }
  });
});
