/**
 * Signals upserted by key inside the caller's transaction, with the SQLite store's semantics (see its
 * signal-write.ts): an unchanged fingerprint is not touched; an inserted or changed signal appends a `signal`
 * journal entry, is linked to its case (created on first sight; a changed case key moves it; a link is rewritten
 * only when its case or relationship changed) and marks pending, once per batch, the cases it joined or left.
 *
 * Set-wise, as procurement batches: the decisions are taken in memory in batch order, then each table is written
 * in one or two statements, whatever the batch's size.
 */

import { SIGNAL_COLUMNS, signalFingerprint, signalRow } from '../../shared/signal-rows.js';
import type { SignalCaseRef, SignalInput, SignalWriteSummary } from '../../signal-records.js';
import type { Row, Sql } from '../db.js';
import { allocateIds } from '../procurement/batch.js';
import { appendChanges } from './journal.js';

const WRITTEN = ['origin', 'fingerprint', ...SIGNAL_COLUMNS] as const;

interface Stored {
  id: number | undefined;
  fingerprint: string;
  caseKey: string | null;
  caseId: number | null;
  relationship: string | null;
}

interface Write {
  input: SignalInput;
  /** Before this write (undefined: a new signal). */
  old: Stored | undefined;
  row: Row;
}

export async function writeSignals(sql: Sql, signals: readonly SignalInput[], now: string): Promise<SignalWriteSummary> {
  const summary: SignalWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const current = await storedSignals(
    sql,
    signals.map((s) => s.key),
  );
  const writes: Write[] = [];
  for (const input of signals) {
    const columns = signalRow(input);
    const fingerprint = signalFingerprint(input, columns);
    const old = current.get(input.key);
    if (old?.fingerprint === fingerprint) {
      summary.unchanged++;
      continue;
    }
    if (old) summary.updated++;
    else summary.inserted++;
    const row: Row = { key: input.key, origin: input.origin, fingerprint, ...columns };
    writes.push({ input, old, row });
    // A key met twice in one batch compares with what was just written.
    current.set(input.key, {
      id: old?.id,
      fingerprint,
      caseKey: input.case?.key ?? null,
      caseId: null,
      relationship: input.case?.relationship ?? null,
    });
  }
  if (writes.length === 0) return summary;

  // Ids: stored signals keep theirs; new keys get fresh ones in batch order.
  const ids = new Map<string, number>();
  for (const [key, s] of current) if (s.id !== undefined) ids.set(key, s.id);
  const fresh = [...new Set(writes.filter((w) => !ids.has(w.input.key)).map((w) => w.input.key))];
  const allocated = await allocateIds(sql, 'signals', fresh.length);
  fresh.forEach((key, i) => {
    ids.set(key, allocated[i]);
  });
  const caseIds = await caseIdsOf(
    sql,
    writes.flatMap((w) => (w.input.case ? [w.input.case] : [])),
  );

  // The rows as last written in the batch: new ones inserted, stored ones updated.
  const last = new Map(writes.map((w) => [w.input.key, w]));
  const rows: Row[] = [...last.values()].map((w) => ({ ...w.row, id: ids.get(w.input.key) }));
  const isNew = new Set(fresh);
  const inserts = rows.filter((r) => isNew.has(String(r.key)));
  const updates = rows.filter((r) => !isNew.has(String(r.key)));
  if (inserts.length > 0) {
    await sql(
      `INSERT INTO signals (id, key, ${WRITTEN.join(', ')}, first_seen_at, last_seen_at)
       SELECT id, key, ${WRITTEN.join(', ')}, $2, $2 FROM jsonb_populate_recordset(NULL::signals, $1::jsonb)`,
      [JSON.stringify(inserts), now],
    );
  }
  if (updates.length > 0) {
    await sql(
      `UPDATE signals s SET ${WRITTEN.map((c) => `${c} = v.${c}`).join(', ')}, last_seen_at = $2
       FROM jsonb_populate_recordset(NULL::signals, $1::jsonb) AS v WHERE s.id = v.id`,
      [JSON.stringify(updates), now],
    );
  }

  const seqs = await appendChanges(
    sql,
    writes.map((w) => ({ kind: 'signal', id: ids.get(w.input.key) as number, key: null, date: now.slice(0, 10) })),
  );
  // Links and pending marks, decided write by write (the mark of a case: the seq of its latest change).
  const links = new Map<number, { caseId: number; relationship: string } | null>();
  const marks = new Map<number, number>();
  const linked = new Map<string, { caseId: number | null; relationship: string | null }>();
  writes.forEach((w, i) => {
    const id = ids.get(w.input.key) as number;
    const before = linked.get(w.input.key) ?? { caseId: w.old?.caseId ?? null, relationship: w.old?.relationship ?? null };
    const caseId = w.input.case ? (caseIds.get(w.input.case.key) as number) : null;
    const relationship = w.input.case?.relationship ?? null;
    if (before.caseId !== null && before.caseId !== caseId) {
      marks.set(before.caseId, seqs[i]);
      if (caseId === null) links.set(id, null);
    }
    if (caseId !== null) {
      if (before.caseId !== caseId || before.relationship !== relationship) links.set(id, { caseId, relationship: relationship as string });
      marks.set(caseId, seqs[i]);
    }
    linked.set(w.input.key, { caseId, relationship });
  });
  const unlinked = [...links].filter(([, link]) => link === null).map(([id]) => id);
  const relinked = [...links].flatMap(([id, link]) => (link === null ? [] : [{ id, ...link }]));
  if (unlinked.length > 0) await sql('DELETE FROM case_links WHERE signal_id = ANY($1::integer[])', [unlinked]);
  if (relinked.length > 0) {
    await sql(
      `INSERT INTO case_links (signal_id, case_id, relationship) SELECT * FROM unnest($1::integer[], $2::integer[], $3::text[])
       ON CONFLICT (signal_id) DO UPDATE SET case_id = excluded.case_id, relationship = excluded.relationship`,
      [relinked.map((l) => l.id), relinked.map((l) => l.caseId), relinked.map((l) => l.relationship)],
    );
  }
  await sql('UPDATE cases c SET pending = m.seq FROM unnest($1::integer[], $2::bigint[]) AS m (id, seq) WHERE c.id = m.id', [
    [...marks.keys()],
    [...marks.values()],
  ]);
  return summary;
}

