/**
 * What the README promises: `munidata serve` on an empty store loads the real data of data/real/ and the generated
 * data, says which is which, prints a demo key that works, serves real contracts and series as real, the docs and
 * the OpenAPI document, stops cleanly on SIGTERM, and a second start on the same store reuses the data and prints
 * another working key. Runs the real compiled CLI in a child process.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDemoIndicatorSource } from '../src/lib/provenance.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { freePort } from './helpers/free-port.js';
import { testDir } from './helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/munidata.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const KEY = /sk_live_[A-Za-z0-9]{46}/;
const LISTENING = /listening on /;

interface Server {
  child: ChildProcess;
  port: number;
  output(): { stdout: string; stderr: string };
  /** Resolves once stdout matches every pattern; rejects if the process exits first or time runs out. */
  waitFor(patterns: RegExp[], timeoutMs: number): Promise<string>;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();

/**
 * The child's environment: ours, with its own store and quiet logs. Vitest puts Vite's BASE_URL ("/") into
 * process.env; it is dropped, so the CLI derives its own from host and port.
 */
function childEnv(db: string): NodeJS.ProcessEnv {
  const { BASE_URL: _viteBaseUrl, ...env } = process.env;
  return { ...env, MUNIDATA_DB: db, LOG_LEVEL: 'silent' };
}
let dir: string;
let db: string;

