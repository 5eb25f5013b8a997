/**
 * A TCP proxy in front of a shared server (Redis, PostgreSQL) that a test can cut and restore: the server goes
 * away for whatever connects through the proxy, and for nothing else. Cut: every open connection is destroyed
 * and the port refuses new ones (the listener is closed), as when the server's host goes down. Restore: the same
 * port accepts and forwards again.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A proxy to `target`, listening (on `port`, or one the system picks) and forwarding. */
export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listeningOn = port;
  const start = async () => {
    if (server) return;
    server = createServer((client) => {
      const upstream = tcpConnect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      // Either side ending ends the other: a connection is never left half open.
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    server.listen(listeningOn, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    listeningOn = typeof address === 'object' && address !== null ? address.port : listeningOn;
  };
  const stop = async () => {
    if (!server) return;
    const closed = once(server, 'close');
    server.close();
    for (const socket of sockets) socket.destroy();
    await closed;
    server = undefined;
  };
  await start();
  return {
    get port() {
      return listeningOn;
    },
    cut: stop,
    restore: start,
    close: stop,
  };
}
