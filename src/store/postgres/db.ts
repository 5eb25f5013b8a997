/**
 * The connections of the PostgreSQL store: a pool on the primary (writes, migrations, and reads that must see
 * their own writes) and, when a replica address is given, a pool on it for every other read. Values come back
 * as JavaScript numbers (counts and sums are bigint or numeric in PostgreSQL), and a connection that fails is
 * reported as the dependency being unavailable, never as a bug of the request.
 */

import pg from 'pg';
import { DependencyUnavailableError } from '../../lib/dependency.js';
import { observePool } from '../../observability/store-observer.js';
import type { ColumnType, Dialect, SqlPort } from '../sql/port.js';
import { refuseUnstorable } from '../sql/storable.js';
import { isConnectionFailure, unavailableWhenUnreachable } from './failures.js';

export type Row = Record<string, unknown>;

/** Runs one statement (`$1`, `$2`, … bound to `values`) and gives its rows. */
export type Sql = (text: string, values?: readonly unknown[]) => Promise<Row[]>;

const INT8 = 20;
const NUMERIC = 1700;

/**
 * bigint and numeric as numbers: they only ever hold counts, ids and sums of cents or euros here, far below 2^53
 * (a sum of euros as a number is what SQLite gives too).
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (text: string) => (text === null ? null : Number(text));
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface Pools {
  readonly primary: pg.Pool;
  /** The replica's pool, or the primary's when no replica is configured. */
  readonly replica: pg.Pool;
}

/** How long a connection may take when no `timeoutMs` bounds the statements (the CLI's migrations and imports). */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How much longer than PostgreSQL's own `statement_timeout` the client waits for a statement's answer: enough for
 * the server's cancellation to arrive, so only a network that delivers nothing is given up on by the client.
 */
export const CANCEL_GRACE_MS = 1_000;

/**
 * Pools on the primary and, when given, the replica. With `timeoutMs` (a served request's bound; the CLI's long
 * loads and migrations go without), taking a connection waits at most that long, PostgreSQL cancels a statement
 * that runs longer (`statement_timeout`), and the client gives up `CANCEL_GRACE_MS` later on one whose answer has
 * not come (a stalled network never delivers the server's cancellation): each fails as the store being
 * unavailable (./failures.ts).
 */
export function openPools(url: string, readUrl?: string, poolSize = 10, timeoutMs?: number): Pools {
  const open = (connectionString: string) => {
    const pool = new pg.Pool({
      connectionString,
      types,
      max: poolSize,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: timeoutMs ?? CONNECT_TIMEOUT_MS,
      ...(timeoutMs !== undefined && { statement_timeout: timeoutMs, query_timeout: timeoutMs + CANCEL_GRACE_MS }),
      // Typo-tolerant lookups (`<%`) take names whose best-matching run shares this much of the text's
      // trigrams; pg_trgm's default (0.6) misses one typo in a short word ("lisbao" for "lisboa": 0.57).
      options: '-c pg_trgm.word_similarity_threshold=0.3',
    });
    // An idle client whose server went away emits 'error' on the pool; without a listener that ends the process.
    pool.on('error', () => {});
    return pool;
  };
  const primary = open(url);
  const replica = readUrl ? open(readUrl) : primary;
  observePool(primary, 'primary');
  if (replica !== primary) observePool(replica, 'replica');
  return { primary, replica };
}

export async function closePools(pools: Pools): Promise<void> {
  await pools.primary.end();
  if (pools.replica !== pools.primary) await pools.replica.end();
}

/** Statements through a pool or one client (a transaction), with connection failures translated. */
export function sqlOn(target: pg.Pool | pg.PoolClient): Sql {
  return async (text, values) => {
    refuseUnstorable(values);
    try {
      return (await target.query(text, values as unknown[])).rows;
    } catch (error) {
      throw unavailableWhenUnreachable(error);
    }
  };
}

/** A client taken from a pool for statements that must share one connection, and how to give it back. */
export interface CheckedOut {
  readonly client: pg.PoolClient;
  /** Back to the pool; destroyed instead when `failure` (what the work threw, if anything) is a lost connection. */
  release(failure?: unknown): void;
}

/**
 * One client of `pool`, for a transaction or a session lock. While a client is checked out the pool does not
 * listen to it, and a connection lost then (the server gone mid-transaction) is emitted as 'error' on the client:
 * with no listener, that ends the process. The listener here only keeps the process up; the statement running,
 * or the next one, fails on its own and is reported as the store being unavailable.
 */
