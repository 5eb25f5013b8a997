/**
 * Child process of `bench/run.js`: the baseline. A bare `node:http` server that answers every request with the
 * bytes the full service answered (status 200, same body, same content-type and the same response headers, so
 * that the bytes on the wire match), and does nothing else: no routing, no auth, no store, no serialisation.
 *
 * The parent sends `{ type: 'answer', body: <base64>, headers: {…} }` over IPC; the child answers with
 * `{ type: 'listening', port }`.
 */
import { createServer } from 'node:http';

if (!process.send) {
  process.stderr.write('usage: forked by bench/run.js\n');
  process.exit(2);
}

let server;

process.on('message', (message) => {
  if (message?.type !== 'answer' || server) return;
  const body = Buffer.from(message.body, 'base64');
  const headers = { ...message.headers, 'content-length': String(body.length) };
  server = createServer((request, response) => {
    // Drain the (empty) request and answer with the fixed bytes.
    request.resume();
    response.writeHead(200, headers);
    response.end(body);
  });
  // Fastify's default, so that the `keep-alive: timeout=…` header matches too.
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => {
    process.send({ type: 'listening', port: server.address().port, pid: process.pid });
  });
});

// The parent asks for this process's CPU time around each load run (CPU µs per request).
process.on('message', (message) => {
  if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
});

function stop() {
  if (!server) process.exit(0);
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
