/**
 * The case queue. writeSignals marks a case pending with the journal seq of the signal change that touched it;
 * pendingCases hands the marked cases to the detector with everything needed to compute them again; saveCases
 * writes what it computed, appends the events and clears the marks — only the marks it was handed, so a case a
 * signal write touched in between (another process importing, say) stays pending and is computed again. A case
 * whose fields a save changes (or computes for the first time) is stamped `updated_at` (../changes/change-stamp.ts);
 * one computed again to the same fields keeps its stamp.
 */
import type { CaseRelationship } from '../../lib/vocabulary.js';
import { changeStamp } from '../changes/change-stamp.js';
import { bumpDataVersion } from '../meta.js';
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
  updated_at = CASE WHEN $${n + 4} THEN $${n + 5} ELSE updated_at END,
  pending = CASE WHEN CAST($${n + 1} AS bigint) IS NULL OR pending = $${n + 1} THEN NULL ELSE pending END
  WHERE id = $${n + 2}`;

/** Inside the caller's transaction. A case not handed out by pendingCases has its mark cleared whatever it is. */
export async function saveCases(tx: SqlPort, updates: readonly CaseUpdate[], marks: PendingMarks): Promise<void> {
  if (updates.length === 0) return;
  const stored = await storedFields(
    tx,
    updates.map((u) => u.id),
  );
  const stamp = await changeStamp(tx);
  let served = false;
  for (const update of updates) {
    const mark = marks.get(update.id) ?? null;
    const row = caseRow(update.fields);
    const changed = stored.get(update.id) !== JSON.stringify(row);
    served ||= changed || update.events.length > 0;
    if ((await tx.run(SAVE, [...row, mark, update.id, true, changed, stamp])) === 0)
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
  // Served lists change: answers cached by data version must not outlive it (a syncing client would read them).
  if (served) await bumpDataVersion(tx);
}

/** The stored fields of the computed ones of these cases, as caseRow gives them (JSON), by id. */
async function storedFields(tx: SqlPort, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = await tx.query(`SELECT * FROM cases WHERE ${tx.dialect.inList('id', '$1')}`, [ids]);
  return new Map(
    rows
      .filter((r) => tx.dialect.columns.flag(r.computed))
      .map((r) => [Number(r.id), JSON.stringify(caseRow(CASE_FIELDS.read(r, tx.dialect.columns)))]),
  );
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
