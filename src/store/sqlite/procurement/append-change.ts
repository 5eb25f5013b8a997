/**
 * Journal entries of a bulk load (see ../../journal/journal.ts): one prepared INSERT per entry, no read, so the
 * million-contract load pays a rowid append per record and nothing else.
 */
import type { ChangeKind } from '../../signal-records.js';
import type { Sql } from './sql.js';

/** Appends one entry and returns its seq. */
export function appendChange(sql: Sql, kind: ChangeKind, id: number, key: string | null, date: string | null): number {
  const result = sql('INSERT INTO changes (kind, record_id, record_key, item_date) VALUES (?, ?, ?, ?)').run(kind, id, key, date || null);
  return Number(result.lastInsertRowid);
}
