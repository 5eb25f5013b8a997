/**
 * The change journal and consumers' watermarks (see the SQLite store's journal.ts). Writers append inside their
 * transaction, after taking a transaction-level advisory lock: with several writers, entries then commit in seq
 * order, so a consumer that has read up to seq n never later finds an entry below n that committed after it read.
 */
import type { ChangeEntry, ChangeKind } from '../../signal-records.js';
import type { Sql } from '../db.js';

/** The advisory lock key of journal writers ('changes' as bytes). */
const JOURNAL_LOCK = '27980790367741299';

export interface Change {
  kind: ChangeKind;
  id: number;
  key: string | null;
  date: string | null;
}

/** Appends entries in the order given; returns their seqs. */
export async function appendChanges(sql: Sql, changes: readonly Change[]): Promise<number[]> {
  if (changes.length === 0) return [];
  await sql(`SELECT pg_advisory_xact_lock(${JOURNAL_LOCK}::bigint)`);
  const rows = await sql(
    `INSERT INTO changes (kind, record_id, record_key, item_date)
     SELECT kind, record_id, record_key, item_date FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[])
       WITH ORDINALITY AS c (kind, record_id, record_key, item_date, n) ORDER BY n
     RETURNING seq`,
    [changes.map((c) => c.kind), changes.map((c) => c.id), changes.map((c) => c.key), changes.map((c) => c.date || null)],
  );
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}

export async function readChanges(sql: Sql, afterSeq: number, limit: number): Promise<ChangeEntry[]> {
  const rows = await sql('SELECT seq, kind, record_id, record_key, item_date FROM changes WHERE seq > $1 ORDER BY seq LIMIT $2', [
    afterSeq,
    limit,
  ]);
  return rows.map((row) => ({
    seq: Number(row.seq),
    kind: row.kind as ChangeKind,
    id: Number(row.record_id),
    key: (row.record_key as string | null) ?? null,
    date: (row.item_date as string | null) ?? null,
  }));
}

export async function lastChangeSeq(sql: Sql): Promise<number> {
  const [row] = await sql('SELECT coalesce(max(seq), 0) AS seq FROM changes');
  return Number(row.seq);
}

export async function getWatermark(sql: Sql, name: string): Promise<string | null> {
  const [row] = await sql('SELECT value FROM watermarks WHERE name = $1', [name]);
  return row ? String(row.value) : null;
}

export async function setWatermark(sql: Sql, name: string, value: string): Promise<void> {
  await sql('INSERT INTO watermarks (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, value]);
}
