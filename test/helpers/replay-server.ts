/**
 * A local HTTP server that replays real formats for `munidata sync` (docs/data.md, Syncing): the test gives a
 * handler per request, which answers a body, a status (429, 503…) or drops the connection half-way through the
 * body. Listens on 127.0.0.1, port 0; nothing reaches the internet.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { status?: number; body: string | Buffer; headers?: Record<string, string> }
  | { status: number; retryAfter?: number }
  | { drop: true; body: string | Buffer };

export interface ReplayServer {
  readonly url: string;
  /** Every request's path and query, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startReplayServer(handle: (url: URL, n: number) => Reply): Promise<ReplayServer> {
  const requests: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://replay');
    requests.push(`${url.pathname}${url.search}`);
    const reply = handle(url, requests.length);
    if ('drop' in reply) {
      // The headers promise the whole body; half of it is sent, then the connection is cut.
      const body = Buffer.from(reply.body);
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      response.write(body.subarray(0, Math.floor(body.length / 2)), () => response.socket?.destroy());
      return;
    }
    if (!('body' in reply)) {
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
      response.writeHead(reply.status, headers);
      response.end(`status ${reply.status}`);
      return;
    }
    const body = Buffer.from(reply.body);
    response.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...reply.headers,
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
