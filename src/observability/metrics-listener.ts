/**
 * The metrics listener: `GET /metrics` in Prometheus' text format, on `METRICS_HOST:METRICS_PORT`, a listener of its
 * own so that the public port never shows it (docs/deploy.md, Operating). Anything else is 404 (405 for another
 * method on /metrics).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exposition } from './metrics.js';

export interface MetricsListener {
  /** Where it listens (`http://host:port`), the port the system gave when 0 was asked. */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenForScrapes(host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return void response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
    }
    exposition().then(
      ({ contentType, text }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
