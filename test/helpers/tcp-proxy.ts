/**
 * A TCP proxy in front of a shared server (Redis, PostgreSQL) that a test can cut, stall and restore: the server
 * goes away for whatever connects through the proxy, and for nothing else. Cut: every open connection is destroyed
 * and the port refuses new ones (the listener is closed), as when the server's host goes down. Stall: every
 * connection stays open and new ones are accepted, but nothing is forwarded either way (the bytes are held, not
 * lost), as when a network drops packets without resetting anything. Restore: the same port accepts and forwards
 * again, what a stall held first.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A client's connection and the proxy's to the server. */
interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
}

/** A proxy to `target`, listening (on `port`, or one the system picks) and forwarding. */
export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let listeningOn = port;
  let stalled = false;
  const forward = ({ client, upstream }: Pair) => client.pipe(upstream).pipe(client);
  const hold = ({ client, upstream }: Pair) => {
    // Unpiped and paused, a socket reads nothing more: what arrives waits in the kernel's buffers.
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const start = async () => {
    if (server) return;
    server = createServer((client) => {
      const pair: Pair = { client, upstream: tcpConnect(target.port, target.host) };
      pairs.add(pair);
      for (const socket of [client, pair.upstream]) socket.on('error', () => socket.destroy());
      // Either side ending ends the other: a connection is never left half open.
      client.on('close', () => {
        pair.upstream.destroy();
        pairs.delete(pair);
      });
      pair.upstream.on('close', () => client.destroy());
      if (stalled) hold(pair);
      else forward(pair);
    });
    server.listen(listeningOn, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    listeningOn = typeof address === 'object' && address !== null ? address.port : listeningOn;
  };
  const stop = async () => {
    stalled = false;
    if (!server) return;
    const closed = once(server, 'close');
    server.close();
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    await closed;
    server = undefined;
  };
  await start();
  return {
    get port() {
      return listeningOn;
    },
    cut: stop,
    stall() {
      if (stalled) return;
      stalled = true;
      for (const pair of pairs) hold(pair);
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const pair of pairs) forward(pair);
      }
      await start();
    },
    close: stop,
  };
}
