/**
 * Signals upserted by key, inside the caller's transaction. A signal whose fingerprint is unchanged is not
 * touched: no write, no journal entry, no pending mark — so writing the same input twice changes nothing the
 * second time. An inserted or changed one appends a `signal` journal entry, is linked to its case (created on
 * first sight; a signal is in at most one case, so a changed case key moves it) and marks pending the case it
 * joined and the one it left, with the seq of that journal entry.
 */

import { SIGNAL_COLUMNS, signalFingerprint, signalRow } from '../../shared/signal-rows.js';
import type { SignalCaseRef, SignalInput, SignalWriteSummary } from '../../signal-records.js';
import { jsonList, type Row, type Sql } from '../procurement/sql.js';
import { appendChange } from './journal.js';

const WRITTEN = ['origin', 'fingerprint', ...SIGNAL_COLUMNS] as const;
// Positional parameters, as for contracts: binding two dozen values by name costs more than the insert.
const INSERT = `INSERT INTO signals (key, ${WRITTEN.join(', ')}, first_seen_at, last_seen_at)
  VALUES (?, ${WRITTEN.map(() => '?').join(', ')}, ?, ?)`;
const UPDATE = `UPDATE signals SET ${WRITTEN.map((c) => `${c} = ?`).join(', ')}, last_seen_at = ? WHERE id = ?`;

interface Stored {
  id: number;
  fingerprint: string;
  caseId: number | null;
  relationship: string | null;
}

export function writeSignals(sql: Sql, signals: readonly SignalInput[], now: string): SignalWriteSummary {
  const summary: SignalWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const stored = storedSignals(
    sql,
    signals.map((s) => s.key),
  );
  const cases = new CaseKeys(sql);
  // The mark of each case touched, written once per case at the end (the seq of its latest change).
  const marks = new Map<number, number>();
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
      sql(UPDATE).run(...values, now, id);
      summary.updated++;
    } else {
      id = Number(sql(INSERT).run(input.key, ...values, now, now).lastInsertRowid);
      summary.inserted++;
    }
    const seq = appendChange(sql, 'signal', id, null, today);
    const caseId = input.case ? cases.idOf(input.case) : null;
    const relationship = input.case?.relationship ?? null;
    if (old?.caseId != null && old.caseId !== caseId) {
      marks.set(old.caseId, seq);
      if (caseId === null) sql('DELETE FROM case_links WHERE signal_id = ?').run(id);
    }
    if (caseId !== null) {
      if (old?.caseId !== caseId || old.relationship !== relationship) {
        sql(
          `INSERT INTO case_links (signal_id, case_id, relationship) VALUES (?, ?, ?)
           ON CONFLICT (signal_id) DO UPDATE SET case_id = excluded.case_id, relationship = excluded.relationship`,
        ).run(id, caseId, relationship);
      }
      marks.set(caseId, seq);
    }
    // A key met twice in one batch compares with what was just written.
    stored.set(input.key, { id, fingerprint, caseId, relationship });
  }
  const mark = sql('UPDATE cases SET pending = ? WHERE id = ?');
  for (const [caseId, seq] of marks) mark.run(seq, caseId);
  return summary;
}

/** What is stored of the batch's signals that exist already: one query for the batch. */
function storedSignals(sql: Sql, keys: readonly string[]): Map<string, Stored> {
  const rows = sql(
    `SELECT s.id, s.key, s.fingerprint, l.case_id, l.relationship FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id
     WHERE s.key IN (SELECT value FROM json_each(@keys))`,
  ).all({ keys: jsonList(keys) }) as Row[];
  return new Map(
    rows.map((r) => [
      String(r.key),
      {
        id: Number(r.id),
        fingerprint: String(r.fingerprint),
        caseId: r.case_id === null ? null : Number(r.case_id),
        relationship: (r.relationship as string | null) ?? null,
      },
    ]),
  );
}

/** Case ids by key, created on first sight (never computed yet: listed once saveCases has written them). */
class CaseKeys {
  readonly #ids = new Map<string, number>();
  constructor(private readonly sql: Sql) {}

  idOf(ref: SignalCaseRef): number {
    let id = this.#ids.get(ref.key);
    if (id === undefined) {
      const row = this.sql('SELECT id FROM cases WHERE key = ?').get(ref.key) as Row | undefined;
      id = row
        ? Number(row.id)
        : Number(this.sql('INSERT INTO cases (key, type, family) VALUES (?, ?, ?)').run(ref.key, ref.type, ref.family).lastInsertRowid);
      this.#ids.set(ref.key, id);
    }
    return id;
  }
}
