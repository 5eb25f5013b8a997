/**
 * The SQL port every behaviour of the store is written once over (src/store/sql/port.ts), and the migrations
 * written once (src/store/sql/migration.ts), on the backend of the run: the same statements, the same answers.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SCHEMA } from '../src/store/postgres/migrate.js';
import { POSTGRES_TYPES } from '../src/store/postgres/migrations.js';
import {
  applyMigrations,
  FIRST_SHARED_VERSION,
  migrationsFor,
  type SharedMigration,
} from '../src/store/sql/migration.js';
import { SHARED_MIGRATIONS } from '../src/store/sql/migrations.js';
import { Params } from '../src/store/sql/params.js';
import type { SqlPort } from '../src/store/sql/port.js';
import type { SqlitePort } from '../src/store/sqlite/connection.js';
import { SQLITE_TYPES } from '../src/store/sqlite/migrations.js';
import { SQLITE_SCHEMA } from '../src/store/sqlite/sqlite-store.js';
import { onPostgres, openTestPort } from './helpers/backend.js';

/** A table such as the next issues add: written once, with the dialect's column types. */
const NOTES: SharedMigration = {
  version: 100,
  name: 'notes',
  sql: (t) => `
CREATE TABLE meta (key ${t.key} PRIMARY KEY, value ${t.text} NOT NULL);
CREATE TABLE notes (
  id      ${t.id},
  title   ${t.key} NOT NULL UNIQUE,
  pinned  ${t.flag} NOT NULL DEFAULT false,
  tags    ${t.list} NOT NULL,
  weight  ${t.real},
  total   ${t.bigint} NOT NULL DEFAULT 0
);`,
};

describe('the SQL port', () => {
  let port: SqlPort;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ port, close } = await openTestPort());
    const migrations = migrationsFor([], [NOTES], onPostgres ? POSTGRES_TYPES : SQLITE_TYPES);
    await applyMigrations(port, migrations, () => '2026-11-24T00:00:00.000Z');
    // Applied once: a second run finds it recorded.
    await applyMigrations(port, migrations, () => '2026-11-25T00:00:00.000Z');
  });

  afterAll(async () => close());

  it('applies a migration written once, records it once and seeds the data version', async () => {
    expect(await port.query('SELECT version, name, applied_at FROM schema_migrations')).toEqual([
      { version: 100, name: 'notes', applied_at: '2026-11-24T00:00:00.000Z' },
    ]);
    expect(await port.query("SELECT value FROM meta WHERE key = 'data_version'")).toEqual([{ value: '1' }]);
  });

  it('binds flags and lists and reads them back through the dialect', async () => {
    const [row] = await port.query(
      'INSERT INTO notes (title, pinned, tags, weight) VALUES ($1, $2, $3, $4) RETURNING id',
      ['first', true, ['a', 'b'], 1.5],
    );
    expect(row.id).toBe(1);
    await port.run('INSERT INTO notes (title, tags) VALUES ($1, $2)', ['second', []]);
    const rows = await port.query('SELECT id, title, pinned, tags, weight, total FROM notes ORDER BY id');
    const { columns } = port.dialect;
    expect(rows.map((r) => ({ ...r, pinned: columns.flag(r.pinned), tags: columns.list(r.tags) }))).toEqual([
      { id: 1, title: 'first', pinned: true, tags: ['a', 'b'], weight: 1.5, total: 0 },
      { id: 2, title: 'second', pinned: false, tags: [], weight: null, total: 0 },
    ]);
  });

  it('counts the rows a statement changed, and matches a list bound as one parameter', async () => {
    expect(await port.run('UPDATE notes SET total = total + 1 WHERE title = $1', ['nothing'])).toBe(0);
    const p = new Params();
    const where = port.dialect.inList('title', p.add(['first', 'second', 'third']));
    expect(await port.run(`UPDATE notes SET total = total + ${p.add(2)} WHERE ${where}`, p.values)).toBe(2);
    expect((await port.query('SELECT sum(total) AS s FROM notes'))[0].s).toBe(4);
  });

  it('reads a batch of rows bound as one parameter, in the order given', async () => {
    const p = new Params();
    const batch = port.dialect.rows(
      p.add(
        JSON.stringify([
          ['third', 3, 0.5],
          ['fourth', null, null],
        ]),
      ),
      [
        ['title', 'text'],
        ['total', 'integer'],
        ['weight', 'real'],
      ],
    );
    expect(await port.query(`SELECT title, total, weight FROM ${batch} AS r ORDER BY ord`, p.values)).toEqual([
      { title: 'third', total: 3, weight: 0.5 },
      { title: 'fourth', total: null, weight: null },
    ]);
    // An INSERT … SELECT with ON CONFLICT needs `WHERE true` in SQLite (the parser would read ON as a join's).
    const upsert = `INSERT INTO notes (title, tags, total) SELECT r.title, $2, r.total FROM ${port.dialect.rows('$1', [
      ['title', 'text'],
      ['total', 'integer'],
    ])} AS r WHERE true ORDER BY r.ord ON CONFLICT (title) DO UPDATE SET total = notes.total + excluded.total`;
    await port.run(upsert, [
      JSON.stringify([
        ['first', 1],
        ['third', 1],
      ]),
      [],
    ]);
    expect(await port.query('SELECT title, total FROM notes ORDER BY id')).toEqual([
      { title: 'first', total: 3 },
      { title: 'second', total: 2 },
      { title: 'third', total: 1 },
    ]);
    await port.run("DELETE FROM notes WHERE title = 'third'");
    await port.run('UPDATE notes SET total = 0');
  });

  it('commits a transaction, and rolls all of it back when its work throws', async () => {
    await port.transaction(async (tx) => {
      await tx.run("UPDATE notes SET total = 10 WHERE title = 'first'");
      // A transaction begun inside joins it.
      await tx.transaction((inner) => inner.run("UPDATE notes SET total = 20 WHERE title = 'second'"));
    });
    await expect(
      port.transaction(async (tx) => {
        await tx.run("UPDATE notes SET total = 99 WHERE title = 'first'");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await port.query('SELECT title, total FROM notes ORDER BY id')).toEqual([
      { title: 'first', total: 10 },
      { title: 'second', total: 20 },
    ]);
  });

  it('keeps a transaction’s writes from other statements until it commits', async () => {
    if (onPostgres) {
      // Another statement runs on another connection at once, and reads the row as last committed.
      await port.transaction(async (tx) => {
        await tx.run("UPDATE notes SET title = 'renamed' WHERE id = 1");
        expect(await port.query('SELECT title FROM notes WHERE id = 1')).toEqual([{ title: 'first' }]);
      });
    } else {
      // SQLite has one connection: a statement outside the transaction waits for its end, then sees its writes.
      let seenOutside: unknown;
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let outside: Promise<void> = Promise.resolve();
      const transaction = port.transaction(async (tx) => {
        await tx.run("UPDATE notes SET title = 'renamed' WHERE id = 1");
        outside = port.query('SELECT title FROM notes WHERE id = 1').then((rows) => {
          seenOutside = rows[0].title;
        });
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seenOutside).toBeUndefined();
      release();
      await transaction;
      await outside;
      expect(seenOutside).toBe('renamed');
    }
    expect(await port.query('SELECT title FROM notes WHERE id = 1')).toEqual([{ title: 'renamed' }]);
  });
});

// SQLite alone: PostgreSQL's transactions take row locks as they write, and its readers never fail a writer.
describe.skipIf(onPostgres)('a SQLite transaction beside another process', () => {
  it('holds the write lock from its start: another writer waits; its own write after a read never fails', async () => {
    const { port, close } = await openTestPort();
    const sqlite = port as SqlitePort;
    const other = new Database(sqlite.db.name, { timeout: 0 }); // another process's connection, not waiting
    try {
      await port.script('CREATE TABLE t (v INTEGER)');
      await port.transaction(async (tx) => {
        await tx.query('SELECT count(*) AS n FROM t');
        // A deferred transaction would let this commit, then fail its own write at once ("database is locked").
        expect(() => other.prepare('INSERT INTO t (v) VALUES (2)').run()).toThrow(/locked|busy/i);
        await tx.run('INSERT INTO t (v) VALUES (1)');
      });
      expect(other.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }]);
    } finally {
      other.close();
      await close();
    }
  });
});

