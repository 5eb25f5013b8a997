/**
 * The one SQL port both stores implement (docs/architecture.md, "The store"): statements with positional
 * parameters (`$1`, `$2`, …, as PostgreSQL writes them; SQLite reads `$1` as a parameter named "1"), rows as
 * plain objects, transactions, and the few facts of the dialect that SQL written once needs. Every behaviour of
 * the store is written once over it; only full-text search, bulk loads, migrations and connections are per dialect.
 *
 * Values bound: strings, numbers, null (undefined is null), booleans and lists of strings or numbers. Each adapter
 * encodes booleans and lists the way its columns hold them (0/1 and JSON text in SQLite; boolean and arrays in
 * PostgreSQL); `dialect.columns` reads them back.
 */
import type { ColumnDecoding, Row } from '../shared/row-values.js';

export type { Row } from '../shared/row-values.js';

export interface SqlPort {
  readonly dialect: Dialect;
  /** Runs one statement and gives its rows (none for a statement without a result or RETURNING). */
  query(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /** Runs one statement and gives how many rows it inserted, updated or deleted. */
  run(text: string, values?: readonly unknown[]): Promise<number>;
  /** Runs several statements without parameters (a migration). */
  script(text: string): Promise<void>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it rejects. Statements of the
   * transaction go through the port `work` is given; a transaction begun inside it joins it. No other statement
   * of this store sees the transaction's writes before it commits.
   */
  transaction<T>(work: (tx: SqlPort) => Promise<T>): Promise<T>;
}

/** What SQL written once needs to know of the database it runs on. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Lists and flags as read back (JSON text and 0/1 in SQLite, arrays and booleans in PostgreSQL). */
  readonly columns: ColumnDecoding;
  /**
   * A condition: `expression` is one of the values of the list bound at `placeholder` (`p.add(list)`). The SQL
   * text stays the same whatever the list's length, so its prepared statement is reused.
   */
  inList(expression: string, placeholder: string): string;
  /**
   * A table of rows bound as one parameter, for one statement over a whole batch (a FROM item; give it an alias):
   * bind `JSON.stringify(rows)`, each row an array of values in the order of `columns`. Besides the columns it
   * has `ord`, the row's position in the batch.
   */
  rows(placeholder: string, columns: readonly (readonly [name: string, type: ColumnType])[]): string;
  /**
   * A statement that makes this transaction wait for any other transaction that ran it with the same `key`
   * (a 64-bit integer), until that one ends: writers that must commit in turn. None in SQLite, whose write
   * transactions already take turns.
   */
  turnLock(key: string): string | undefined;
  /** A condition: the flag column `expression` is true (as its partial indexes state it: `= 1` in SQLite). */
  isTrue(expression: string): string;
  /**
   * A FROM item: `table` under `alias`, read through `index` where the planner must be told (SQLite's INDEXED BY,
   * so that it never trades a keyset list's order for another range); PostgreSQL plans it itself.
   */
  indexed(table: string, alias: string, index: string): string;
  /**
   * A column as an operand no index may serve (SQLite's unary `+`), where SQLite would otherwise pick the wrong
   * index for a lookup; PostgreSQL weighs its indexes itself.
   */
  unindexed(column: string): string;
  /**
   * One page of a list merged from arms, each a SELECT read in the list's order from its own index: `order` is
   * the arm's ORDER BY, `merged` the same over the arms' output columns. SQLite merges a compound lazily when
   * only the compound is ordered; PostgreSQL wants each arm ordered and cut to plan a Merge Append. With
   * `overlapping`, arms may yield the same row (a contract in two of the municipalities asked): it is kept once.
   */
  mergeOrdered(arms: readonly string[], order: string, merged: string, limit: string, overlapping?: boolean): string;
  /**
   * Whether the planner itself weighs a bounded set from another index (a price range, the text index's matches)
   * against walking a keyset list's order, from its statistics (PostgreSQL). When it does not (SQLite, whose lists
   * name their index), a list counts such a set, up to a cap, and starts from it when it is small.
   */
  readonly weighsIndexes: boolean;
}

/** The types a batch of rows (`Dialect.rows`) reads its values as. */
export type ColumnType = 'text' | 'integer' | 'bigint' | 'real';

/** The ports of one store: the primary for writes and reads that must see them, and the replica for other reads. */
export interface SqlPorts {
  readonly primary: SqlPort;
  /** The primary when there is no replica (always, in SQLite). */
  readonly replica: SqlPort;
}
