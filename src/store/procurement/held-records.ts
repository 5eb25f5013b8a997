/**
 * The records of one table that a batch names, by (source, source_id): as stored (`heldRecords` reads them in one
 * statement), then as the batch writes them, so that a record met twice in a batch compares with what was just
 * written. Kept by source, then source id: no key string is built per record.
 */
import type { ProcurementWriteSummary } from '../procurement-records.js';
import type { SqlPort } from '../sql/port.js';

/** A record as stored, or as written earlier in the batch (no id: new in it). */
export interface Held {
  readonly id: number | undefined;
  fingerprint: string;
}

interface SourceKey {
  source: string;
  source_id: string;
}

export class HeldRecords {
  readonly #bySource = new Map<string, Map<string, Held>>();

  get(source: string, sourceId: string): Held | undefined {
    return this.#bySource.get(source)?.get(sourceId);
  }

  /**
   * Whether the batch changes `record`, counted in `summary`: unchanged (undefined) when its fingerprint is the one
   * held; else the record as held from now on — one object per record, whatever the times the batch names it.
   */
  change(summary: ProcurementWriteSummary, record: SourceKey, fingerprint: string): Held | undefined {
    const held = this.get(record.source, record.source_id);
    if (held?.fingerprint === fingerprint) {
      summary.unchanged++;
      return undefined;
    }
    if (held) {
      summary.updated++;
      held.fingerprint = fingerprint;
      return held;
    }
    summary.inserted++;
    return this.hold(record.source, record.source_id, { id: undefined, fingerprint });
  }

  hold(source: string, sourceId: string, held: Held): Held {
    let records = this.#bySource.get(source);
    if (!records) {
      records = new Map();
      this.#bySource.set(source, records);
    }
    records.set(sourceId, held);
    return held;
  }
}

/** The stored records of `table` among `keys`, in one statement. */
export async function heldRecords(
  tx: SqlPort,
  table: 'contracts' | 'announcements' | 'amendments',
  keys: readonly SourceKey[],
): Promise<HeldRecords> {
  const held = new HeldRecords();
  if (keys.length === 0) return held;
  const named = tx.dialect.rows('$1', [
    ['source', 'text'],
    ['source_id', 'text'],
  ]);
  const rows = await tx.query(
    `SELECT t.id, t.source, t.source_id, t.fingerprint FROM ${named} AS k
     JOIN ${table} t ON t.source = k.source AND t.source_id = k.source_id`,
    [JSON.stringify(keys.map((k) => [k.source, k.source_id]))],
  );
  for (const r of rows)
    held.hold(String(r.source), String(r.source_id), { id: Number(r.id), fingerprint: String(r.fingerprint) });
  return held;
}
