/**
 * Observation writes: the indicator's stored points are read once and compared here; new and changed points are
 * upserted in one statement, points left out of a replacing write deleted in one, and the normalized values of
 * the indicator recomputed. Call it inside a transaction.
 */
import type { ObservationInput, WriteSummary } from '../records.js';
import { bumpDataVersion } from './data-version.js';
import type { Row, Sql } from './db.js';
import { appendChanges } from './signals/journal.js';

export async function writeObservations(
  sql: Sql,
  indicator: string,
  rows: readonly ObservationInput[],
  options: { replace?: boolean },
): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const keyOf = (r: ObservationInput | Row) => `${r.municipality_id}|${r.reference_date}`;
  const stored = new Map(
    (await sql('SELECT municipality_id, reference_date, value, treatment FROM observations WHERE indicator = $1', [indicator])).map((r) => [
      keyOf(r),
      r,
    ]),
  );
  // Later points of the same municipality and date win, as they would written one after the other.
  const written = new Map<string, ObservationInput>();
  for (const row of rows) {
    const key = keyOf(row);
    const old = written.get(key) ?? stored.get(key);
    if (old && old.value === row.value && old.treatment === row.treatment) {
      summary.unchanged++;
      continue;
    }
    if (old) summary.updated++;
    else summary.inserted++;
    written.set(key, row);
  }
  // The journal gets one entry per municipality whose points changed, with the latest reference date changed.
  const touched = new Map<number, string>();
  const touch = (municipalityId: number, date: string) => {
    const latest = touched.get(municipalityId);
    if (latest === undefined || date > latest) touched.set(municipalityId, date);
  };
  let removed = 0;
  if (options.replace) {
    const keep = new Set(rows.map(keyOf));
    const gone = [...stored.values()].filter((r) => !keep.has(keyOf(r)));
    if (gone.length > 0) {
      await sql(
        `DELETE FROM observations WHERE indicator = $1
           AND (municipality_id, reference_date) IN (SELECT * FROM unnest($2::integer[], $3::text[]))`,
        [indicator, gone.map((r) => r.municipality_id), gone.map((r) => r.reference_date)],
      );
      removed = gone.length;
      for (const r of gone) touch(Number(r.municipality_id), String(r.reference_date));
    }
  }
  const changed = [...written.values()];
  for (const r of changed) touch(r.municipality_id, r.reference_date);
  if (changed.length > 0) {
    await sql(
      `INSERT INTO observations (indicator, municipality_id, reference_date, value, treatment)
       SELECT $1, * FROM unnest($2::integer[], $3::text[], $4::double precision[], $5::text[])
       ON CONFLICT (indicator, municipality_id, reference_date) DO UPDATE SET value = excluded.value, treatment = excluded.treatment`,
      [
        indicator,
        changed.map((r) => r.municipality_id),
        changed.map((r) => r.reference_date),
        changed.map((r) => r.value),
        changed.map((r) => r.treatment),
      ],
    );
  }
  if (changed.length + removed > 0) {
    await appendChanges(
      sql,
      [...touched].map(([id, date]) => ({ kind: 'observation', id, key: indicator, date })),
    );
    await normalize(sql, indicator);
    await bumpDataVersion(sql);
  }
  return summary;
}

/**
 * value_norm = the value's position between the lowest and highest value of all municipalities at the same
 * reference date, 0 to 100 (50 when all are equal), as in the SQLite store.
 */
async function normalize(sql: Sql, indicator: string): Promise<void> {
  await sql(
    `UPDATE observations o SET value_norm = CASE
         WHEN o.value IS NULL THEN NULL
         WHEN s.hi = s.lo THEN 50.0
         ELSE round(((o.value - s.lo) * 100.0 / (s.hi - s.lo))::numeric, 2)::double precision END
     FROM (SELECT reference_date, min(value) AS lo, max(value) AS hi FROM observations
           WHERE indicator = $1 GROUP BY reference_date) AS s
     WHERE o.indicator = $1 AND o.reference_date = s.reference_date`,
    [indicator],
  );
}
