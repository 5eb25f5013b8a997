/**
 * Signals upserted by key inside the caller's transaction, as in the SQLite store (see its signal-write.ts): an
 * unchanged fingerprint is not touched; an inserted or changed signal appends a `signal` journal entry, is linked
 * to its case (created on first sight) and marks pending the case it joined and the one it left.
 */
import type { SignalCaseRef, SignalInput, SignalWriteSummary } from '../../signal-records.js';
import { SIGNAL_COLUMNS, signalFingerprint, signalRow } from '../../sqlite/signals/signal-rows.js';
import type { Sql } from '../db.js';
import { appendChanges } from './journal.js';

const WRITTEN = ['origin', 'fingerprint', ...SIGNAL_COLUMNS] as const;
const INSERT = `INSERT INTO signals (key, ${WRITTEN.join(', ')}, first_seen_at, last_seen_at)
  VALUES ($1, ${WRITTEN.map((_, i) => `$${i + 2}`).join(', ')}, $${WRITTEN.length + 2}, $${WRITTEN.length + 2}) RETURNING id`;
const UPDATE = `UPDATE signals SET ${WRITTEN.map((c, i) => `${c} = $${i + 1}`).join(', ')}, last_seen_at = $${WRITTEN.length + 1}
  WHERE id = $${WRITTEN.length + 2}`;

interface Stored {
  id: number;
  fingerprint: string;
  caseId: number | null;
}

export async function writeSignals(sql: Sql, signals: readonly SignalInput[], now: string): Promise<SignalWriteSummary> {
  const summary: SignalWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const stored = await storedSignals(
    sql,
    signals.map((s) => s.key),
  );
  const caseIds = new Map<string, number>();
  const today = now.slice(0, 10);
  for (const input of signals) {
    const row = signalRow(input);
    const fingerprint = signalFingerprint(input, row);
    const old = stored.get(input.key);
    if (old?.fingerprint === fingerprint) {
      summary.unchanged++;
      continue;
    }
    const values = WRITTEN.map((c) => (c === 'origin' ? input.origin : c === 'fingerprint' ? fingerprint : row[c]));
    let id: number;
    if (old) {
      id = old.id;
      await sql(UPDATE, [...values, now, id]);
      summary.updated++;
    } else {
      id = Number((await sql(INSERT, [input.key, ...values, now]))[0].id);
      summary.inserted++;
    }
    const [seq] = await appendChanges(sql, [{ kind: 'signal', id, key: null, date: today }]);
    const caseId = input.case ? await caseIdOf(sql, input.case, caseIds) : null;
    if (old?.caseId != null && old.caseId !== caseId) {
      await markPending(sql, old.caseId, seq);
      if (caseId === null) await sql('DELETE FROM case_links WHERE signal_id = $1', [id]);
    }
    if (input.case && caseId !== null) {
      await sql(
        `INSERT INTO case_links (signal_id, case_id, relationship) VALUES ($1, $2, $3)
         ON CONFLICT (signal_id) DO UPDATE SET case_id = excluded.case_id, relationship = excluded.relationship`,
        [id, caseId, input.case.relationship],
      );
      await markPending(sql, caseId, seq);
    }
    // A key met twice in one batch compares with what was just written.
    stored.set(input.key, { id, fingerprint, caseId });
  }
  return summary;
}

async function storedSignals(sql: Sql, keys: readonly string[]): Promise<Map<string, Stored>> {
  const rows = await sql(
    'SELECT s.id, s.key, s.fingerprint, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id WHERE s.key = ANY($1::text[])',
    [keys],
  );
  return new Map(
    rows.map((r) => [
      String(r.key),
      { id: Number(r.id), fingerprint: String(r.fingerprint), caseId: r.case_id === null ? null : Number(r.case_id) },
    ]),
  );
}

/** A case's id by key, created on first sight (never computed yet: listed once saveCases has written it). */
async function caseIdOf(sql: Sql, ref: SignalCaseRef, known: Map<string, number>): Promise<number> {
  let id = known.get(ref.key);
  if (id === undefined) {
    // Looked up before inserting: an insert that conflicts would use up an id.
    const [found] = await sql('SELECT id FROM cases WHERE key = $1', [ref.key]);
    const [row] = found
      ? [found]
      : await sql('INSERT INTO cases (key, type, family) VALUES ($1, $2, $3) RETURNING id', [ref.key, ref.type, ref.family]);
    id = Number(row.id);
    known.set(ref.key, id);
  }
  return id;
}

async function markPending(sql: Sql, caseId: number, seq: number): Promise<void> {
  await sql('UPDATE cases SET pending = $1 WHERE id = $2', [seq, caseId]);
}
