/** The CPV vocabulary: upserted by code, unchanged codes counted and left alone. */

import type { CpvRecord } from '../../procurement-records.js';
import type { WriteSummary } from '../../records.js';
import type { Row, Sql } from './sql.js';

export function saveCpvs(sql: Sql, rows: readonly CpvRecord[]): WriteSummary {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const select = sql('SELECT division, label_pt, label_en FROM cpvs WHERE code = ?');
  const upsert = sql(
    `INSERT INTO cpvs (code, division, label_pt, label_en) VALUES (@code, @division, @label_pt, @label_en)
     ON CONFLICT (code) DO UPDATE SET division = excluded.division, label_pt = excluded.label_pt, label_en = excluded.label_en`,
  );
  for (const cpv of rows) {
    const row = { code: cpv.code, division: cpv.division, label_pt: cpv.label_pt ?? null, label_en: cpv.label_en ?? null };
    const old = select.get(row.code) as Row | undefined;
    if (old && old.division === row.division && old.label_pt === row.label_pt && old.label_en === row.label_en) {
      summary.unchanged++;
      continue;
    }
    upsert.run(row);
    if (old) summary.updated++;
    else summary.inserted++;
  }
  return summary;
}
