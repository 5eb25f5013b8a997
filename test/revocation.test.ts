/**
 * Revocation is immediate (docs/architecture.md, Revocation): `munidata keys revoke`, run in a process of its
 * own, and the key is refused at the very next request on every running instance and every channel — with the
 * key's grant cached on each of them a moment before. On PostgreSQL + Redis with two instances (the instances
 * hear it through LISTEN/NOTIFY), and on a SQLite file served by one instance (it reads the version each request).
 * Needs the build (dist/), as multi-instance.test.ts does.
 */
import { execFile } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../src/admin/accounts.js';
import { createKey } from '../src/admin/keys.js';
import { savePlan } from '../src/admin/plans.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { databaseUrl, dropDatabase, newDatabaseName, onPostgres } from './helpers/backend.js';
import { CHANNELS, dataRequest, fetchAnswer, isAdmitted } from './helpers/channels.js';
import { createDemoDatabase, type Instance, killInstances, requireBuild, startInstance } from './helpers/deployment.js';
import { deleteKeys, freePort, REDIS_URL, uniquePrefix } from './helpers/redis.js';
import { testDir } from './helpers/temp-dir.js';

const BIN = fileURLToPath(new URL('../bin/munidata.js', import.meta.url));
const BASE_URL = 'https://api.munidata.test';
const run = promisify(execFile);

/** A customer with one key: its id (to revoke) and its secret. */
async function keyOf(store: Store, plan: string) {
  await savePlan(store, plan, { api_access: true, domains: ['indicators'], raw_values: true }, 'create');
  const now = new Date();
  const account = await createAccount(store, { name: plan, plan }, now);
  const created = await createKey(store, { accountId: account.id }, now);
  return { id: created.key.id, secret: created.secret };
}

/**
 * Every channel of every instance answers the key (so each caches its grant), then `keys revoke` runs, then none does.
 */
async function revokeWhileCached(
  instances: Instance[],
  key: { id: number; secret: string },
  env: Record<string, string>,
) {
  for (const instance of instances) {
    for (const channel of CHANNELS) {
      const res = await fetchAnswer(`http://127.0.0.1:${instance.port}`, dataRequest(channel, key.secret));
      expect(isAdmitted(channel, res), `${channel} on ${instance.port}: ${res.body}`).toBe(true);
    }
  }
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'revoke', String(key.id)], {
    env: { PATH: process.env.PATH, ...env },
  });
  expect(stdout).toContain(`Revoked key ${key.id}`);
  for (const instance of instances) {
    for (const channel of CHANNELS) {
      const res = await fetchAnswer(`http://127.0.0.1:${instance.port}`, dataRequest(channel, key.secret));
      expect(res.status, `${channel} on ${instance.port}: ${res.body}`).toBe(401);
    }
  }
}

// Once per suite run: it uses PostgreSQL and Redis whatever the backend, like multi-instance.test.ts.
describe.runIf(onPostgres)('keys revoke, PostgreSQL + Redis, two instances', () => {
  const database = newDatabaseName();
  const prefix = uniquePrefix('revocation');
  let store: PostgresStore;
  const instances: Instance[] = [];

  beforeAll(async () => {
    requireBuild();
    store = await createDemoDatabase(database);
    const ports = [await freePort()];
    ports.push(await freePort());
    for (const port of ports)
      instances.push(
        await startInstance(port, { DATABASE_URL: databaseUrl(database), REDIS_PREFIX: prefix, BASE_URL }),
      );
  }, 120_000);

  afterAll(async () => {
    killInstances();
    await store?.close();
    await dropDatabase(database);
    await deleteKeys(prefix);
  });

  it('is refused at the very next request on every instance and channel', async () => {
    await revokeWhileCached(instances, await keyOf(store, 'revoked_pg'), {
      DATABASE_URL: databaseUrl(database),
      REDIS_URL,
    });
  });
});

describe.runIf(!onPostgres)('keys revoke, a SQLite file', () => {
  let dbPath: string;
  let store: Store;
  let instance: Instance;

  beforeAll(async () => {
    requireBuild();
    dbPath = join(testDir('munidata-revocation-'), 'served.db');
    copyFileSync(inject('demoDbPath'), dbPath);
    store = openSqliteStore(dbPath);
    instance = await startInstance(await freePort(), { MUNIDATA_DB: dbPath, REDIS_URL: '', BASE_URL });
  }, 120_000);

  afterAll(async () => {
    killInstances();
    await store?.close();
  });

  it('is refused at the very next request on every channel', async () => {
    await revokeWhileCached([instance], await keyOf(store, 'revoked_sqlite'), { MUNIDATA_DB: dbPath });
  });
});
