/**
 * Redis for the tests. The shared server (REDIS_URL, else 127.0.0.1:6379) is used with a key prefix unique to
 * the test run, deleted afterwards. A Redis the test can take down is either a `redis-server` of its own, on a
 * free port (killed and restarted empty: a real loss), or, where no such binary exists (a CI whose Redis is a
 * service container), a TCP proxy to the shared server whose connections the test cuts and restores.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { startTcpProxy } from './tcp-proxy.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test run shares. */
export function uniquePrefix(name: string): string {
  return `munidata-test:${name}:${process.pid}-${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix` on the shared server. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export { freePort };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A Redis that can be taken away and given back. */
export interface OutageRedis {
  readonly url: string;
  /** `redis-server`: the server is killed and restarted empty; `proxy`: connections to the shared one are cut. */
  readonly kind: 'redis-server' | 'proxy';
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startOutageRedis(): Promise<OutageRedis> {
  const port = await freePort();
  return hasRedisServer() ? ownRedisServer(port) : proxyToSharedRedis(port);
}

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function ownRedisServer(port: number): Promise<OutageRedis> {
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && isRunning(child)) return;
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await untilAnswers(port);
  };
  const stop = async () => {
    if (!child || !isRunning(child)) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kind: 'redis-server', cut: stop, restore: start, close: stop };
}

/** Neither exited nor killed (a killed process has no exit code, only a signal). */
function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

async function proxyToSharedRedis(port: number): Promise<OutageRedis> {
  const upstream = new URL(REDIS_URL);
  const proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 6379) }, port);
  return {
    url: `redis://127.0.0.1:${port}${upstream.pathname}`,
    kind: 'proxy',
    cut: proxy.cut,
    restore: proxy.restore,
    close: proxy.close,
  };
}

async function untilAnswers(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    try {
      await redis.connect();
      if ((await redis.ping()) === 'PONG') return;
    } catch {
      await sleep(50);
    } finally {
      redis.disconnect();
    }
  }
  throw new Error(`redis-server on port ${port} did not answer`);
}
