/**
 * A procurement batch (Store.writeProcurement), written inside the caller's transaction: entities first (so that
 * a batch's own entity list wins over names guessed from parties), then contracts, announcements and amendments
 * (which find their contracts among those just written). Set-wise: what is stored is read once per table, the
 * decisions are taken in memory in batch order, and rows go in through the dialect's bulk load (./bulk-load.ts).
 * Any error rolls the whole batch back.
 */
import { fold } from '../../lib/text-match.js';
import { appendChanges } from '../journal/journal.js';
import { bumpDataVersion } from '../meta.js';
import type { ProcurementWriteSummary } from '../procurement-records.js';
import { EntityQueue, RollupDeltas } from '../shared/rollup-deltas.js';
import type { SqlPort } from '../sql/port.js';
import type { ProcurementBatch, ProcurementBatchSummary } from '../store.js';
import { writeAmendments } from './amendment-write.js';
import { planAnnouncements } from './announcement-write.js';
import type { BulkLoad } from './bulk-load.js';
import { planContracts } from './contract-write.js';
import { EntityWriter } from './entity-write.js';
import { flushEntityQueue, flushRollups } from './rollups.js';

export interface BatchContext {
  readonly tx: SqlPort;
  readonly load: BulkLoad;
  readonly summary: ProcurementBatchSummary;
  readonly entities: EntityWriter;
  readonly rollups: RollupDeltas;
  readonly entityQueue: EntityQueue;
  /** Folded district name of each municipality id. */
  readonly districtOf: ReadonlyMap<number, string>;
}

export async function writeBatch(tx: SqlPort, load: BulkLoad, batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
  const municipalities = await tx.query('SELECT id, nif, district FROM municipalities');
  const entities = new EntityWriter(new Map(municipalities.map((m) => [String(m.nif), Number(m.id)])));
  const context: BatchContext = {
    tx,
    load,
    summary: {
      entities: entities.summary,
      contracts: emptySummary(),
      announcements: emptySummary(),
      amendments: emptySummary(),
      orphan_amendments: [],
    },
    entities,
    rollups: new RollupDeltas(),
    entityQueue: new EntityQueue(),
    districtOf: new Map(municipalities.map((m) => [Number(m.id), fold(String(m.district))])),
  };
  const contracts = batch.contracts ?? [];
  const announcements = batch.announcements ?? [];
  await entities.load(tx, [
    ...(batch.entities ?? []).map((e) => e.nif),
    ...contracts.flatMap((c) => [...c.buyers, ...c.suppliers, ...c.competitors].map((p) => p.nif)),
    ...announcements.map((a) => a.buyer.nif),
  ]);
  for (const entity of batch.entities ?? []) entities.upsert(entity);
  // Planning decides what changes and meets the parties (creating entities); rows that refer to entities are
  // written once the entities are.
  const writeContracts = await planContracts(context, contracts);
  const writeAnnouncements = await planAnnouncements(context, announcements);
  await entities.flush(tx, load);
  // Journal entries in batch order, kind after kind: contracts, announcements, amendments.
  const changes = [
    ...(await writeContracts()),
    ...(await writeAnnouncements()),
    ...(await writeAmendments(context, batch.amendments ?? [])),
  ];
  await appendChanges(tx, changes);
  await flushRollups(tx, context.rollups);
  await flushEntityQueue(tx, context.entityQueue);
  const { summary } = context;
  const changed = [summary.entities, summary.contracts, summary.announcements, summary.amendments].some((s) => s.inserted + s.updated > 0);
  if (changed) await bumpDataVersion(tx);
  return summary;
}

function emptySummary(): ProcurementWriteSummary {
  return { inserted: 0, updated: 0, unchanged: 0 };
}

/** The key of a record at its source. */
export function sourceKey(source: string, sourceId: string): string {
  return `${source}\u0000${sourceId}`;
}

/** A record as stored, or as written earlier in the batch (no id yet: new in it). */
export interface Held {
  id: number | undefined;
  fingerprint: string;
}

/**
 * Whether the batch changes a record, counted in `summary`: unchanged (undefined) when `held` has its fingerprint,
 * else the key it goes under and the id it keeps (undefined: new). `held` then holds it as written.
 */
export function changeOf(
  held: Map<string, Held>,
  summary: ProcurementWriteSummary,
  record: { source: string; source_id: string },
  fingerprint: string,
): { key: string; id: number | undefined } | undefined {
  const key = sourceKey(record.source, record.source_id);
  const before = held.get(key);
  if (before?.fingerprint === fingerprint) {
    summary.unchanged++;
    return undefined;
  }
  if (before) summary.updated++;
  else summary.inserted++;
  held.set(key, { id: before?.id, fingerprint });
  return { key, id: before?.id };
}

/** The stored (source, source_id) → id and fingerprint of a table's records that a batch names. */
export async function storedBySourceKey(
  tx: SqlPort,
  table: 'contracts' | 'announcements' | 'amendments',
  keys: readonly { source: string; source_id: string }[],
): Promise<Map<string, { id: number; fingerprint: string }>> {
  if (keys.length === 0) return new Map();
  const named = tx.dialect.rows('$1', [
    ['source', 'text'],
    ['source_id', 'text'],
  ]);
  const rows = await tx.query(
    `SELECT t.id, t.source, t.source_id, t.fingerprint FROM ${named} AS k
     JOIN ${table} t ON t.source = k.source AND t.source_id = k.source_id`,
    [JSON.stringify(keys.map((k) => [k.source, k.source_id]))],
  );
  return new Map(
    rows.map((r) => [sourceKey(String(r.source), String(r.source_id)), { id: Number(r.id), fingerprint: String(r.fingerprint) }]),
  );
}

/**
 * Writes a table's records decided by a batch: those without an id (new) get fresh ones, in batch order, and are
 * inserted; the others replace the stored rows with their id. `values` gives a record's columns after the id.
 */
export async function writeRecords<W extends { id: number | undefined }>(
  load: BulkLoad,
  table: 'contracts' | 'announcements' | 'amendments',
  columns: readonly string[],
  writes: readonly W[],
  values: (write: W) => readonly unknown[],
): Promise<void> {
  const added = writes.filter((w) => w.id === undefined);
  const ids = await load.newIds(table, added.length);
  added.forEach((w, i) => {
    w.id = ids[i];
  });
  const isNew = new Set(added);
  const row = (w: W) => [w.id, ...values(w)];
  await load.write(table, ['id', ...columns], added.map(row));
  await load.write(table, ['id', ...columns], writes.filter((w) => !isNew.has(w)).map(row), 'id');
}
