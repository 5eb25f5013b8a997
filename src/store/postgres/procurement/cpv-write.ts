/** The CPV vocabulary: upserted by code, unchanged codes counted and left alone. Call it inside a transaction. */
import type { CpvRecord } from '../../procurement-records.js';
import type { WriteSummary } from '../../records.js';
import type { Sql } from '../db.js';
import { saveRows } from '../save-rows.js';

export async function saveCpvs(sql: Sql, rows: readonly CpvRecord[]): Promise<WriteSummary> {
  return saveRows(
    sql,
    'cpvs',
    'code',
    rows.map((cpv) => ({ code: cpv.code, division: cpv.division, label_pt: cpv.label_pt ?? null, label_en: cpv.label_en ?? null })),
  );
}
