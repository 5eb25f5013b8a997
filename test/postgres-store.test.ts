/**
 * What only the PostgreSQL store has: its configuration, reads sent to a replica, instances that migrate at the
 * same moment, and an unreachable server reported as the dependency being unavailable. (Everything else it does
 * is checked by the whole suite, which runs on it with MUNIDATA_TEST_BACKEND=postgres.)
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { DependencyUnavailableError } from '../src/lib/dependency.js';
import { POSTGRES_MIGRATIONS } from '../src/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/postgres-store.js';
import type { AggregateQuery } from '../src/store/procurement-queries.js';
import { createDatabase, databaseUrl, dropDatabase, newDatabaseName, onPostgres } from './helpers/backend.js';
import { BUYERS, buildFixture } from './helpers/procurement-fixture.js';

describe('DATABASE_URL and DATABASE_READ_URL', () => {
  it('are read as the primary and the replica, and refused when malformed or alone', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/munidata',
      DATABASE_READ_URL: 'postgresql://u:p@replica/munidata',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/munidata',
      databaseReadUrl: 'postgresql://u:p@replica/munidata',
    });
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@db/x' })).toThrow(ConfigError);
    // The message names the variable, never the value (it may hold a password).
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@db/x' })).toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL$/,
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/x' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
  });
});

describe.runIf(onPostgres)('the PostgreSQL store', () => {
  const primary = newDatabaseName();
  const replica = newDatabaseName();
  const stores: PostgresStore[] = [];
  const open = (options: { url: string; readUrl?: string }) => {
    const store = openPostgresStore({ ...options, poolSize: 2 });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    await createDatabase(primary);
    await createDatabase(replica);
  });

  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => {});
    await dropDatabase(primary);
    await dropDatabase(replica);
  });

  it('migrates once when several instances start at the same moment', async () => {
    const instances = Array.from({ length: 4 }, () => open({ url: databaseUrl(primary) }));
    await Promise.all(instances.map((store) => migrate(store)));
    expect((await instances[0].listPlans()).map((p) => p.code)).toEqual(['free', 'premium', 'premium_indicators']);
    // A second round finds nothing to do.
    await Promise.all(instances.map((store) => store.migrate()));
    expect(await instances[1].countCpvs()).toBeGreaterThan(9000);
  });

  it('sends reads to the replica and writes to the primary', async () => {
    // A second database stands in for the replica: what is written on the primary is not seen there.
    const replicaStore = open({ url: databaseUrl(replica) });
    await migrate(replicaStore);
    // migrate seeds the municipalities in both; three are renamed on the replica only.
    await replicaStore.saveMunicipalities(
      readMunicipalities()
        .slice(0, 3)
        .map((m) => ({ ...m, name: `${m.name} (réplica)` })),
    );
    const store = open({ url: databaseUrl(primary), readUrl: databaseUrl(replica) });
    await store.saveMunicipalities(readMunicipalities());
    expect((await store.listMunicipalities()).filter((m) => m.name.endsWith('(réplica)'))).toHaveLength(3);
    const account = await store.createAccount({
      name: 'Primária Lda',
      plan_code: 'premium',
      beta: false,
      now: '2026-01-01T00:00:00Z',
    });
    expect(account.name).toBe('Primária Lda');
    expect(await store.getAccount(account.id)).toBeUndefined();
    expect(await open({ url: databaseUrl(primary) }).getAccount(account.id)).toMatchObject({ name: 'Primária Lda' });
    // Usage is read where it is written: the counters rebuild from it.
    await store.addUsage([{ accountId: account.id, period: '2026-01', count: 3 }]);
    expect(await store.getUsage(account.id, '2026-01')).toBe(3);
  });

  it('fills the set rollup from the contracts already stored when it migrates to it', async () => {
    const name = newDatabaseName();
    await createDatabase(name);
    const store = open({ url: databaseUrl(name) });
    try {
      await migrate(store);
      await store.saveMunicipalities(readMunicipalities());
      const [a, b, c] = BUYERS.slice(0, 3).map((m) => m.id);
      // Contracts in two and three municipalities; a price of half a cent shows the cents rounded as writes round them.
      const contracts = buildFixture({ contracts: 120, today: '2025-07-01' }).contracts.map((x, i) =>
        i % 5 === 1 ? { ...x, municipality_ids: [a, b, c], price_eur: i === 1 ? 0.125 : x.price_eur } : x,
      );
      await store.writeProcurement({ contracts });
      const questions: AggregateQuery[] = [
        { executedIn: [a, b], groupBy: ['month'] },
        { executedIn: [a, b, c], groupBy: ['year', 'cpv_division', 'procedure_type'], from: '2023-01-01' },
        { executedIn: [b, c], groupBy: [] },
      ];
      const answers = async () => Promise.all(questions.map((q) => store.aggregateContracts(q)));
      const written = await answers();
      const client = new pg.Client(databaseUrl(name));
      await client.connect();
      try {
        const contents = async () =>
          (
            await client.query(
              `SELECT s.members, r.month, r.cpv_division, r.procedure_type, r.count, r.total_cents,
                 array(SELECT m.municipality_id FROM municipality_set_members m WHERE m.set_id = s.id ORDER BY 1) AS ids
               FROM contract_set_rollups r JOIN municipality_sets s ON s.id = r.set_id ORDER BY 1, 2, 3, 4`,
            )
          ).rows;
        const kept = await contents();
        expect(kept.length).toBeGreaterThan(5);
        // A store from before the set rollup: its tables gone and its migration not applied.
        const version = POSTGRES_MIGRATIONS.find((m) => m.name === 'contract-municipality-sets')?.version;
        await client.query('DROP TABLE contract_set_rollups, municipality_set_members, municipality_sets');
        await client.query('DELETE FROM schema_migrations WHERE version = $1', [version]);
        await store.migrate();
        expect(await contents()).toEqual(kept);
      } finally {
        await client.end();
      }
      expect(await answers()).toEqual(written);
      // Writes go on from the filled tables: a set first seen now, and a contract leaving its set.
      const moved = [
        { ...contracts[1], municipality_ids: [a, c] },
        { ...contracts[2], municipality_ids: [b, c, a, BUYERS[3].id] },
      ];
      await store.writeProcurement({ contracts: moved });
      const now = [...moved, ...contracts.slice(3), contracts[0]];
      const inBoth = now.filter((x) => x.municipality_ids.includes(b) || x.municipality_ids.includes(c));
      expect((await store.aggregateContracts({ executedIn: [b, c], groupBy: [] })).totals.count).toBe(inBoth.length);
    } finally {
      await store.close();
      await dropDatabase(name);
    }
  });

  it('reports a server it cannot reach as the store being unavailable', async () => {
    const store = open({ url: 'postgres://postgres@127.0.0.1:1/nothing' });
    const failure = await store.listPlans().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DependencyUnavailableError);
    expect(failure).toMatchObject({ dependency: 'store' });
    await expect(store.savePlan((await open({ url: databaseUrl(primary) }).listPlans())[0])).rejects.toBeInstanceOf(
      DependencyUnavailableError,
    );
  });

  it('reports a statement that is wrong as what it is, not as an outage', async () => {
    const store = open({ url: databaseUrl(primary) });
    const failure = await store
      .createAccount({ name: 'x', plan_code: 'no-such-plan', beta: false, now: '2026-01-01T00:00:00Z' })
      .catch((e: unknown) => e);
    expect(failure).not.toBeInstanceOf(DependencyUnavailableError);
    expect(String(failure)).toMatch(/foreign key/i);
  });
});
