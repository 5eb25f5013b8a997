/**
 * `npm run bench` (first step): how long `munidata serve` takes to answer, on the embedded default (SQLite in a
 * fresh directory), as a new user starts it. The first start migrates, loads the real data of data/real/, the
 * generated data and runs detection; a repeat start finds the store filled. Each is timed from the spawn to the
 * first answer of GET /healthz. Targets (issue 29, docs/performance.md): first start ≤ 20 s, repeat ≤ 3 s.
 *
 * Environment (bench only): BENCH_START_RUNS — repeat starts to time (default 3; the median is reported).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, loadLine, machineLine, median, table } from './lib.js';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);
const TARGET = { first: 20, repeat: 3 };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Spawns `serve` in `dir`, waits until /healthz answers 200, stops it; the seconds it took to answer. */
async function timeStart(dir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(DIST, 'main.js'), 'serve', '--port', String(port)], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const row = (label, seconds, target) => [label, seconds.toFixed(2), `≤ ${target}`, seconds <= target ? 'yes' : 'NO'];

const dir = mkdtempSync(join(tmpdir(), 'munidata-start-'));
try {
  console.log(`start: munidata serve on a new SQLite store, timed to the first /healthz answer\n${machineLine()}`);
  console.log(loadLine());
  const first = await timeStart(dir);
  const repeats = [];
  for (let i = 0; i < RUNS; i++) repeats.push(await timeStart(dir));
  const repeat = median(repeats);
  console.log(
    table(
      ['start', 'seconds', 'target', 'within'],
      [
        row('first (migrate, real data, generated data, detection)', first, TARGET.first),
        row(`repeat (median of ${RUNS})`, repeat, TARGET.repeat),
      ],
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
