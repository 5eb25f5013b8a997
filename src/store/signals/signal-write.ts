/**
 * Signals upserted by key, inside the caller's transaction. A signal whose fingerprint is unchanged is not
 * touched: no write, no journal entry, no pending mark — so writing the same input twice changes nothing the
 * second time. An inserted or changed one is stamped `updated_at` (../changes/change-stamp.ts), appends a
 * `signal` journal entry, is linked to its case (created on first sight; a signal is in at most one case, so a
 * changed case key moves it; a link is rewritten only when its case or relationship changed) and marks pending,
 * once per batch, the cases it joined or left, with the seq of its latest journal entry.
 *
 * Set-wise: the decisions are taken in memory in batch order, then each table is written in one or two
 * statements (`dialect.rows`), whatever the batch's size — save new signals and new cases, which go in through the
 * dialect's bulk load (../procurement/bulk-load.ts) with ids drawn beforehand: SQLite's statement per row and
 * PostgreSQL's COPY cost less than one statement reading a batch of 2 KB rows from JSON with RETURNING (the signals'
 * insert at 100,000 contracts 2.05 → 1.34 s; docs/performance-history.md, "Detection at 1M, 2026-11-30").
 */
import { changeStamp } from '../changes/change-stamp.js';
import { appendChanges } from '../journal/journal.js';
import { bumpDataVersion } from '../meta.js';
import type { BulkLoad } from '../procurement/bulk-load.js';
import { SIGNAL_FIELDS, signalFingerprint, signalRow } from '../shared/signal-rows.js';
import type { SignalCaseRef, SignalInput, SignalWriteSummary } from '../signal-records.js';
import type { ColumnType, Row, SqlPort } from '../sql/port.js';
import { enqueueWebhookEvents } from '../webhooks/outbox.js';

const WRITTEN_ROW: [string, ColumnType][] = [['origin', 'text'], ['fingerprint', 'text'], ...SIGNAL_FIELDS.batch()];
const WRITTEN = WRITTEN_ROW.map(([column]) => column);
/** The columns of a new signal, in the order its bulk row gives them. */
const INSERTED = ['id', 'key', ...WRITTEN, 'first_seen_at', 'last_seen_at', 'updated_at'];

interface Stored {
  id: number | undefined;
  fingerprint: string;
  caseId: number | null;
  relationship: string | null;
}

interface Write {
  input: SignalInput;
  /** Before this write (undefined: a new signal). */
  old: Stored | undefined;
  values: unknown[];
}

