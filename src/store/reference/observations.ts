/**
 * Observation writes: the indicator's stored points are read once and compared here; points left out of a
 * replacing write are deleted in one statement, and new, changed and renormalized points upserted in one.
 * Call it inside a transaction.
 */
import { appendChanges } from '../journal/journal.js';
import { bumpDataVersion } from '../meta.js';
import type { ObservationInput, WriteSummary } from '../records.js';
import type { Row, SqlPort } from '../sql/port.js';

export async function writeObservations(
  tx: SqlPort,
  indicator: string,
  rows: readonly ObservationInput[],
  options: { replace?: boolean },
): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const keyOf = (r: ObservationInput | Row) => `${r.municipality_id}|${r.reference_date}`;
  const stored = new Map(
    (
      await tx.query(
        'SELECT municipality_id, reference_date, value, value_norm, treatment FROM observations WHERE indicator = $1',
        [indicator],
      )
    ).map((r) => [keyOf(r), r]),
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
  const removedKeys: string[] = [];
  if (options.replace) {
    const keep = new Set(rows.map(keyOf));
    const gone = [...stored.values()].filter((r) => !keep.has(keyOf(r)));
    if (gone.length > 0) {
      const batch = tx.dialect.rows('$2', [
        ['municipality_id', 'integer'],
        ['reference_date', 'text'],
      ]);
      await tx.run(
        `DELETE FROM observations WHERE indicator = $1
           AND EXISTS (SELECT 1 FROM ${batch} AS g WHERE g.municipality_id = observations.municipality_id
                       AND g.reference_date = observations.reference_date)`,
        [indicator, JSON.stringify(gone.map((r) => [r.municipality_id, r.reference_date]))],
      );
      removed = gone.length;
      for (const r of gone) {
        touch(Number(r.municipality_id), String(r.reference_date));
        removedKeys.push(keyOf(r));
      }
    }
  }
  const changed = [...written.values()];
  for (const r of changed) touch(r.municipality_id, r.reference_date);
  if (changed.length + removed === 0) return summary;

  // The indicator as it will be, normalized here: one upsert writes the changed points and every other point
  // whose normalized value moved, instead of writing the points and then rewriting the whole indicator.
  const after = new Map<
    string,
    { municipality_id: number; reference_date: string; value: number | null; treatment: string; value_norm: unknown }
  >();
  for (const [key, r] of stored) {
    after.set(key, {
      municipality_id: Number(r.municipality_id),
      reference_date: String(r.reference_date),
      value: r.value as number | null,
      treatment: String(r.treatment),
      value_norm: r.value_norm,
    });
  }
  for (const key of removedKeys) after.delete(key);
  for (const [key, r] of written) after.set(key, { ...r, value_norm: undefined });
  const norms = normalized([...after.values()]);
  const upserts = [...after.entries()]
    .filter(([key, r]) => written.has(key) || norms.get(r) !== r.value_norm)
    .map(([, r]) => r);
  const batch = tx.dialect.rows('$2', [
    ['municipality_id', 'integer'],
    ['reference_date', 'text'],
    ['value', 'real'],
    ['value_norm', 'real'],
    ['treatment', 'text'],
  ]);
  await tx.run(
    `INSERT INTO observations (indicator, municipality_id, reference_date, value, value_norm, treatment)
     SELECT $1, u.municipality_id, u.reference_date, u.value, u.value_norm, u.treatment FROM ${batch} AS u WHERE true
     ON CONFLICT (indicator, municipality_id, reference_date) DO UPDATE
       SET value = excluded.value, value_norm = excluded.value_norm, treatment = excluded.treatment`,
    [
      indicator,
      JSON.stringify(
        upserts.map((r) => [r.municipality_id, r.reference_date, r.value, norms.get(r) ?? null, r.treatment]),
      ),
    ],
  );
  await appendChanges(
    tx,
    [...touched].map(([id, date]) => ({ kind: 'observation', id, key: indicator, date })),
  );
  await bumpDataVersion(tx);
  return summary;
}

/**
 * value_norm = the value's position between the lowest and highest value of all municipalities at the same
 * reference date, 0 to 100 with two decimals (50 when all are equal; null without a value).
 */
function normalized<T extends { reference_date: string; value: number | null }>(
  points: readonly T[],
): Map<T, number | null> {
  const range = new Map<string, { lo: number; hi: number }>();
  for (const p of points) {
    if (p.value === null) continue;
    const held = range.get(p.reference_date);
    if (!held) range.set(p.reference_date, { lo: p.value, hi: p.value });
    else {
      held.lo = Math.min(held.lo, p.value);
      held.hi = Math.max(held.hi, p.value);
    }
  }
  const norms = new Map<T, number | null>();
  for (const p of points) {
    const r = range.get(p.reference_date);
    if (p.value === null || !r) norms.set(p, null);
    else if (r.hi === r.lo) norms.set(p, 50);
    else norms.set(p, Math.round((((p.value - r.lo) * 100) / (r.hi - r.lo)) * 100) / 100);
  }
  return norms;
}
