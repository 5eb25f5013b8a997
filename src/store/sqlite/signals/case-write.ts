/**
 * The case queue. writeSignals marks a case pending with the journal seq of the signal change that touched it;
 * pendingCases hands the marked cases to the detector with everything needed to compute them again; saveCases
 * writes what it computed, appends the events and clears the marks — only the marks it was handed, so a case a
 * signal write touched in between (another process importing, say) stays pending and is computed again.
 */
import type { CaseRelationship } from '../../../lib/vocabulary.js';
import { CASE_COLUMNS, caseRow, type PendingMarks, toCaseFields } from '../../shared/case-rows.js';
import { toSignal } from '../../shared/signal-rows.js';
import type { CaseUpdate, PendingCase } from '../../signal-records.js';
import { groupRows, type Row, type Sql } from '../procurement/sql.js';
import { loadCaseEvents } from './case-rows.js';
import { loadCaseSignals } from './signal-rows.js';

export type { PendingMarks };

export function pendingCases(sql: Sql, limit: number, marks: PendingMarks): PendingCase[] {
  const rows = sql('SELECT * FROM cases INDEXED BY cases_pending WHERE pending IS NOT NULL ORDER BY id LIMIT ?').all(limit) as Row[];
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const events = loadCaseEvents(sql, ids);
  const signals = groupRows(loadCaseSignals(sql, ids), (r) => Number(r.case_id));
  return rows.map((row) => {
    const id = Number(row.id);
    marks.set(id, Number(row.pending));
    return {
      id,
      key: String(row.key),
      type: String(row.type),
      family: String(row.family),
      fields: row.computed === 1 ? toCaseFields(row) : null,
      events: events.get(id) ?? [],
      signals: (signals.get(id) ?? []).map((r) => ({ signal: toSignal(r), relationship: r.relationship as CaseRelationship })),
    };
  });
}

const SAVE = `UPDATE cases SET ${CASE_COLUMNS.map((c) => `${c} = ?`).join(', ')}, computed = 1,
  pending = CASE WHEN ? IS NULL OR pending = ? THEN NULL ELSE pending END
  WHERE id = ?`;

/** Inside the caller's transaction. A case not handed out by pendingCases has its mark cleared whatever it is. */
export function saveCases(sql: Sql, updates: readonly CaseUpdate[], marks: PendingMarks): void {
  const addEvent = sql('INSERT INTO case_events (case_id, event_type, old_value, new_value, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const update of updates) {
    const mark = marks.get(update.id) ?? null;
    if (sql(SAVE).run(...caseRow(update.fields), mark, mark, update.id).changes === 0) {
      throw new Error(`saveCases: no case ${update.id}`);
    }
    for (const e of update.events) addEvent.run(update.id, e.event_type, e.old_value, e.new_value, e.reason, e.created_at);
  }
}

/** Forgets the marks of saved cases, once their transaction has committed (a rolled-back save still needs them). */
export function forgetMarks(updates: readonly CaseUpdate[], marks: PendingMarks): void {
  for (const update of updates) marks.delete(update.id);
}

export function findCaseId(sql: Sql, key: string): number | undefined {
  const row = sql('SELECT id FROM cases WHERE key = ?').get(key) as Row | undefined;
  return row ? Number(row.id) : undefined;
}
