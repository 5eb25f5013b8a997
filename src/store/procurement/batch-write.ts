/**
 * A procurement batch (Store.writeProcurement), written inside the caller's transaction: entities first (so that
 * a batch's own entity list wins over names guessed from parties), then contracts, announcements and amendments
 * (which find their contracts among those just written). Set-wise: what is stored is read once per table, the
 * decisions are taken in memory in batch order, and rows go in through the dialect's bulk load (./bulk-load.ts).
 * Any error rolls the whole batch back.
 */
import { fold } from '../../lib/text-match.js';
import { appendChanges } from '../journal/journal.js';
import { bumpProcurementVersion } from '../meta.js';
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

export async function writeBatch(
  tx: SqlPort,
  load: BulkLoad,
  batch: ProcurementBatch,
): Promise<ProcurementBatchSummary> {
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
  await entities.load(
    tx,
    (batch.entities ?? []).map((e) => e.nif),
  );
  for (const entity of batch.entities ?? []) entities.upsert(entity);
  // Planning decides what changes and meets the parties (creating entities); rows that refer to entities are
  // written once the entities are.
  const writeContracts = await planContracts(context, batch.contracts ?? []);
  const writeAnnouncements = await planAnnouncements(context, batch.announcements ?? []);
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
  const changed = [summary.entities, summary.contracts, summary.announcements, summary.amendments].some(
    (s) => s.inserted + s.updated > 0,
  );
  if (changed) await bumpProcurementVersion(tx);
  return summary;
}

function emptySummary(): ProcurementWriteSummary {
  return { inserted: 0, updated: 0, unchanged: 0 };
}

/**
 * Writes a table's records decided by a batch: those without an id (new) get fresh ones, in batch order, and are
 * inserted; the others replace the stored rows with their id. The columns after the id are the keys of each
 * record's `row`, which one object literal builds (contractRow, …): every row has them in the same order.
 */
export async function writeRecords<W extends { id: number | undefined; row: object }>(
  load: BulkLoad,
  table: 'contracts' | 'announcements' | 'amendments',
  writes: readonly W[],
): Promise<void> {
  if (writes.length === 0) return;
  const columns = ['id', ...Object.keys(writes[0].row)];
  const added = writes.filter((w) => w.id === undefined);
  const ids = await load.newIds(table, added.length);
  added.forEach((w, i) => {
    w.id = ids[i];
  });
  const isNew = new Set(added);
  const row = (w: W) => [w.id, ...Object.values(w.row)];
  await load.write(table, columns, added.map(row));
  await load.write(table, columns, writes.filter((w) => !isNew.has(w)).map(row), 'id');
}