describe.skipIf(onPostgres)('SQLite rows read in raw mode', () => {
  it('are the objects better-sqlite3 itself gives: same keys, same order, a repeated name the last', async () => {
    const { port, close } = await openTestPort();
    const sqlite = port as SqlitePort;
    try {
      await port.script(
        "CREATE TABLE r (a INTEGER, b TEXT, c REAL); INSERT INTO r VALUES (1, 'x', 1.5), (2, NULL, NULL)",
      );
      for (const text of [
        'SELECT * FROM r ORDER BY a',
        'SELECT a, b AS a, c FROM r ORDER BY a',
        'SELECT count(*) AS n, \'z\' AS "odd name", NULL AS absent FROM r',
        'SELECT * FROM r WHERE a > 5',
      ]) {
        const own = sqlite.db.prepare(text).all();
        const read = await port.query(text);
        expect(read).toEqual(own);
        expect(read.map((row) => Object.keys(row))).toEqual(own.map((row) => Object.keys(row as object)));
      }
      // A column named __proto__ is a property of the row, as in better-sqlite3's, not the row's prototype.
      const [row] = await port.query('SELECT 1 AS __proto__, 2 AS b');
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.entries(row)).toEqual([
        ['__proto__', 1],
        ['b', 2],
      ]);
      expect(await port.run('SELECT * FROM r')).toBe(2);
    } finally {
      await close();
    }
  });
});

describe('the migrations', () => {
  it('are the dialect ones below version 100 and the ones written once from 100 on, each version once', () => {
    for (const schema of [SQLITE_SCHEMA, POSTGRES_SCHEMA]) {
      const versions = schema.map((m) => m.version);
      expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
      expect(versions.filter((v) => v >= FIRST_SHARED_VERSION)).toEqual(SHARED_MIGRATIONS.map((m) => m.version));
    }
    expect(SQLITE_SCHEMA.filter((m) => m.version < FIRST_SHARED_VERSION).length).toBeGreaterThan(0);
    expect(() => migrationsFor([{ version: 100, name: 'a', sql: '' }], [NOTES], SQLITE_TYPES)).toThrow(/same version/);
  });
});