/** `munidata serve` on the test's store, or on `options.store` with `options.args` after it. */
async function startServer(options: { store?: string; args?: string[] } = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...childEnv(options.store ?? db), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const l of listeners) l();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
      for (const l of listeners) l();
    });
  });

  return {
    child,
    port,
    exited,
    output: () => ({ stdout, stderr }),
    waitFor(patterns, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (patterns.every((p) => p.test(stdout))) {
            done();
            resolve(stdout);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(
              new Error(
                `munidata serve exited (${child.exitCode ?? child.signalCode}) ` +
                  `before printing ${patterns.join(' and ')}:\n${stdout}\n${stderr}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `munidata serve did not print ${patterns.join(' and ')} within ${timeoutMs} ms:\n${stdout}\n${stderr}`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Sends SIGTERM and waits for the exit, at most `timeoutMs`. */
async function stop(server: Server, timeoutMs: number) {
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`munidata serve did not exit within ${timeoutMs} ms of SIGTERM`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([server.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function get(server: Server, path: string, key?: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/**
 * The README's company-agent example, as written there (its address and body), sent with the credential the start
 * printed for that agent's A2A channel: it answers; the data API key, which the example must not suggest, gets 401.
 */
async function expectReadmeAgentExample(server: Server, stdout: string, dataKey: string): Promise<void> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Company agents'));
  const example = new RegExp(
    String.raw`curl -s "http:\/\/127\.0\.0\.1:8080(\/agents\/([a-z-]+)\/a2a)" -H "Authorization: Bearer (\S+)"` +
      String.raw`[\s\S]*?-d '([^']+)'`,
  ).exec(section);
  if (!example) throw new Error('no company-agent example in the README');
  const [, path, slug, placeholder, body] = example;
  expect(placeholder).not.toMatch(/sk_live_/); // not the data key's placeholder
  const credential = new RegExp(`\\n  ${slug}\\n.*\\n\\s+A2A\\s+\\S+\\s+credential (sk_live_\\S+)`).exec(stdout)?.[1];
  expect(credential, `no A2A credential printed for ${slug}`).toMatch(KEY);
  const send = (key: string) =>
    fetch(`http://127.0.0.1:${server.port}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
      body,
    });
  const answer = await send(credential as string);
  expect(answer.status).toBe(200);
  const json = (await answer.json()) as { result?: unknown; error?: unknown };
  expect(json.error).toBeUndefined();
  expect(json.result).toBeDefined();
  expect((await send(dataKey)).status).toBe(401);
}

function demoKey(stdout: string): string {
  const match = KEY.exec(stdout);
  if (!match) throw new Error(`no demo key in:\n${stdout}`);
  return match[0];
}

beforeAll(() => {
  if (!existsSync(DIST_MAIN)) {
    throw new Error(`${DIST_MAIN} is missing: build the CLI first (npm run build), or run the tests with npm test`);
  }
  dir = testDir('munidata-quickstart-');
  db = join(dir, 'quickstart.db');
});

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('quickstart: munidata serve', () => {
  let firstKey: string;

  const realAndGeneratedOnEmptyStore =
    'on an empty store loads real and generated data, prints a working key, serves docs, stops on SIGTERM';
  it(realAndGeneratedOnEmptyStore, async () => {
    const server = await startServer();
    try {
      const stdout = await server.waitFor([KEY, LISTENING], 150_000);
      // The banner says what is real and what is generated.
      expect(stdout).toContain('loading the real data shipped in data/real/');
      expect(stdout).toMatch(/Generated \(synthetic: true on every record\): every other indicator series/);
      firstKey = demoKey(stdout);

      // Real contracts of January–February 2024, marked real; none generated beside them.
      const real = await get(server, '/v1/procurement/contracts?source=base&municipality=Lisboa&limit=50', firstKey);
      expect(real.status).toBe(200);
      const contracts: { synthetic: boolean; published_on: string }[] = JSON.parse(real.body).items;
      expect(contracts.length).toBe(50);
      for (const c of contracts) {
        expect(c.synthetic).toBe(false);
        expect(c.published_on >= '2023-12-20' && c.published_on <= '2024-02-28').toBe(true);
      }
      const generated = await get(server, '/v1/procurement/contracts?source=demo', firstKey);
      expect(JSON.parse(generated.body).items).toEqual([]);
      const crime = await get(server, '/v1/indicators/crime_rate/series?municipality=Lisboa', firstKey);
      const points: { reference_date: string; value: number; synthetic: boolean }[] = JSON.parse(crime.body).items;
      expect(points.filter((p) => p.reference_date === '2022-12-31')).toEqual([
        expect.objectContaining({ value: 59.2, synthetic: false }),
      ]);

      const me = await get(server, '/v1/me', firstKey);
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body).plan_code).toBe('premium');

      const indicators = await get(server, '/v1/indicators', firstKey);
      expect(indicators.status).toBe(200);
      const list = JSON.parse(indicators.body);
      expect(Array.isArray(list.items)).toBe(true);
      expect(list.items.length).toBeGreaterThan(0);

      const docs = await get(server, '/docs');
      expect(docs.status).toBe(200);
      expect(docs.contentType).toMatch(/^text\/html/);
      expect(docs.body).toMatch(/<html/i);

      await expectReadmeAgentExample(server, stdout, firstKey);

      const openapi = await get(server, '/v1/openapi.json');
      expect(openapi.status).toBe(200);
      expect(openapi.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(openapi.body).openapi).toEqual(expect.any(String));

      expect(await stop(server, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 240_000);

  it('a second start reuses the data and prints a new key; the first key still works', async () => {
    expect(firstKey, 'the first start did not give a key').toMatch(KEY);
    const server = await startServer();
    try {
      const stdout = await server.waitFor([KEY, LISTENING], 60_000);
      expect(stdout).not.toContain('Empty store');
      const secondKey = demoKey(stdout);
      expect(secondKey).not.toBe(firstKey);
      // What the store holds, said from the store: the real contracts, none generated beside them.
      expect(stdout).toContain('Contracts held: real (source base, synthetic: false).');

      for (const key of [secondKey, firstKey]) {
        const me = await get(server, '/v1/me', key);
        expect(me.status).toBe(200);
        expect(JSON.parse(me.body).plan_code).toBe('premium');
      }
      const indicators = await get(server, '/v1/indicators', secondKey);
      expect(indicators.status).toBe(200);
      expect(JSON.parse(indicators.body).items.length).toBeGreaterThan(0);

      expect(await stop(server, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('serve on a store of `munidata demo` says its contracts are generated, not the real copy', async () => {
    const demoOnly = join(dir, 'demo-only.db');
    const demo = spawnSync(process.execPath, [BIN, 'demo', '--contracts', '300'], {
      cwd: ROOT,
      env: childEnv(demoOnly),
      encoding: 'utf8',
    });
    expect(demo.status, demo.stderr).toBe(0);
    const server = await startServer({ store: demoOnly });
    try {
      const stdout = await server.waitFor([KEY, LISTENING], 60_000);
      expect(stdout).not.toContain('Empty store');
      expect(stdout).not.toContain('Real data:');
      expect(stdout).not.toContain('Portal BASE');
      expect(stdout).toContain(
        'Contracts held: generated by the demo (source demo, synthetic: true): not real contracts.',
      );
      expect(await stop(server, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);

  it('serve --no-demo on an empty store loads the real data alone, runs detection and prints no key', async () => {
    const realOnly = join(dir, 'real-only.db');
    const server = await startServer({ store: realOnly, args: ['--no-demo'] });
    try {
      const stdout = await server.waitFor([LISTENING], 150_000);
      expect(stdout).toContain('loading the real data shipped in data/real/');
      expect(stdout).not.toContain('generated demo data');
      expect(stdout).not.toMatch(KEY);
      // Stopped as soon as it says it listens: the graceful handler is already in place.
      expect(await stop(server, 10_000)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
    const store = openSqliteStore(realOnly);
    try {
      const records = await store.procurementSources();
      expect(records.filter((r) => r.count > 0).map((r) => [r.source, r.records, r.count])).toEqual([
        ['base', 'contracts', 21_715],
      ]);
      const held = (await store.listIndicators()).filter((i) => i.source !== null);
      expect(held.map((i) => i.key).sort()).toEqual(['burnt_area_by_ignition', 'crime_rate', 'purchasing_power_index']);
      expect(held.every((i) => !isDemoIndicatorSource(i.source))).toBe(true);
      const real = await Promise.all(held.map((i) => store.countObservations(i.key)));
      expect(await store.countObservations()).toBe(real.reduce((a, b) => a + b, 0));
      // Detection ran on the real data alone: its signals name the real source, none is the demo's.
      const signals = await store.listSignals({}, { limit: 100_000 });
      expect(signals.length).toBeGreaterThan(0);
      expect(signals.some((s) => s.title_en?.startsWith('[demo]'))).toBe(false);
    } finally {
      await store.close();
    }
  }, 240_000);
});
