/**
 * The CPV vocabulary (Store.saveCpvs, Store.countCpvs): upserted by code, unchanged codes counted and left alone.
 * Set-wise: the stored codes are read in one statement, compared here in input order (a code given twice is
 * written once, as last given), and the new or changed ones written in one statement (`dialect.rows`), with one
 * data-version bump — the whole vocabulary (9 454 codes) at migration is two statements.
 */
import { bumpDataVersion } from '../meta.js';
import type { CpvRecord } from '../procurement-records.js';
import type { WriteSummary } from '../records.js';
import type { SqlPort } from '../sql/port.js';

type CpvRow = [code: string, division: string, label_pt: string | null, label_en: string | null];

/** Call it inside a transaction. */
export async function saveCpvs(tx: SqlPort, cpvs: readonly CpvRecord[]): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  if (cpvs.length === 0) return summary;
  const stored = new Map<string, CpvRow>();
  for (const r of await tx.query(`SELECT code, division, label_pt, label_en FROM cpvs WHERE ${tx.dialect.inList('code', '$1')}`, [
    cpvs.map((c) => c.code),
  ])) {
    stored.set(String(r.code), [String(r.code), String(r.division), r.label_pt as string | null, r.label_en as string | null]);
  }
  const written = new Map<string, CpvRow>();
  for (const cpv of cpvs) {
    const row: CpvRow = [cpv.code, cpv.division, cpv.label_pt ?? null, cpv.label_en ?? null];
    const old = stored.get(cpv.code);
    if (!old) summary.inserted++;
    else if (old.every((value, i) => value === row[i])) {
      summary.unchanged++;
      continue;
    } else summary.updated++;
    stored.set(cpv.code, row);
    written.set(cpv.code, row);
  }
  if (written.size === 0) return summary;
  const rows = tx.dialect.rows('$1', [
    ['code', 'text'],
    ['division', 'text'],
    ['label_pt', 'text'],
    ['label_en', 'text'],
  ]);
  await tx.run(
    `INSERT INTO cpvs (code, division, label_pt, label_en) SELECT v.code, v.division, v.label_pt, v.label_en FROM ${rows} AS v WHERE true
     ON CONFLICT (code) DO UPDATE SET division = excluded.division, label_pt = excluded.label_pt, label_en = excluded.label_en`,
    [JSON.stringify([...written.values()])],
  );
  await bumpDataVersion(tx);
  return summary;
}

export async function countCpvs(port: SqlPort): Promise<number> {
  const [row] = await port.query('SELECT count(*) AS n FROM cpvs');
  return Number(row.n);
}
