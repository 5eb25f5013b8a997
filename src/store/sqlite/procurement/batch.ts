/**
 * Per dialect: the bulk load (../../procurement/bulk-load.ts) — SQLite's is one prepared statement per row,
 * bound by position, on the connection of the open transaction (PostgreSQL's is COPY). better-sqlite3 runs each
 * at once: a million-contract load pays a B-tree insert per row and little else, where a statement over a whole
 * batch as JSON would parse it first. Full-text rows go to the FTS5 table beside each record table (`<table>_fts`,
 * keyed by the record's rowid), from the search text the record holds.
 */

import type { BulkLoad, BulkRow, TextIndexed } from '../../procurement/bulk-load.js';
import type { SqlPort } from '../../sql/port.js';
import { setExcluded } from '../../sql/statements.js';
import { refuseUnstorable } from '../../sql/storable.js';
import { encodeValue, type SqlitePort } from '../connection.js';

export class SqliteBulkLoad implements BulkLoad {
  readonly #port: SqlitePort;
  /** The open transaction, for the statements with `$n` parameters. */
  readonly #tx: SqlPort;

  constructor(port: SqlitePort, tx: SqlPort) {
    this.#port = port;
    this.#tx = tx;
  }

  async newIds(table: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    // An INTEGER PRIMARY KEY without AUTOINCREMENT: SQLite gives a new row the largest id plus one.
    const { last } = this.#port.statement(`SELECT coalesce(max(id), 0) AS last FROM ${table}`).get() as {
      last: number;
    };
    return Array.from({ length: count }, (_, i) => last + 1 + i);
  }

  async write(table: string, columns: readonly string[], rows: readonly BulkRow[], replaceOn?: string): Promise<void> {
    if (rows.length === 0) return;
    for (const row of rows) refuseUnstorable(row);
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const statement = this.#port.statement(
      replaceOn === undefined ? insert : `${insert} ON CONFLICT (${replaceOn}) DO UPDATE SET ${setExcluded(columns)}`,
    );
    for (const row of rows) statement.run(row.map(encodeValue));
  }

  async indexText(table: TextIndexed, where: string, values: readonly unknown[]): Promise<void> {
    await this.#tx.run(
      `INSERT INTO ${table}_fts (rowid, text) SELECT id, search_text FROM ${table} WHERE ${where}`,
      values,
    );
  }

  async unindexText(table: TextIndexed, where: string, values: readonly unknown[]): Promise<void> {
    await this.#tx.run(`DELETE FROM ${table}_fts WHERE rowid IN (SELECT id FROM ${table} WHERE ${where})`, values);
  }
}
