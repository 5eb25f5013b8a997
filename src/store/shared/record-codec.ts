/**
 * A record's columns, written once: each field named with how its column is read back. The column list, the
 * read mapper, the values bound and the types a batch of rows binds them as (`Dialect.rows`) all follow from it,
 * and TypeScript checks the fields against the record type (a vocabulary such as `Stage` is read as its text).
 */
import type { ColumnType, SqlPort } from '../sql/port.js';
import { insertInto } from '../sql/statements.js';
import type { ColumnDecoding, Row } from './row-values.js';
import * as value from './row-values.js';

/**
 * How one column becomes its field (`decode`: how the dialect reads lists and flags back) and what a batch binds it as.
 */
export interface Column<T> {
  readonly read: (value: unknown, decode: ColumnDecoding) => T;
  /** None for lists and flags: a batch of rows (`Dialect.rows`) has no type for them. */
  readonly type: ColumnType | undefined;
  /** The field as bound (a JSON column's text; the adapters encode lists and flags themselves). */
  readonly write?: (field: T) => unknown;
}

const column = <T>(type: ColumnType | undefined, read: Column<T>['read'], write?: Column<T>['write']): Column<T> => ({
  read,
  type,
  write,
});

export const text = column('text', (v) => String(v));
export const textOrNull = column('text', value.textOrNull);
/** SQLite stores some unknown dates as '' (they order a list); the record has null. */
export const dateOrNull = column('text', value.dateOrNull);
export const int = column('integer', (v) => Number(v));
export const intOrNull = column('integer', value.numberOrNull);
export const number = column('real', (v) => Number(v));
export const numberOrNull = column('real', value.numberOrNull);
// A JSON column holds what its record type says, as JSON.parse gives it.
export const json = column<any>('text', (v) => JSON.parse(String(v)), JSON.stringify);
export const jsonOrNull = column<any>(
  'text',
  (v) => (v === null ? null : JSON.parse(String(v))),
  (field) => (field === null ? null : JSON.stringify(field)),
);
export const list = column(undefined, (v, decode) => decode.list(v));
/** A flag that is set or not (a null column is not set). */
export const flag = column(undefined, (v, decode) => decode.flag(v) === true);

/** A field's type as its column holds it: a vocabulary (a union of strings) is text. */
type Stored<T> = T extends string ? string : T extends readonly string[] ? string[] : T;

export type Columns<R> = { readonly [K in keyof R]-?: Column<Stored<R[K]>> };

export interface RecordCodec<R> {
  readonly fields: Columns<R>;
  /** The columns, in the order of the fields. */
  readonly columns: readonly (keyof R & string)[];
  /** The record of a row (fields in the codec's order). */
  read(row: Row, decode: ColumnDecoding): R;
  /** `read` for the rows of `port`'s database. */
  reader(port: Pick<SqlPort, 'dialect'>): (row: Row) => R;
  /** The records of a statement's rows. */
  all(port: SqlPort, sql: string, values?: readonly unknown[]): Promise<R[]>;
  /** The record of a statement's first row; undefined when it has none. */
  first(port: SqlPort, sql: string, values?: readonly unknown[]): Promise<R | undefined>;
  /** Inserts `record`'s `columns` into `table` and reads back the row as stored. */
  insert(port: SqlPort, table: string, record: object, columns: readonly (keyof R & string)[]): Promise<R>;
  /** As `insert`, but nothing when a row with the same `key` is there already. */
  insertNew(
    port: SqlPort,
    table: string,
    record: object,
    columns: readonly (keyof R & string)[],
    key: string,
  ): Promise<R | undefined>;
  /** The values of `columns` (each of the codec's) as bound, from a record or input that has those fields. */
  values(record: object, columns: readonly (keyof R & string)[]): unknown[];
  /** The columns but `except`. */
  except(...except: (keyof R & string)[]): (keyof R & string)[];
  /** These columns (all by default) with the types a batch of rows binds them as (`Dialect.rows`). */
  batch(columns?: readonly (keyof R & string)[]): [string, ColumnType][];
}

/**
 * Some of a codec's fields, each read as that codec reads it: the fields of a lighter read of the same rows (a
 * signal as its case or the alert matcher reads it), in the order given.
 */
export function pickColumns<R, K extends keyof R>(codec: RecordCodec<R>, ...keys: K[]): Pick<Columns<R>, K> {
  const picked = {} as Pick<Columns<R>, K>;
  for (const key of keys) picked[key] = codec.fields[key];
  return picked;
}

export function recordCodec<R>(fields: Columns<R>): RecordCodec<R> {
  const entries = Object.entries(fields) as [keyof R & string, Column<unknown>][];
  const read = objectReader<R>(entries);
  const codec: RecordCodec<R> = {
    fields,
    columns: entries.map(([name]) => name),
    read,
    reader: (port) => (row) => read(row, port.dialect.columns),
    all: async (port, sql, values) => (await port.query(sql, values)).map((row) => read(row, port.dialect.columns)),
    first: async (port, sql, values) => {
      const [row] = await port.query(sql, values);
      return row && read(row, port.dialect.columns);
    },
    insert: async (port, table, record, columns) =>
      read(
        (await port.query(`${insertInto(table, columns)} RETURNING *`, codec.values(record, columns)))[0],
        port.dialect.columns,
      ),
    insertNew: async (port, table, record, columns, key) =>
      codec.first(
        port,
        `${insertInto(table, columns)} ON CONFLICT (${key}) DO NOTHING RETURNING *`,
        codec.values(record, columns),
      ),
    values: (record, columns) =>
      columns.map((name) => {
        const field = (record as Record<string, unknown>)[name] ?? null;
        const { write } = fields[name] as Column<unknown>;
        return write ? write(field) : field;
      }),
    except: (...except) => entries.map(([name]) => name).filter((name) => !except.includes(name)),
    batch: (columns = entries.map(([name]) => name)) =>
      columns.map((name) => {
        const { type } = fields[name] as Column<unknown>;
        if (type === undefined)
          throw new Error(`recordCodec: ${name} is a list or a flag, which a batch of rows cannot bind`);
        return [name, type];
      }),
  };
  return codec;
}

/**
 * The read mapper, made once per codec as the object literal a hand-written mapper would be: measured over
 * 100 000 signal rows, a literal costs what the hand-written mapper did, while setting the fields one by one in
 * a loop cost 2.5 to 5 times as much (lists of contracts and signals map every row they serve).
 */
function objectReader<R>(entries: readonly [string, Column<unknown>][]): (row: Row, decode: ColumnDecoding) => R {
  for (const [name] of entries)
    if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`recordCodec: "${name}" is not a column name`);
  const fields = entries.map(([name], i) => `${name}: readers[${i}](row.${name}, decode)`);
  const make = new Function('readers', `return (row, decode) => ({ ${fields.join(', ')} });`);
  return make(entries.map(([, c]) => c.read));
}