/** What is stored of the batch's signals that exist already: one statement for the batch. */
async function storedSignals(sql: Sql, keys: readonly string[]): Promise<Map<string, Stored>> {
  const rows = await sql(
    `SELECT s.id, s.key, s.fingerprint, l.case_id, l.relationship FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id
     WHERE s.key = ANY($1::text[])`,
    [keys],
  );
  return new Map(
    rows.map((r) => [
      String(r.key),
      {
        id: Number(r.id),
        fingerprint: String(r.fingerprint),
        caseKey: null,
        caseId: r.case_id === null ? null : Number(r.case_id),
        relationship: (r.relationship as string | null) ?? null,
      },
    ]),
  );
}

/**
 * Case ids by key, created on first sight (never computed yet: listed once saveCases has written them) in the
 * order first met. Looked up before inserting: an insert that conflicts would use up an id.
 */
async function caseIdsOf(sql: Sql, refs: readonly SignalCaseRef[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (refs.length === 0) return ids;
  const firstByKey = new Map<string, SignalCaseRef>();
  for (const ref of refs) if (!firstByKey.has(ref.key)) firstByKey.set(ref.key, ref);
  for (const row of await sql('SELECT id, key FROM cases WHERE key = ANY($1::text[])', [[...firstByKey.keys()]])) {
    ids.set(String(row.key), Number(row.id));
  }
  const missing = [...firstByKey.values()].filter((r) => !ids.has(r.key));
  if (missing.length > 0) {
    const allocated = await allocateIds(sql, 'cases', missing.length);
    await sql('INSERT INTO cases (id, key, type, family) SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[])', [
      allocated,
      missing.map((r) => r.key),
      missing.map((r) => r.type),
      missing.map((r) => r.family),
    ]);
    missing.forEach((r, i) => {
      ids.set(r.key, allocated[i]);
    });
  }
  return ids;
}
