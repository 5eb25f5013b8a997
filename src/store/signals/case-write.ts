/**
 * The case queue. writeSignals marks a case pending with the journal seq of the signal change that touched it;
 * pendingCases hands the marked cases to the detector with everything needed to compute them again; saveCases
 * writes what it computed, appends the events and clears the marks — only the marks it was handed, so a case a
 * signal write touched in between (another process importing, say) stays pending and is computed again.
 */
import type { CaseRelationship } from '../../lib/vocabulary.js';
import { CASE_EVENT, CASE_FIELDS, caseRow, type PendingMarks } from '../shared/case-rows.js';
import { groupRows } from '../shared/row-values.js';
import { SIGNAL } from '../shared/signal-rows.js';
import type { CaseEventRecord, CaseUpdate, PendingCase } from '../signal-records.js';
import type { SqlPort } from '../sql/port.js';
import { enqueueWebhookEvents } from '../webhooks/outbox.js';
import { loadCaseSignals } from './signal-rows.js';

export type { PendingMarks };

export async function pendingCases(port: SqlPort, limit: number, marks: PendingMarks): Promise<PendingCase[]> {
  const rows = await port.query(
    `SELECT * FROM ${port.dialect.indexed('cases', 'c', 'cases_pending')}
     WHERE pending IS NOT NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const [events, linked] = await Promise.all([loadCaseEvents(port, ids), loadCaseSignals(port, ids)]);
  const signals = groupRows(linked, (r) => Number(r.case_id));
  return rows.map((row) => {
    const id = Number(row.id);
    marks.set(id, Number(row.pending));
    return {
      id,
      key: String(row.key),
      type: String(row.type),
      family: String(row.family),
      fields: port.dialect.columns.flag(row.computed) ? CASE_FIELDS.read(row, port.dialect.columns) : null,
      events: events.get(id) ?? [],
      signals: (signals.get(id) ?? []).map((r) => ({
        signal: SIGNAL.read(r, port.dialect.columns),
        relationship: r.relationship as CaseRelationship,
      })),
    };
  });
}

const n = CASE_FIELDS.columns.length;
const SAVE = `UPDATE cases SET ${CASE_FIELDS.columns.map((c, i) => `${c} = $${i + 1}`).join(', ')},
  computed = $${n + 3},
  pending = CASE WHEN CAST($${n + 1} AS bigint) IS NULL OR pending = $${n + 1} THEN NULL ELSE pending END
  WHERE id = $${n + 2}`;

/** Inside the caller's transaction. A case not handed out by pendingCases has its mark cleared whatever it is. */
export async function saveCases(tx: SqlPort, updates: readonly CaseUpdate[], marks: PendingMarks): Promise<void> {
  for (const update of updates) {
    const mark = marks.get(update.id) ?? null;
    if ((await tx.run(SAVE, [...caseRow(update.fields), mark, update.id, true])) === 0)
      throw new Error(`saveCases: no case ${update.id}`);
    for (const e of update.events) {
      await tx.run(
        'INSERT INTO case_events (case_id, event_type, old_value, new_value, reason, created_at) ' +
          'VALUES ($1, $2, $3, $4, $5, $6)',
        [update.id, e.event_type, e.old_value, e.new_value, e.reason, e.created_at],
      );
    }
    // A stage change is announced to the webhook endpoints that take it, in this transaction (docs/webhooks.md).
    const stage = update.events.find((e) => e.event_type === 'stage_changed');
    if (stage) {
      const [kind] = await tx.query('SELECT family, type FROM cases WHERE id = $1', [update.id]);
      await enqueueWebhookEvents(tx, [
        {
          type: 'case.stage_changed',
          resource_id: update.id,
          account_id: null,
          family: String(kind.family),
          subtype: String(kind.type),
          occurred_at: stage.created_at,
        },
      ]);
    }
  }
}

export async function findCaseId(port: SqlPort, key: string): Promise<number | undefined> {
  const [row] = await port.query('SELECT id FROM cases WHERE key = $1', [key]);
  return row ? Number(row.id) : undefined;
}

/** The events of these cases, oldest first, by case. */
export async function loadCaseEvents(
  port: SqlPort,
  caseIds: readonly number[],
): Promise<Map<number, CaseEventRecord[]>> {
  const rows = await port.query(
    `SELECT case_id, ${CASE_EVENT.columns.join(', ')} FROM case_events
     WHERE ${port.dialect.inList('case_id', '$1')} ORDER BY case_id, id`,
    [caseIds],
  );
  return new Map(
    [...groupRows(rows, (r) => Number(r.case_id))].map(([id, group]) => [id, group.map(CASE_EVENT.reader(port))]),
  );
}
