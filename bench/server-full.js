/**
 * Child process of `bench/run.js` (and scale-out.js): the whole service (createApp over the prepared store), logger
 * off, listening on 127.0.0.1 and an ephemeral port, which it reports to the parent over IPC.
 *
 *   node bench/server-full.js <db path>                                  SQLite, in-process counters
 *   node bench/server-full.js <postgres:// URL> [<redis:// URL> <key prefix>]   PostgreSQL, counters on Redis
 *
 * It stops on SIGTERM or when the parent goes away, closing the app (the usage flush) and the store, and
 * leaving with exit code 0 so that `--cpu-prof` (BENCH_CPU_PROF in run.js) writes its profile.
 */
import { createApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { openStore } from '../dist/store/open-store.js';

const [dbPath, redisUrl, redisPrefix] = process.argv.slice(2);
if (!dbPath || !process.send) {
  process.stderr.write('usage: forked by bench/run.js with the database path (or URL) as argument\n');
  process.exit(2);
}

// BASE_URL only appears in links (the snapshot's `link: …; rel="next"`); a fixed one keeps the bytes stable.
const config = loadConfig({
  ...(dbPath.startsWith('postgres') ? { DATABASE_URL: dbPath } : { MUNIDATA_DB: dbPath }),
  ...(redisUrl && { REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix }),
  HOST: '127.0.0.1',
  PORT: '0',
  BASE_URL: 'http://bench.invalid',
  LOG_LEVEL: 'silent',
});
const store = openStore(config);
const app = await createApp({ config, store, logger: false });
await app.http.listen({ host: config.host, port: 0 });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    await app.close();
    await store.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.on('disconnect', () => void stop());

// The parent asks for this process's CPU time around each load run (CPU µs per request).
process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
});

process.send({ type: 'listening', port: app.http.server.address().port, pid: process.pid });