export async function writeSignals(
  tx: SqlPort,
  load: BulkLoad,
  signals: readonly SignalInput[],
  now: string,
): Promise<SignalWriteSummary> {
  const summary: SignalWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const current = await storedSignals(
    tx,
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
    writes.push({ input, old, values: [input.origin, fingerprint, ...SIGNAL_FIELDS.columns.map((c) => columns[c])] });
    // A key met twice in one batch compares with what was just written.
    current.set(input.key, { id: old?.id, fingerprint, caseId: null, relationship: input.case?.relationship ?? null });
  }
  if (writes.length === 0) return summary;
  const stamp = await changeStamp(tx);
  // Served lists change: answers cached by data version must not outlive it (a syncing client would read them).
  await bumpDataVersion(tx);

  // The rows as last written in the batch: new keys inserted (ids assigned in batch order), stored ones updated.
  const last = new Map(writes.map((w) => [w.input.key, w]));
  const ids = new Map<string, number>();
  for (const [key, s] of current) if (s.id !== undefined) ids.set(key, s.id);
  const inserts = [...last.values()].filter((w) => !ids.has(w.input.key));
  const updates = [...last.values()].filter((w) => ids.has(w.input.key));
  if (inserts.length > 0) {
    const fresh = await load.newIds('signals', inserts.length);
    inserts.forEach((w, i) => {
      ids.set(w.input.key, fresh[i]);
    });
    await load.write(
      'signals',
      INSERTED,
      inserts.map((w, i) => [fresh[i], w.input.key, ...w.values, now, now, stamp]),
    );
  }
  if (updates.length > 0) {
    const batch = tx.dialect.rows('$1', [['id', 'integer'], ...WRITTEN_ROW]);
    await tx.run(
      `UPDATE signals AS s SET ${WRITTEN.map((c) => `${c} = v.${c}`).join(', ')}, last_seen_at = $2, updated_at = $3
       FROM ${batch} AS v WHERE s.id = v.id`,
      [JSON.stringify(updates.map((w) => [ids.get(w.input.key), ...w.values])), now, stamp],
    );
  }
  const caseIds = await caseIdsOf(
    tx,
    load,
    writes.flatMap((w) => (w.input.case ? [w.input.case] : [])),
  );
  const seqs = await appendChanges(
    tx,
    writes.map((w) => ({ kind: 'signal', id: ids.get(w.input.key) as number, key: null, date: now.slice(0, 10) })),
  );

  // A new signal is announced to the webhook endpoints that take it, in this transaction (docs/webhooks.md).
  await enqueueWebhookEvents(
    tx,
    inserts.map((w) => ({
      type: 'signal.created' as const,
      resource_id: ids.get(w.input.key) as number,
      account_id: null,
      family: w.input.family,
      subtype: w.input.type,
      occurred_at: now,
    })),
  );

  // Links and pending marks, decided write by write (the mark of a case: the seq of its latest change).
  const links = new Map<number, { caseId: number; relationship: string } | null>();
  const marks = new Map<number, number>();
  const linked = new Map<string, { caseId: number | null; relationship: string | null }>();
  writes.forEach((w, i) => {
    const id = ids.get(w.input.key) as number;
    const before = linked.get(w.input.key) ?? {
      caseId: w.old?.caseId ?? null,
      relationship: w.old?.relationship ?? null,
    };
    const caseId = w.input.case ? (caseIds.get(w.input.case.key) as number) : null;
    const relationship = w.input.case?.relationship ?? null;
    if (before.caseId !== null && before.caseId !== caseId) {
      marks.set(before.caseId, seqs[i]);
      if (caseId === null) links.set(id, null);
    }
    if (caseId !== null) {
      if (before.caseId !== caseId || before.relationship !== relationship)
        links.set(id, { caseId, relationship: relationship as string });
      marks.set(caseId, seqs[i]);
    }
    linked.set(w.input.key, { caseId, relationship });
  });
  const unlinked = [...links].filter(([, link]) => link === null).map(([id]) => id);
  const relinked = [...links].flatMap(([id, link]) => (link === null ? [] : [[id, link.caseId, link.relationship]]));
  if (unlinked.length > 0)
    await tx.run(`DELETE FROM case_links WHERE ${tx.dialect.inList('signal_id', '$1')}`, [unlinked]);
  if (relinked.length > 0) {
    const batch = tx.dialect.rows('$1', [
      ['signal_id', 'integer'],
      ['case_id', 'integer'],
      ['relationship', 'text'],
    ]);
    await tx.run(
      `INSERT INTO case_links (signal_id, case_id, relationship)
       SELECT l.signal_id, l.case_id, l.relationship FROM ${batch} AS l WHERE true
       ON CONFLICT (signal_id) DO UPDATE SET case_id = excluded.case_id, relationship = excluded.relationship`,
      [JSON.stringify(relinked)],
    );
  }
  if (marks.size > 0) {
    const batch = tx.dialect.rows('$1', [
      ['id', 'integer'],
      ['seq', 'bigint'],
    ]);
    await tx.run(`UPDATE cases AS c SET pending = m.seq FROM ${batch} AS m WHERE c.id = m.id`, [
      JSON.stringify([...marks]),
    ]);
  }
  return summary;
}

/** What is stored of the batch's signals that exist already: one statement for the batch. */
async function storedSignals(tx: SqlPort, keys: readonly string[]): Promise<Map<string, Stored>> {
  const rows = await tx.query(
    `SELECT s.id, s.key, s.fingerprint, l.case_id, l.relationship
     FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id
     WHERE ${tx.dialect.inList('s.key', '$1')}`,
    [keys],
  );
  return new Map(
    rows.map((r: Row) => [
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

/**
 * Case ids by key, created on first sight (never computed yet: listed once saveCases has written them) in the
 * order first met. Looked up before inserting: an insert that conflicts would use up an id.
 */
async function caseIdsOf(tx: SqlPort, load: BulkLoad, refs: readonly SignalCaseRef[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (refs.length === 0) return ids;
  const firstByKey = new Map<string, SignalCaseRef>();
  for (const ref of refs) if (!firstByKey.has(ref.key)) firstByKey.set(ref.key, ref);
  for (const row of await tx.query(`SELECT id, key FROM cases WHERE ${tx.dialect.inList('key', '$1')}`, [
    [...firstByKey.keys()],
  ])) {
    ids.set(String(row.key), Number(row.id));
  }
  const missing = [...firstByKey.values()].filter((r) => !ids.has(r.key));
  if (missing.length > 0) {
    const fresh = await load.newIds('cases', missing.length);
    await load.write(
      'cases',
      ['id', 'key', 'type', 'family'],
      missing.map((r, i) => [fresh[i], r.key, r.type, r.family]),
    );
    missing.forEach((r, i) => {
      ids.set(r.key, fresh[i]);
    });
  }
  return ids;
}
