/**
 * How a dialect puts many rows into a table at once: the one thing a procurement batch does differently per
 * database (docs/architecture.md, "The store"). SQLite runs one prepared statement per row (binding positional
 * values costs less than anything set-wise); PostgreSQL streams rows with COPY, through a temporary table when
 * some replace stored ones (../sqlite/procurement/batch.ts, ../postgres/procurement/batch.ts). What is written,
 * and when, is decided once, in ./batch-write.ts.
 */

/** The tables whose records have full-text rows of their own in some dialect (SQLite's FTS5 tables). */
export type TextIndexed = 'contracts' | 'announcements' | 'entities';

/** A row as written: one value per column, in the order of the columns given (lists and flags as JavaScript values). */
export type BulkRow = readonly unknown[];

export interface BulkLoad {
  /** Fresh ids for `count` new rows of `table`, ascending: those the table would give them, in that order. */
  newIds(table: 'contracts' | 'announcements' | 'amendments' | 'signals' | 'cases', count: number): Promise<number[]>;
  /**
   * Inserts rows; with `replaceOn`, a row whose value of that (unique) column is stored replaces the stored row. A
   * text holding a NUL is refused as the SQL port refuses it (../sql/storable.ts), before any row is written.
   */
  write(table: string, columns: readonly string[], rows: readonly BulkRow[], replaceOn?: string): Promise<void>;
  /**
   * Adds the full-text rows of the records of `table` that meet the condition `where` (its parameters bound to
   * `values`), as just written: SQLite's FTS5 tables; PostgreSQL's trigram indexes follow their tables.
   */
  indexText(table: TextIndexed, where: string, values: readonly unknown[]): Promise<void>;
  /** Deletes the full-text rows of the records of `table` that meet `where`: run it while they are still stored. */
  unindexText(table: TextIndexed, where: string, values: readonly unknown[]): Promise<void>;
}
