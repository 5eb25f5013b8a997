/**
 * The access version on SQLite is read once for all the requests that asked for it in one turn of the event loop
 * (docs/architecture.md, Revocation). What a revocation relies on: the read a caller is given always starts after
 * it asked, so a key revoked before a request asked is seen by it, even by another connection to the file.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../src/admin/accounts.js';
import { createKey, revokeKey } from '../src/admin/keys.js';
import { migrate } from '../src/admin/migrate.js';
import { SharedRead } from '../src/store/sqlite/shared-read.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { testDir } from './helpers/temp-dir.js';

describe('SharedRead', () => {
  it('gives the callers of one turn one read, started after the last of them asked', async () => {
    let value = 1;
    let reads = 0;
    const shared = new SharedRead(() => {
      reads++;
      return value;
    });
    const first = shared.get();
    const second = shared.get();
    value = 2; // committed after both asked, before the read: both must see it
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(reads).toBe(1);
  });

  it('never hands a caller a read that was already under way when it asked', async () => {
    let value = 1;
    let later: Promise<number> | undefined;
    const shared = new SharedRead(() => {
      // A caller asking while the read runs (here, from inside it) is given the next read.
      later ??= shared.get();
      return value;
    });
    expect(await shared.get()).toBe(1);
    value = 2;
    expect(await later).toBe(2);
  });

  it('rejects the callers of a failed read and reads again for the next', async () => {
    let fail = true;
    const shared = new SharedRead(() => {
      if (fail) throw new Error('disk gone');
      return 7;
    });
    await expect(shared.get()).rejects.toThrow('disk gone');
    fail = false;
    expect(await shared.get()).toBe(7);
  });
});

describe('the SQLite access version', () => {
  const stores: SqliteStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it('moves for a request that asked before another connection revoked a key, and for every one after', async () => {
    const path = join(testDir(), 'revoke.db');
    const server = openSqliteStore(path);
    stores.push(server);
    await migrate(server);
    const cli = openSqliteStore(path); // another connection to the file, as `munidata keys revoke` opens
    stores.push(cli);
    const account = await createAccount(cli, { name: 'Revoked', plan: 'free' }, new Date());
    const { key } = await createKey(cli, { accountId: account.id }, new Date());

    const before = await server.accessVersion();
    const asked = server.accessVersion();
    await revokeKey(cli, key.id, new Date());
    expect(await asked).toBeGreaterThan(before);
    expect(await server.accessVersion()).toBe(await asked);
  });
});
