/**
 * A webhook receiver on loopback, as an account would run one: it verifies every delivery with the Standard
 * Webhooks library (`standardwebhooks`) against the endpoint's secret, records it, and answers what the test says
 * (200 unless told; a promise holds the request open until it settles). Over TLS when given a key and certificate.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  /** The `webhook-id` header: one per (event, endpoint), the same on every attempt. */
  id: string;
  /** `webhook-timestamp`, seconds since the epoch. */
  timestamp: number;
  body: { type: string; timestamp: string; data: any };
  verified: boolean;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export type Answer = number | Promise<number>;

export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  /** The endpoint's secret (`whsec_…`), once registered. */
  secret = '';
  /** The status for each delivery, in the order they arrive. */
  answer: (delivery: ReceivedDelivery) => Answer = () => 200;
  readonly #server: Server;
  readonly #scheme: 'http' | 'https';

  private constructor(tls?: { key: string; cert: string }) {
    const handle = (request: IncomingMessage, response: ServerResponse) => this.#handle(request, response);
    this.#server = tls ? createHttpsServer(tls, handle) : createHttpServer(handle);
    this.#scheme = tls ? 'https' : 'http';
  }

  static async start(options: { tls?: { key: string; cert: string }; host?: string } = {}): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(options.tls);
    await new Promise<void>((resolve) => receiver.#server.listen(0, options.host ?? '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** The endpoint URL on `host` (a name the receiver's address has, for TLS). */
  url(host = '127.0.0.1', path = '/hook'): string {
    return `${this.#scheme}://${host}:${this.port}${path}`;
  }

  /** The distinct webhook-ids received: what a receiver that de-duplicates keeps. */
  ids(): Set<string> {
    return new Set(this.received.map((r) => r.id));
  }

  /** Resolves once `done` holds, checked on every delivery and every 100 ms; rejects after `timeoutMs`. */
  async waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`receiver: ${what} not within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        new Webhook(this.secret).verify(text, request.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      const delivery: ReceivedDelivery = {
        id: String(request.headers['webhook-id']),
        timestamp: Number(request.headers['webhook-timestamp']),
        body: JSON.parse(text),
        verified,
        at: Date.now(),
      };
      this.received.push(delivery);
      const status = await this.answer(delivery);
      if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  }
}