export async function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw unavailableWhenUnreachable(error);
  }
  const onLost = () => {};
  client.on('error', onLost);
  return {
    client,
    release(failure) {
      client.removeListener('error', onLost);
      client.release(failure instanceof Error && isConnectionError(failure) ? failure : undefined);
    },
  };
}

/**
 * Runs `work` in one transaction on one client of the primary: committed when it returns, rolled back when it
 * throws. The client goes back to the pool either way (destroyed when the connection broke).
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (sql: Sql, client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { client, release } = await checkOut(pool);
  const sql = sqlOn(client);
  let broken: unknown;
  try {
    await sql('BEGIN');
    const result = await work(sql, client);
    await sql('COMMIT');
    return result;
  } catch (error) {
    broken = error;
    await rollBack(client, error);
    throw unavailableWhenUnreachable(error);
  } finally {
    release(broken);
  }
}

/**
 * Rolls back the open transaction after `failure`, unless the connection itself failed (lost, or a statement
 * given up on): then nothing would answer, and the connection, destroyed, ends the transaction with it.
 */
async function rollBack(client: pg.PoolClient, failure: unknown): Promise<void> {
  if (failure instanceof Error && isConnectionError(failure)) return;
  await client.query('ROLLBACK').catch(() => {});
}

/** PostgreSQL hands back lists as arrays and flags as booleans. */
export const POSTGRES_DIALECT: Dialect = {
  name: 'postgres',
  columns: {
    list: (value) => value as string[],
    flag: (value) => (value === null || value === undefined ? null : Boolean(value)),
  },
  inList: (expression, placeholder) => `${expression} = ANY(${placeholder})`,
  rows: (placeholder, columns) =>
    `(SELECT ${columns.map(([name, type], i) => `(e.v ->> ${i})::${PG_TYPES[type]} AS ${name}`).join(', ')}, e.n AS ord
      FROM jsonb_array_elements(CAST(${placeholder} AS jsonb)) WITH ORDINALITY AS e (v, n))`,
  turnLock: (key) => `SELECT pg_advisory_xact_lock(${BigInt(key)}::bigint)`,
  isTrue: (expression) => expression,
  indexed: (table, alias) => `${table} ${alias}`,
  unindexed: (column) => column,
  mergeOrdered: (arms, order, merged, limit, overlapping = false) =>
    arms.length === 1
      ? `${arms[0]} ORDER BY ${order} LIMIT ${limit}`
      : `${arms
          .map((arm) => `(${arm} ORDER BY ${order} LIMIT ${limit})`)
          .join(overlapping ? ' UNION ' : ' UNION ALL ')} ORDER BY ${merged} LIMIT ${limit}`,
  weighsIndexes: true,
};

const PG_TYPES: Record<ColumnType, string> = {
  text: 'text',
  integer: 'integer',
  bigint: 'bigint',
  real: 'double precision',
};

/**
 * The SQL port (../sql/port.ts) over a pool (each transaction on a client of its own) or over one client (a
 * session that holds a lock: its transactions run on it). `pg` takes booleans, arrays and null as they are.
 */
export function postgresPort(target: pg.Pool | pg.PoolClient): SqlPort {
  const sql = sqlOn(target);
  const port: SqlPort = {
    dialect: POSTGRES_DIALECT,
    query: sql,
    async run(text, values) {
      refuseUnstorable(values);
      try {
        return (await target.query(text, values as unknown[])).rowCount ?? 0;
      } catch (error) {
        throw unavailableWhenUnreachable(error);
      }
    },
    async script(text) {
      await sql(text);
    },
    transaction(work) {
      if (target instanceof pg.Pool) return inTransaction(target, (_sql, client) => work(insideTransaction(client)));
      return onClient(target, work);
    },
  };
  return port;
}

/** The port of a client inside a transaction: a transaction begun there joins the open one. */
export function insideTransaction(client: pg.PoolClient): SqlPort {
  const port: SqlPort = { ...postgresPort(client), transaction: (work) => work(port) };
  return port;
}

/** A transaction on a client held for a session (a migration under its lock). */
async function onClient<T>(client: pg.PoolClient, work: (tx: SqlPort) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(insideTransaction(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await rollBack(client, error);
    throw unavailableWhenUnreachable(error);
  }
}

function isConnectionError(error: Error): boolean {
  return error instanceof DependencyUnavailableError || isConnectionFailure(error);
}

export { containsPattern, Params, prefixPattern } from '../sql/params.js';
