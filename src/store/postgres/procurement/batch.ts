/**
 * Per dialect: the bulk load (../../procurement/bulk-load.ts) — PostgreSQL's streams rows with COPY on the client
 * of the open transaction (../copy.ts), through a temporary table and one INSERT … ON CONFLICT when they replace
 * stored rows (SQLite's runs a prepared statement per row). New ids come from the table's identity sequence.
 * Its trigram indexes follow their tables: there are no full-text rows to keep.
 */
import type pg from 'pg';
import type { BulkLoad, BulkRow } from '../../procurement/bulk-load.js';
import { refuseUnstorable } from '../../sql/storable.js';
import { type CopyValue, copyRows, upsertRows } from '../copy.js';
import { sqlOn } from '../db.js';

export class PostgresBulkLoad implements BulkLoad {
  readonly #client: pg.PoolClient;

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  async newIds(table: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const rows = await sqlOn(this.#client)(
      `SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id FROM generate_series(1, $2)`,
      [table, count],
    );
    // Ascending: records get them in batch order, as SQLite's rowids.
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  async write(table: string, columns: readonly string[], rows: readonly BulkRow[], replaceOn?: string): Promise<void> {
    for (const row of rows) refuseUnstorable(row);
    const values = rows as readonly CopyValue[][];
    if (replaceOn === undefined) await copyRows(this.#client, table, columns, values);
    else await upsertRows(this.#client, table, columns, values, { key: replaceOn, replacing: true });
  }

  async indexText(): Promise<void> {}

  async unindexText(): Promise<void> {}
}
