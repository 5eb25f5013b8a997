/**
 * Per dialect: the bulk load (prepared per-row statements in SQLite, COPY in PostgreSQL).
 *
 * A procurement batch, written in one transaction: entities first (so that a batch's own entity list wins over
 * names guessed from parties), then contracts, announcements and amendments (which find their contracts among
 * those just written). Any error — a foreign key, a bad row — rolls the whole batch back.
 */
import type Database from 'better-sqlite3';
import { fold } from '../../../lib/text-match.js';
import type { ProcurementWriteSummary } from '../../procurement-records.js';
import { EntityQueue, RollupDeltas } from '../../shared/rollup-deltas.js';
import type { ProcurementBatch, ProcurementBatchSummary } from '../../store.js';
import { writeAmendment } from './amendment-write.js';
import { writeAnnouncement } from './announcement-write.js';
import { writeContract } from './contract-write.js';
import { EntityWriter } from './entity-write.js';
import { flushEntityQueue, flushRollups } from './rollups.js';
import type { Row, Sql } from './sql.js';

export interface BatchContext {
  readonly sql: Sql;
  readonly summary: ProcurementBatchSummary;
  readonly entities: EntityWriter;
  readonly rollups: RollupDeltas;
  readonly entityQueue: EntityQueue;
  /** Folded district name of each municipality id. */
  readonly districtOf: ReadonlyMap<number, string>;
}

/** Runs `batch` in one transaction; `onChange` (inside it) when anything was inserted or updated. */
export function writeBatch(db: Database.Database, sql: Sql, batch: ProcurementBatch, onChange: () => void): ProcurementBatchSummary {
  return db.transaction(() => {
    const municipalities = sql('SELECT id, nif, district FROM municipalities').all() as Row[];
    const entities = new EntityWriter(sql, new Map(municipalities.map((m) => [String(m.nif), Number(m.id)])));
    const context: BatchContext = {
      sql,
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
    for (const entity of batch.entities ?? []) entities.upsert(entity);
    for (const contract of batch.contracts ?? []) writeContract(context, contract);
    for (const announcement of batch.announcements ?? []) writeAnnouncement(context, announcement);
    for (const amendment of batch.amendments ?? []) writeAmendment(context, amendment);
    flushRollups(sql, context.rollups);
    flushEntityQueue(sql, context.entityQueue);
    const { summary } = context;
    const changed = [summary.entities, summary.contracts, summary.announcements, summary.amendments].some(
      (s) => s.inserted + s.updated > 0,
    );
    if (changed) onChange();
    return summary;
  })();
}

function emptySummary(): ProcurementWriteSummary {
  return { inserted: 0, updated: 0, unchanged: 0 };
}
