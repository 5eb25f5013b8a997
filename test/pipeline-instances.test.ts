/**
 * The pipeline's leases across instances on PostgreSQL (docs/pipeline.md, "Several instances"), whatever
 * MUNIDATA_TEST_BACKEND says (the server at MUNIDATA_TEST_POSTGRES_URL or 127.0.0.1:5432), on a database of its own:
 * three instances, each with its own connections, run cycles at once and never run the same step at the same time;
 * a holder killed with SIGKILL in the middle of a step loses it to another instance once its lease runs out. The
 * killed holder is a real process running the compiled pipeline (dist/: `npm test` builds first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { storeLease } from '../src/pipeline/lease.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import type { PipelineStep } from '../src/pipeline/step.js';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/postgres-store.js';
import { createDatabase, databaseUrl, dropDatabase, newDatabaseName } from './helpers/backend.js';
import { requireBuild } from './helpers/deployment.js';

const database = newDatabaseName();
const stores: PostgresStore[] = [];
let child: ChildProcess | undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  requireBuild();
  await createDatabase(database);
  for (let i = 0; i < 3; i++) stores.push(openPostgresStore({ url: databaseUrl(database), poolSize: 3 }));
  await migrate(stores[0]);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(stores.map((store) => store.close()));
  await dropDatabase(database);
});

describe('three instances on one PostgreSQL database', () => {
  it('never run the same step at the same time', async () => {
    /** Every run of every step: which instance, from when to when (ms). */
    const runs: { step: string; holder: string; from: number; to: number }[] = [];
    const step = (name: string, holder: string): PipelineStep => ({
      name,
      async run() {
        const from = performance.now();
        await sleep(20 + Math.random() * 60);
        runs.push({ step: name, holder, from, to: performance.now() });
      },
    });
    const instances = stores.map(
      (store, i) =>
        new Pipeline({
          store,
          lease: storeLease(store),
          steps: ['test_detect', 'test_match'].map((name) => step(name, `instance-${i}`)),
          intervalS: 60,
          holder: `instance-${i}`,
        }),
    );
    const until = Date.now() + 4_000;
    await Promise.all(
      instances.map(async (instance) => {
        while (Date.now() < until) await instance.runCycle();
      }),
    );

    for (const name of ['test_detect', 'test_match']) {
      const ofStep = runs.filter((r) => r.step === name).sort((a, b) => a.from - b.from);
      expect(ofStep.length).toBeGreaterThan(10);
      for (let i = 1; i < ofStep.length; i++) {
        expect(ofStep[i].from, `${name} run ${i} began before run ${i - 1} ended`).toBeGreaterThanOrEqual(
          ofStep[i - 1].to,
        );
      }
      // Taken in turn, not kept by whoever came first.
      expect(new Set(ofStep.map((r) => r.holder)).size).toBeGreaterThan(1);
    }
  }, 30_000);

  it('take over the step of a holder killed in the middle of it, once its lease runs out', async () => {
    const TTL_MS = 2_000;
    child = spawn(process.execPath, ['--input-type=module', '-e', holderScript(TTL_MS)], {
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl(database) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const store = stores[1];
    const deadline = Date.now() + 20_000;
    let running = undefined as string | null | undefined;
    while (running !== 'killed-holder') {
      if (Date.now() > deadline) throw new Error(`the holder never ran its step:\n${output}`);
      await sleep(100);
      running = (await store.pipeline.listPipelineSteps()).find((s) => s.step === 'test_long')?.running_holder;
    }
    let taken = 0;
    const other = new Pipeline({
      store,
      lease: storeLease(store),
      steps: [{ name: 'test_long', run: async () => ++taken }],
      intervalS: 60,
      holder: 'survivor',
      leaseTtlMs: TTL_MS,
    });
    // Alive, the holder renews its lease past its first run-out: the step stays its own.
    await sleep(TTL_MS + 500);
    expect(await other.runCycle()).toEqual({ test_long: 'held_elsewhere' });

    child.kill('SIGKILL');
    const killedAt = Date.now();
    let outcome = await other.runCycle();
    while (outcome.test_long === 'held_elsewhere' && Date.now() - killedAt < TTL_MS + 3_000) {
      await sleep(200);
      outcome = await other.runCycle();
    }
    expect(outcome).toEqual({ test_long: 'ran' });
    expect(Date.now() - killedAt).toBeLessThan(TTL_MS + 3_000);
    expect(taken).toBe(1);
    expect((await store.pipeline.listPipelineSteps()).find((s) => s.step === 'test_long')).toMatchObject({
      running_holder: null,
      last_success_at: expect.any(String),
    });
  }, 60_000);
});

/** A process running the compiled pipeline with one step that never ends, its lease renewed while it lives. */
function holderScript(ttlMs: number): string {
  const dist = (path: string) => JSON.stringify(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)));
  return `
import { openPostgresStore } from ${dist('store/postgres/postgres-store.js')};
import { storeLease } from ${dist('pipeline/lease.js')};
import { Pipeline } from ${dist('pipeline/pipeline.js')};
const store = openPostgresStore({ url: process.env.DATABASE_URL, poolSize: 2 });
const pipeline = new Pipeline({
  store, lease: storeLease(store), intervalS: 60, holder: 'killed-holder', leaseTtlMs: ${ttlMs},
  steps: [{ name: 'test_long', run: () => new Promise(() => {}) }],
});
pipeline.runCycle();
`;
}
