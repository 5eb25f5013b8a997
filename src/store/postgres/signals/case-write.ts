/**
 * The case queue, as in the SQLite store (see its case-write.ts): pendingCases hands out the cases writeSignals
 * marked, with the mark each had; saveCases writes what was computed, appends the events and clears only the marks
 * it was handed, so a case touched in between stays pending.
 */
import type { CaseRelationship } from '../../../lib/vocabulary.js';
import { CASE_COLUMNS, caseRow, type PendingMarks, toCaseEvent, toCaseFields } from '../../shared/case-rows.js';
import { toSignal } from '../../shared/signal-rows.js';
import type { CaseEventRecord, CaseUpdate, PendingCase } from '../../signal-records.js';
import type { Sql } from '../db.js';
import { groupRows } from '../procurement/rows.js';
import { loadCaseSignals } from './signal-rows.js';

export type { PendingMarks };

export async function pendingCases(sql: Sql, limit: number, marks: PendingMarks): Promise<PendingCase[]> {
  const rows = await sql('SELECT * FROM cases WHERE pending IS NOT NULL ORDER BY id LIMIT $1', [limit]);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const [events, linked] = await Promise.all([loadCaseEvents(sql, ids), loadCaseSignals(sql, ids)]);
  const signals = groupRows(linked, (r) => Number(r.case_id));
  return rows.map((row) => {
    const id = Number(row.id);
    marks.set(id, Number(row.pending));
    return {
      id,
      key: String(row.key),
      type: String(row.type),
      family: String(row.family),
      fields: row.computed ? toCaseFields(row) : null,
      events: events.get(id) ?? [],
      signals: (signals.get(id) ?? []).map((r) => ({ signal: toSignal(r), relationship: r.relationship as CaseRelationship })),
    };
  });
}

const n = CASE_COLUMNS.length;
const SAVE = `UPDATE cases SET ${CASE_COLUMNS.map((c, i) => `${c} = $${i + 1}`).join(', ')}, computed = true,
  pending = CASE WHEN $${n + 1}::bigint IS NULL OR pending = $${n + 1}::bigint THEN NULL ELSE pending END
  WHERE id = $${n + 2} RETURNING id`;

/** Inside the caller's transaction. A case not handed out by pendingCases has its mark cleared whatever it is. */
export async function saveCases(sql: Sql, updates: readonly CaseUpdate[], marks: PendingMarks): Promise<void> {
  for (const update of updates) {
    const mark = marks.get(update.id) ?? null;
    if ((await sql(SAVE, [...caseRow(update.fields), mark, update.id])).length === 0) throw new Error(`saveCases: no case ${update.id}`);
    for (const e of update.events) {
      await sql('INSERT INTO case_events (case_id, event_type, old_value, new_value, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        update.id,
        e.event_type,
        e.old_value,
        e.new_value,
        e.reason,
        e.created_at,
      ]);
    }
  }
}

export async function findCaseId(sql: Sql, key: string): Promise<number | undefined> {
  const [row] = await sql('SELECT id FROM cases WHERE key = $1', [key]);
  return row ? Number(row.id) : undefined;
}

/** The events of these cases, oldest first, by case. */
export async function loadCaseEvents(sql: Sql, caseIds: readonly number[]): Promise<Map<number, CaseEventRecord[]>> {
  const rows = await sql(
    `SELECT case_id, event_type, old_value, new_value, reason, created_at FROM case_events
     WHERE case_id = ANY($1::integer[]) ORDER BY case_id, id`,
    [caseIds],
  );
  return new Map([...groupRows(rows, (r) => Number(r.case_id))].map(([id, group]) => [id, group.map(toCaseEvent)]));
}
