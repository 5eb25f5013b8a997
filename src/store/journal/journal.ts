/**
 * The change journal and consumers' watermarks, in every store (see JournalStore in ../store.ts). Writers append
 * inside their own transaction, after taking their turn (`dialect.turnLock`): with several writers, entries then
 * commit in seq order, so a consumer that has read up to seq n never later finds an entry below n that committed
 * after it read.
 */
import type { ChangeEntry, ChangeKind } from '../signal-records.js';
import type { SqlPort } from '../sql/port.js';

/** The turn-lock key of journal writers ('changes' as bytes). */
const JOURNAL_TURN = '27980790367741299';

export interface Change {
  kind: ChangeKind;
  id: number;
  key: string | null;
  date: string | null;
}

/**
 * Waits for the writers' turn, held until the transaction ends (a no-op where the database has one writer at a
 * time). Taken again in the same transaction, it is already held.
 */
export async function takeJournalTurn(tx: SqlPort): Promise<void> {
  const turn = tx.dialect.turnLock(JOURNAL_TURN);
  if (turn) await tx.run(turn);
}

/** Appends entries in the order given, in one statement; returns their seqs, ascending. */
export async function appendChanges(tx: SqlPort, changes: readonly Change[]): Promise<number[]> {
  if (changes.length === 0) return [];
  await takeJournalTurn(tx);
  const batch = tx.dialect.rows('$1', [
    ['kind', 'text'],
    ['record_id', 'integer'],
    ['record_key', 'text'],
    ['item_date', 'text'],
  ]);
  const rows = await tx.query(
    `INSERT INTO changes (kind, record_id, record_key, item_date)
     SELECT c.kind, c.record_id, c.record_key, c.item_date FROM ${batch} AS c WHERE true ORDER BY c.ord
     RETURNING seq`,
    [JSON.stringify(changes.map((c) => [c.kind, c.id, c.key, c.date || null]))],
  );
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}

export async function readChanges(
  port: SqlPort,
  afterSeq: number,
  limit: number,
  kinds?: readonly ChangeKind[],
): Promise<ChangeEntry[]> {
  return readWalk(port, 'forward', afterSeq, limit, kinds);
}

/**
 * Entries with seq < `beforeSeq`, newest first, at most `limit`; only of `kinds` when given. For a walk back from the
 * journal's end (the console's preview reads the latest items first).
 */
export async function readChangesBefore(
  port: SqlPort,
  beforeSeq: number,
  limit: number,
  kinds?: readonly ChangeKind[],
): Promise<ChangeEntry[]> {
  return readWalk(port, 'backward', beforeSeq, limit, kinds);
}

/** A walk's side of its seq and its order: forward after it, oldest first; backward before it, newest first. */
const WALKS = { forward: { side: '>', order: 'ASC' }, backward: { side: '<', order: 'DESC' } } as const;

async function readWalk(
  port: SqlPort,
  direction: keyof typeof WALKS,
  seq: number,
  limit: number,
  kinds: readonly ChangeKind[] | undefined,
): Promise<ChangeEntry[]> {
  const { side, order } = WALKS[direction];
  // The kinds are filtered by the database as it walks the journal: a detector of procurement records reads past a
  // million signal entries (its own writes) without a row of them reaching it.
  const rows = await port.query(
    `SELECT seq, kind, record_id, record_key, item_date FROM changes
     WHERE seq ${side} $1${kinds ? ` AND ${port.dialect.inList('kind', '$3')}` : ''} ORDER BY seq ${order} LIMIT $2`,
    kinds ? [seq, limit, kinds] : [seq, limit],
  );
  return rows.map(toEntry);
}

function toEntry(row: Record<string, unknown>): ChangeEntry {
  return {
    seq: Number(row.seq),
    kind: row.kind as ChangeKind,
    id: Number(row.record_id),
    key: (row.record_key as string | null) ?? null,
    date: (row.item_date as string | null) ?? null,
  };
}

export async function lastChangeSeq(port: SqlPort): Promise<number> {
  const [row] = await port.query('SELECT coalesce(max(seq), 0) AS seq FROM changes');
  return Number(row.seq);
}

export async function changesDatedBefore(
  port: SqlPort,
  date: string,
): Promise<{ count: number; first: string | null; last: string | null }> {
  const [row] = await port.query(
    `SELECT count(*) AS n, min(item_date) AS first, max(item_date) AS last FROM changes
     WHERE kind <> 'observation' AND item_date < $1`,
    [date],
  );
  return {
    count: Number(row.n),
    first: (row.first as string | null) ?? null,
    last: (row.last as string | null) ?? null,
  };
}

export async function getWatermark(port: SqlPort, name: string): Promise<string | null> {
  const [row] = await port.query('SELECT value FROM watermarks WHERE name = $1', [name]);
  return row ? String(row.value) : null;
}

export async function setWatermark(port: SqlPort, name: string, value: string): Promise<void> {
  await port.run(
    'INSERT INTO watermarks (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    [name, value],
  );
}
