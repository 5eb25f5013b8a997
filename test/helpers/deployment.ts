/**
 * A scale-out deployment as the tests run it, whatever MUNIDATA_TEST_BACKEND says: a PostgreSQL database of its
 * own (migrated, with a small demo), real server processes (`munidata serve`, the compiled CLI) configured as the
 * instances of one deployment are, and customers on plans of the test's own. Needs the build (dist/), as
 * quickstart.test.ts does: `npm test` builds first.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createAccount } from '../../src/admin/accounts.js';
import { createKey } from '../../src/admin/keys.js';
import { migrate } from '../../src/admin/migrate.js';
import { type PlanChanges, savePlan } from '../../src/admin/plans.js';
import { loadDemoData } from '../../src/demo/load-demo.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { Store } from '../../src/store/store.js';
import { createDatabase, databaseUrl } from './backend.js';
import { REDIS_URL } from './redis.js';

const DIST_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface Instance {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: { stdout: string; stderr: string };
}

/** Every server process started, listening or not: none outlives the test file. */
const children = new Set<ChildProcess>();

// Should the worker be torn down without its afterAll, the servers go with it.
process.once('exit', killInstances);

export function killInstances(): void {
  for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
}

/** Neither exited nor killed (a killed process has no exit code, only a signal). */
export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Throws, saying what to do, when the CLI has not been built. */
export function requireBuild(): void {
  if (!existsSync(DIST_MAIN)) {
    throw new Error(`${DIST_MAIN} is missing: build the CLI first (npm run build), or run the tests with npm test`);
  }
}

/**
 * Creates database `name` (it should carry the run's prefix, see backend.ts, so that the global teardown drops
 * it should the file crash), migrates it and loads a small demo: the indicators, and a few contracts. Detection
 * is not run. The store returned is on the server itself, with few connections.
 */
export async function createDemoDatabase(name: string): Promise<PostgresStore> {
  await createDatabase(name);
  const store = openPostgresStore({ url: databaseUrl(name), poolSize: 2 });
  await migrate(store);
  await loadDemoData(store, { seed: 42, contracts: 100 });
  return store;
}

/**
 * `munidata serve --no-demo` on `port`, configured with only what a deployment sets (nothing inherited that could
 * name another store or Redis): `env` (DATABASE_URL, REDIS_PREFIX, BASE_URL, …) over the shared Redis, 127.0.0.1
 * and warnings only. Resolves once it listens.
 */
export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [DIST_MAIN, 'serve', '--no-demo', '--port', String(port)], {
    env: { PATH: process.env.PATH, REDIS_URL, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const instance: Instance = { child, port, output: { stdout: '', stderr: '' } };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    instance.output.stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    instance.output.stderr += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!/listening on /.test(instance.output.stdout)) {
    if (!isRunning(child) || Date.now() > deadline) {
      throw new Error(`instance on port ${port} did not start:\n${instance.output.stdout}\n${instance.output.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return instance;
}

/** `munidata ARGS` of the build, with `env` only (the store it names): its stdout; rejects on a non-zero exit. */
export async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [DIST_MAIN, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
  });
  return stdout;
}

/** A plan of the test's own with the given limits, an account on it, and a key. */
export async function customer(store: Store, plan: string, limits: PlanChanges) {
  await savePlan(store, plan, { api_access: true, domains: ['indicators'], raw_values: true, ...limits }, 'create');
  const now = new Date();
  const account = await createAccount(store, { name: plan, plan }, now);
  return { accountId: account.id, key: (await createKey(store, { accountId: account.id }, now)).secret };
}
