/**
 * Child process of `bench/ablate.js`: one rung of the ladder between the bare server and the full service,
 * to see where the full stack's time goes. The parent sends
 * `{ type: 'start', variant, dbPath, route, body: <base64>, headers }`; the child answers `{ type: 'listening', port
 * }`.
 *
 * Variants:
 *   fastify-buffer   Fastify 5, one route (same pattern as the real one), the fixed bytes sent as a Buffer
 *   fastify          the same, the body sent as a string (as the service does)
 *   fastify-plugins  `fastify` + what createApp adds around every route: genReqId (randomUUID), the
 *                    `request-id` onRequest hook, @fastify/compress (global, threshold 1024, br/gzip)
 *   full             createApp over the prepared database (as bench/server-full.js)
 *   full-no-cursor   full, but the next-page cursor is not signed (no HMAC) and no `link` header is built
 *   full-memo-series full, but store.series answers from a memo (no SQLite read per request)
 *   full-memo-output full, but the JSON text of a memoized snapshot page and its ETag hash are reused
 *   full-all         every `full-*` shortcut above at once
 *
 * The `full-*` shortcuts are monkey patches applied in this process only, never changes to src/; their answers
 * differ slightly from the real ones (no cursor) and are for measuring, not for serving.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

if (!process.send) {
  process.stderr.write('usage: forked by bench/ablate.js\n');
  process.exit(2);
}

let stop = async () => {};
let started = false;

process.on('message', (message) => {
  if (message?.type !== 'start' || started) return;
  started = true;
  start(message).then(
    (port) => process.send({ type: 'listening', port, pid: process.pid }),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
});

async function start({ variant, dbPath, route, body, headers }) {
  if (variant.startsWith('fastify')) return startFastify(variant, route, Buffer.from(body, 'base64'), headers);
  return startFull(variant, dbPath);
}

async function startFastify(variant, route, body, headers) {
  const { default: Fastify } = await import('fastify');
  const payload = variant === 'fastify-buffer' ? body : body.toString('utf8');
  const app = Fastify(
    variant.startsWith('fastify-plugins')
      ? {
          logger: false,
          genReqId: () => `req_${crypto.randomUUID().replaceAll('-', '')}`,
          trustProxy: false,
          return503OnClosing: true,
        }
      : { logger: false },
  );
  if (variant.startsWith('fastify-plugins')) {
    const { default: compress } = await import('@fastify/compress');
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('request-id', request.id);
      done();
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  }
  // Same headers as the bare server's; with the plugins, the hook sets a fresh `request-id` as the app does.
  const fixed = { ...headers };
  if (variant.startsWith('fastify-plugins')) delete fixed['request-id'];
  // `-busyN`: N µs of CPU spent before answering (what any slower server costs, without the app's work);
  // `-async`: the answer sent after a few awaits, as the app's channel → core → counters chain does.
  const busyMicros = Number(/-busy(\d+)/.exec(variant)?.[1] ?? 0);
  if (variant.endsWith('-async')) {
    const step = async (n) => (n === 0 ? undefined : step(n - 1));
    app.get(route, async (_request, reply) => {
      await step(10);
      return reply.headers(fixed).send(payload);
    });
  } else {
    app.get(route, (_request, reply) => {
      if (busyMicros > 0) spin(busyMicros);
      return reply.headers(fixed).send(payload);
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  stop = () => app.close();
  return app.server.address().port;
}

function spin(micros) {
  const end = process.hrtime.bigint() + BigInt(micros * 1000);
  while (process.hrtime.bigint() < end);
}

async function startFull(variant, dbPath) {
  const all = variant === 'full-all';
  if (all || variant === 'full-no-cursor') {
    const { CursorCodec } = await import('../dist/core/cursor.js');
    CursorCodec.prototype.encode = () => undefined; // page() then reports no next_cursor: no HMAC, no link header
  }
  if (all || variant === 'full-memo-series') {
    const { SqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
    const series = SqliteStore.prototype.series;
    const memo = new Map();
    SqliteStore.prototype.series = async function (query) {
      const key = JSON.stringify(query);
      let rows = memo.get(key);
      if (!rows) {
        rows = await series.call(this, query);
        memo.set(key, rows);
      }
      return rows;
    };
  }
  if (all || variant === 'full-memo-output') memoizeOutput();

  const { createApp } = await import('../dist/app.js');
  const { loadConfig } = await import('../dist/config.js');
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  const config = loadConfig({
    MUNIDATA_DB: dbPath,
    HOST: '127.0.0.1',
    PORT: '0',
    BASE_URL: 'http://bench.invalid',
    LOG_LEVEL: 'silent',
  });
  const store = openSqliteStore(config.dbPath);
  const app = await createApp({ config, store, logger: false });
  await app.http.listen({ host: config.host, port: 0 });
  stop = async () => {
    await app.close();
    await store.close();
  };
  return app.http.server.address().port;
}

/**
 * The JSON text of a page of memoized snapshot rows (same row objects, same length, same cursor) is built
 * once, and so is the SHA-1 of a JSON text already hashed: what memoizing the serialised page and its ETag
 * per data version would save.
 */
function memoizeOutput() {
  const stringify = JSON.stringify;
  const texts = new WeakMap();
  JSON.stringify = function (value, ...rest) {
    const first = rest.length === 0 && Array.isArray(value?.items) ? value.items[0] : undefined;
    if (first === null || typeof first !== 'object') return stringify.call(this, value, ...rest);
    const byShape = getOrSet(texts, first, () => new Map());
    return getOrSet(byShape, `${value.items.length}|${value.next_cursor}|${value.has_more}`, () =>
      stringify.call(this, value),
    );
  };

  const createHash = crypto.createHash;
  const digests = new Map();
  crypto.createHash = (algorithm, options) => {
    if (algorithm !== 'sha1') return createHash(algorithm, options);
    let data;
    return {
      update(chunk) {
        data = chunk;
        return this;
      },
      digest(encoding) {
        const byEncoding = getOrSet(digests, data, () => new Map());
        return getOrSet(byEncoding, String(encoding), () => createHash('sha1').update(data).digest(encoding));
      },
    };
  };
  syncBuiltinESMExports();
}

function getOrSet(map, key, make) {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

// The parent asks for this process's CPU time around each load run (CPU µs per request).
process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
});

async function shutdown() {
  try {
    await stop();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.on('disconnect', () => void shutdown());
