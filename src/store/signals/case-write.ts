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
import { CASE_SIGNAL } from '../shared/signal-rows.js';
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
        signal: CASE_SIGNAL.read(r, port.dialect.columns),
        relationship: r.relationship as CaseRelationship,
      })),
    };
  });
}

/** Inside the caller's transaction. A case not handed out by pendingCases has its mark cleared whatever it is. */
export async function saveCases(tx: SqlPort, updates: readonly CaseUpdate[], marks: PendingMarks): Promise<void> {
  if (updates.length === 0) return;
  // Set-wise, as writeSignals: one statement per table for the batch. A case given twice ends as last given.
  const last = new Map(updates.map((u) => [u.id, u]));
  // Only a case whose fields change gets a new updated_at (docs/api.md, Syncing).
  const stored = await storedFields(tx, [...last.keys()]);
  const stamp = await changeStamp(tx);
  const rows = [...last.values()].map((u) => {
    const row = caseRow(u.fields);
    return [u.id, marks.get(u.id) ?? null, stored.get(u.id) !== JSON.stringify(row) ? 1 : 0, ...row];
  });
  const saved = tx.dialect.rows('$1', [
    ['id', 'integer'],
    ['mark', 'bigint'],
    ['changed', 'integer'],
    ...CASE_FIELDS.batch(),
  ]);
  const written = await tx.run(
    `UPDATE cases AS c SET ${CASE_FIELDS.columns.map((col) => `${col} = v.${col}`).join(', ')}, computed = $2,
       updated_at = CASE WHEN v.changed = 1 THEN $3 ELSE c.updated_at END,
       pending = CASE WHEN v.mark IS NULL OR c.pending = v.mark THEN NULL ELSE c.pending END
     FROM ${saved} AS v WHERE c.id = v.id`,
    [JSON.stringify(rows), true, stamp],
  );
  if (written !== last.size) throw new Error(`saveCases: no case ${await firstMissing(tx, [...last.keys()])}`);
  const events = updates.flatMap((u) => u.events.map((e) => [u.id, ...CASE_EVENT.values(e, CASE_EVENT.columns)]));
  if (events.length > 0) {
    const appended = tx.dialect.rows('$1', [['case_id', 'integer'], ...CASE_EVENT.batch()]);
    await tx.run(
      `INSERT INTO case_events (case_id, ${CASE_EVENT.columns.join(', ')})
       SELECT e.case_id, ${CASE_EVENT.columns.map((col) => `e.${col}`).join(', ')} FROM ${appended} AS e
       WHERE true ORDER BY e.ord`,
      [JSON.stringify(events)],
    );
  }
  await announceStageChanges(tx, updates);
  // Served lists change: answers cached by data version must not outlive it (a syncing client would read them).
  if (rows.some((r) => r[2] === 1) || events.length > 0) await bumpDataVersion(tx);
}

/** A stage change is announced to the webhook endpoints that take it, in this transaction (docs/webhooks.md). */
async function announceStageChanges(tx: SqlPort, updates: readonly CaseUpdate[]): Promise<void> {
  const changes = updates.flatMap((u) => {
    const stage = u.events.find((e) => e.event_type === 'stage_changed');
    return stage ? [{ id: u.id, at: stage.created_at }] : [];
  });
  if (changes.length === 0) return;
  const kinds = new Map(
    (
      await tx.query(`SELECT id, family, type FROM cases WHERE ${tx.dialect.inList('id', '$1')}`, [
        changes.map((c) => c.id),
      ])
    ).map((r) => [Number(r.id), { family: String(r.family), subtype: String(r.type) }]),
  );
  await enqueueWebhookEvents(
    tx,
    changes.map((c) => ({
      type: 'case.stage_changed' as const,
      resource_id: c.id,
      account_id: null,
      ...(kinds.get(c.id) as { family: string; subtype: string }),
      occurred_at: c.at,
    })),
  );
}

/** The first of these case ids that no case has. */
async function firstMissing(tx: SqlPort, ids: readonly number[]): Promise<number | undefined> {
  const found = new Set(
    (await tx.query(`SELECT id FROM cases WHERE ${tx.dialect.inList('id', '$1')}`, [ids])).map((r) => Number(r.id)),
  );
  return ids.find((id) => !found.has(id));
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
