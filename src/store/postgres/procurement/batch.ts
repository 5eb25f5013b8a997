/**
 * Per dialect: the bulk load (prepared per-row statements in SQLite, COPY in PostgreSQL).
 *
 * A procurement batch, written in one transaction on one client, in the order of the SQLite store (entities,
 * contracts, announcements, amendments) and with the same counts — but set-wise: what is stored is read once
 * per table, the decisions are taken in memory in batch order, and rows go in with COPY. Any error rolls the
 * whole batch back.
 */
import type pg from 'pg';
import { fold } from '../../../lib/text-match.js';
import { appendChanges } from '../../journal/journal.js';
import { bumpDataVersion } from '../../meta.js';
import type { ProcurementWriteSummary } from '../../procurement-records.js';
import { EntityQueue, RollupDeltas } from '../../shared/rollup-deltas.js';
import type { ProcurementBatch, ProcurementBatchSummary } from '../../store.js';
import { postgresPort, type Sql } from '../db.js';
import { writeAmendments } from './amendment-write.js';
import { planAnnouncements } from './announcement-write.js';
import { planContracts } from './contract-write.js';
import { EntityWriter } from './entity-write.js';
import { flushEntityQueue, flushRollups } from './rollups.js';

export interface BatchContext {
  readonly sql: Sql;
  readonly client: pg.PoolClient;
  readonly summary: ProcurementBatchSummary;
  readonly entities: EntityWriter;
  readonly rollups: RollupDeltas;
  readonly entityQueue: EntityQueue;
  /** Folded district name of each municipality id. */
  readonly districtOf: ReadonlyMap<number, string>;
}

export async function writeBatch(sql: Sql, client: pg.PoolClient, batch: ProcurementBatch): Promise<ProcurementBatchSummary> {
  const municipalities = await sql('SELECT id, nif, district FROM municipalities');
  const entities = new EntityWriter(new Map(municipalities.map((m) => [String(m.nif), Number(m.id)])));
  const context: BatchContext = {
    sql,
    client,
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
  await entities.load(sql, [
    ...(batch.entities ?? []).map((e) => e.nif),
    ...contracts.flatMap((c) => [...c.buyers, ...c.suppliers, ...c.competitors].map((p) => p.nif)),
    ...announcements.map((a) => a.buyer.nif),
  ]);
  for (const entity of batch.entities ?? []) entities.upsert(entity);
  // Planning decides what changes and meets the parties (creating entities); rows that refer to entities are
  // written once the entities are.
  const writeContracts = await planContracts(context, contracts);
  const writeAnnouncements = await planAnnouncements(context, announcements);
  await entities.flush(client);
  // Journal entries in the SQLite store's order: contracts, announcements, amendments.
  const changes = [
    ...(await writeContracts()),
    ...(await writeAnnouncements()),
    ...(await writeAmendments(context, batch.amendments ?? [])),
  ];
  const port = postgresPort(client);
  await appendChanges(port, changes);
  await flushRollups(sql, context.rollups);
  await flushEntityQueue(sql, context.entityQueue);
  const { summary } = context;
  const changed = [summary.entities, summary.contracts, summary.announcements, summary.amendments].some((s) => s.inserted + s.updated > 0);
  if (changed) await bumpDataVersion(port);
  return summary;
}

function emptySummary(): ProcurementWriteSummary {
  return { inserted: 0, updated: 0, unchanged: 0 };
}

/** The key of a record at its source. */
export function sourceKey(source: string, sourceId: string): string {
  return `${source}\u0000${sourceId}`;
}

/** Fresh ids of a table's identity sequence, ascending: records get them in batch order, as SQLite's rowids. */
export async function allocateIds(sql: Sql, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await sql(`SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id FROM generate_series(1, $2)`, [table, count]);
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** The stored (source, source_id) → id and fingerprint of a table's records that a batch names. */
export async function storedBySourceKey(
  sql: Sql,
  table: string,
  keys: readonly { source: string; source_id: string }[],
): Promise<Map<string, { id: number; fingerprint: string }>> {
  if (keys.length === 0) return new Map();
  const rows = await sql(
    `SELECT t.id, t.source, t.source_id, t.fingerprint FROM ${table} t
     JOIN unnest($1::text[], $2::text[]) AS k (source, source_id) ON t.source = k.source AND t.source_id = k.source_id`,
    [keys.map((k) => k.source), keys.map((k) => k.source_id)],
  );
  return new Map(
    rows.map((r) => [sourceKey(String(r.source), String(r.source_id)), { id: Number(r.id), fingerprint: String(r.fingerprint) }]),
  );
}
