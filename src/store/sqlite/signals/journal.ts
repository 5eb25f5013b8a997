/**
 * The change journal and consumers' watermarks. Writers append in their own transaction, one entry per record
 * they inserted or changed, with one prepared INSERT per entry (no read): the million-contract load pays a
 * rowid append per contract and nothing else.
 */
import type { ChangeEntry, ChangeKind } from '../../signal-records.js';
import type { Row, Sql } from '../procurement/sql.js';

/** Appends one entry and returns its seq. */
export function appendChange(sql: Sql, kind: ChangeKind, id: number, key: string | null, date: string | null): number {
  const result = sql('INSERT INTO changes (kind, record_id, record_key, item_date) VALUES (?, ?, ?, ?)').run(kind, id, key, date || null);
  return Number(result.lastInsertRowid);
}

export function readChanges(sql: Sql, afterSeq: number, limit: number): ChangeEntry[] {
  const rows = sql('SELECT seq, kind, record_id, record_key, item_date FROM changes WHERE seq > ? ORDER BY seq LIMIT ?').all(
    afterSeq,
    limit,
  ) as Row[];
  return rows.map((row) => ({
    seq: Number(row.seq),
    kind: row.kind as ChangeKind,
    id: Number(row.record_id),
    key: (row.record_key as string | null) ?? null,
    date: (row.item_date as string | null) ?? null,
  }));
}

export function lastChangeSeq(sql: Sql): number {
  return Number((sql('SELECT coalesce(max(seq), 0) AS seq FROM changes').get() as Row).seq);
}

export function getWatermark(sql: Sql, name: string): string | null {
  const row = sql('SELECT value FROM watermarks WHERE name = ?').get(name) as Row | undefined;
  return row ? String(row.value) : null;
}

export function setWatermark(sql: Sql, name: string, value: string): void {
  sql('INSERT INTO watermarks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(name, value);
}

/**
 * The municipalities whose observations of one indicator a write changed (written or removed), with the latest
 * reference date changed for each: one `observation` entry per municipality, not one per point.
 */
export class ObservationChanges {
  readonly #latest = new Map<number, string>();

  touch(municipalityId: number, referenceDate: string): void {
    const latest = this.#latest.get(municipalityId);
    if (latest === undefined || referenceDate > latest) this.#latest.set(municipalityId, referenceDate);
  }

  append(sql: Sql, indicator: string): void {
    for (const [municipalityId, date] of this.#latest) appendChange(sql, 'observation', municipalityId, indicator, date);
  }
}
