/**
 * The SQL port (../sql/port.ts) over one better-sqlite3 connection; per dialect: its connection and the way it
 * encodes values. better-sqlite3 is synchronous: each statement runs at once and its promise is already settled,
 * so the port costs a resolved promise per statement, not a thread hop (docs/architecture.md, "The store").
 *
 * One connection serves the whole process, so a transaction must keep other statements out while it is open
 * (they would see, or join, its writes): statements outside it wait until it ends.
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Dialect, Row, SqlPort } from '../sql/port.js';
import { refuseUnstorable } from '../sql/storable.js';
import { type RowMaker, rowMaker } from './row-maker.js';

/** A statement of the port's own queries: a read runs in raw mode and its rows are made by `row`. */
interface Prepared {
  statement: Database.Statement;
  row: RowMaker | undefined;
}

const columnNames = (statement: Database.Statement) => statement.columns().map((c) => c.name);

/** SQLite's lists are JSON text and its flags 0 or 1. */
export const SQLITE_DIALECT: Dialect = {
  name: 'sqlite',
  columns: {
    list: (value) => JSON.parse(String(value)),
    flag: (value) => (value === null || value === undefined ? null : value === 1),
  },
  inList: (expression, placeholder) => `${expression} IN (SELECT value FROM json_each(${placeholder}))`,
  // jsonb_each: each row is then binary JSON, which `->>` reads in place; json_each gives each row as text, which
  // every `->>` parses again (a batch of wide rows, as signals, took three to four times as long).
  rows: (placeholder, columns) =>
    `(SELECT ${columns.map(([name], i) => `value ->> ${i} AS ${name}`).join(', ')}, ` +
    `key AS ord FROM jsonb_each(${placeholder}))`,
  turnLock: () => undefined,
  isTrue: (expression) => `${expression} = 1`,
  indexed: (table, alias, index) => `${table} ${alias} INDEXED BY ${index}`,
  unindexed: (column) => `+${column}`,
  mergeOrdered: (arms, order, merged, limit, overlapping = false) =>
    arms.length === 1
      ? `${arms[0]} ORDER BY ${order} LIMIT ${limit}`
      : `${arms.join(overlapping ? ' UNION ' : ' UNION ALL ')} ORDER BY ${merged} LIMIT ${limit}`,
  weighsIndexes: false,
};

export function openSqliteDatabase(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // 64 MB of page cache (the default is 2 MB): bulk loads at a million contracts touch index pages all over.
  db.pragma('cache_size = -65536');
  // Pages read through a memory map (the first 2 GB of the file: the most this build of SQLite maps) rather than a
  // read() and a copy each: at a million contracts red flags and detection fetch pages all over a file larger than
  // the cache (red flags p50 9.1 → 5.2 ms; docs/deploy.md, "Node's memory").
  db.pragma('mmap_size = 2147418112');
  // A checkpoint (the WAL's pages copied into the file, then an fsync) every 64 MB of WAL rather than every 4 MB: a
  // detection run at a million contracts committed 3,300 batches and spent 145 s in their checkpoints, rewriting the
  // same index pages again and again.
  db.pragma('wal_autocheckpoint = 16384');
  return db;
}

type Bound = Record<number, unknown>;

/** `$1`, `$2`, … are parameters named "1", "2", … to SQLite: bound from an object keyed by position. */
function bind(values: readonly unknown[] | undefined): Bound | undefined {
  if (values === undefined || values.length === 0) return undefined;
  refuseUnstorable(values);
  const bound: Bound = {};
  for (let i = 0; i < values.length; i++) bound[i + 1] = encodeValue(values[i]);
  return bound;
}

/** A value as SQLite columns hold it: no list or boolean types, so a list is JSON text and a flag 0 or 1. */
export function encodeValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return JSON.stringify(value);
  return value;
}

export class SqlitePort implements SqlPort {
  readonly dialect = SQLITE_DIALECT;
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** The statements of `query` and `run`, apart from `statement`'s: a read among them is in raw mode. */
  readonly #prepared = new Map<string, Prepared>();
  /** Settles when the open transaction ends; undefined when none is open. */
  #open: Promise<void> | undefined;
  /** The port inside a transaction: the same connection, past the gate. */
  readonly #inside: SqlPort;

  constructor(db: Database.Database) {
    this.db = db;

    this.#inside = {
      dialect: SQLITE_DIALECT,
      query: async (text, values) => this.#all(text, values),
      run: async (text, values) => this.#run(text, values),
      script: async (text) => {
        this.db.exec(text);
      },
      transaction: (work) => work(this.#inside),
    };
  }

  /**
   * The prepared statement for this text, from a cache: preparing is the costly part of a query. The cache is
   * by text, so SQL with a variable number of placeholders belongs in `dialect.inList`, not in the text.
   */
  statement(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  /** A transaction holds the connection: a statement run now, outside it, would see its uncommitted writes. */
  get busy(): boolean {
    return this.#open !== undefined;
  }

  /** `statement`'s, for the port's own queries: a read is put in raw mode with the maker of its rows. */
  #prepare(text: string): Prepared {
    let prepared = this.#prepared.get(text);
    if (!prepared) {
      const statement = this.db.prepare(text);
      const row = statement.reader ? rowMaker(columnNames(statement.raw(true))) : undefined;
      prepared = { statement, row };
      this.#prepared.set(text, prepared);
    }
    return prepared;
  }

  #all(text: string, values: readonly unknown[] | undefined): Row[] {
    const { statement, row } = this.#prepare(text);
    const bound = bind(values);
    if (!row) {
      if (bound) statement.run(bound);
      else statement.run();
      return [];
    }
    const rows = (bound ? statement.all(bound) : statement.all()) as unknown[][];
    const made: Row[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) made[i] = row(rows[i]);
    return made;
  }

  #run(text: string, values: readonly unknown[] | undefined): number {
    const { statement } = this.#prepare(text);
    const bound = bind(values);
    if (statement.reader) return (bound ? statement.all(bound) : statement.all()).length;
    return (bound ? statement.run(bound) : statement.run()).changes;
  }

  async query(text: string, values?: readonly unknown[]): Promise<Row[]> {
    while (this.#open) await this.#open;
    return this.#all(text, values);
  }

  async run(text: string, values?: readonly unknown[]): Promise<number> {
    while (this.#open) await this.#open;
    return this.#run(text, values);
  }

  async script(text: string): Promise<void> {
    while (this.#open) await this.#open;
    this.db.exec(text);
  }

  async transaction<T>(work: (tx: SqlPort) => Promise<T>): Promise<T> {
    while (this.#open) await this.#open;
    let end = () => {};
    this.#open = new Promise((resolve) => {
      end = resolve;
    });
    try {
      // IMMEDIATE: the write lock taken at the start, waited for up to busy_timeout. A deferred transaction that
      // reads before it writes fails at once ("database is locked", SQLITE_BUSY_SNAPSHOT) when another process — a
      // serve's pipeline beside a CLI import — commits between its read and its first write.
      this.statement('BEGIN IMMEDIATE').run();
      try {
        const result = await work(this.#inside);
        this.statement('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.statement('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.#open = undefined;
      end();
    }
  }

  close(): void {
    this.db.close();
  }
}
