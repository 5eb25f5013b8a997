/**
 * Slow clients are cut off (docs/deploy.md, Timeouts): a client that sends its headers, or its body, one byte at
 * a time, or keeps a connection open doing nothing, loses the connection once the configured timeout has passed,
 * not after Node's defaults (60 s for headers, 300 s for a request). Short timeouts here, so the test is quick.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
const KEEP_ALIVE_MS = 1_000;
/** Node sweeps for late connections every tenth of the header timeout; what the test allows beyond a deadline. */
const SLACK_MS = 700;

describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        REQUEST_TIMEOUT_MS: String(REQUEST_MS),
        KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      },
    });
    await t.app.http.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.http.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => t?.close());

  /** Writes `text` one byte every `everyMs` until done or the server closes; resolves with when it closed. */
  async function dribble(text: string, everyMs: number): Promise<{ closedAfterMs: number; received: string }> {
    const socket: Socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const started = performance.now();
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.on('error', () => {});
    const closed = once(socket, 'close').then(() => performance.now() - started);
    let open = true;
    void closed.then(() => {
      open = false;
    });
    for (const byte of text) {
      if (!open) break;
      socket.write(byte);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    const closedAfterMs = await Promise.race([
      closed,
      new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 10_000)),
    ]);
    socket.destroy();
    return { closedAfterMs, received };
  }

  it('cuts off a client that dribbles its headers, one byte at a time, at the header timeout', async () => {
    const request =
      `GET /v1/indicators/population HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keys.premium}\r\n` +
      `X-Padding: ${'a'.repeat(200)}\r\n\r\n`;
    const { closedAfterMs, received } = await dribble(request, 50);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(closedAfterMs).toBeLessThan(HEADERS_MS + SLACK_MS);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client that dribbles its body at the request timeout', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { padding: 'b'.repeat(200) } });
    const head =
      `POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keys.premium}\r\n` +
      'Accept: application/json, text/event-stream\r\n' +
      `MCP-Protocol-Version: 2025-11-25\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    let received = '';
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.on('error', () => {});
    const started = performance.now();
    socket.on('data', (chunk) => {
      received += chunk.toString();
    });
    socket.write(head);
    const closed = once(socket, 'close').then(() => performance.now() - started);
    let open = true;
    void closed.then(() => {
      open = false;
    });
    for (const byte of body) {
      if (!open) break;
      socket.write(byte);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const closedAfterMs = await Promise.race([
      closed,
      new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 10_000)),
    ]);
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(closedAfterMs).toBeLessThan(REQUEST_MS + SLACK_MS);
  });

  it('closes a kept-alive connection left idle after its answer at the keep-alive timeout', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.on('error', () => {});
    socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    await once(socket, 'data');
    const answeredAt = performance.now();
    await once(socket, 'close');
    const idleMs = performance.now() - answeredAt;
    expect(idleMs).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100);
    // Node keeps the socket a second beyond the timeout it announces (Keep-Alive: timeout=1), for the client's sake.
    expect(idleMs).toBeLessThan(KEEP_ALIVE_MS + 1_000 + SLACK_MS);
  });

  it('still serves a client that sends its request at an ordinary pace', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/indicators/population`, {
      headers: { authorization: `Bearer ${t.keys.premium}` },
    });
    expect(res.status).toBe(200);
  });
});
