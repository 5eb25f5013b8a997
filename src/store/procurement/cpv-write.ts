/**
 * The CPV vocabulary (Store.saveCpvs, Store.countCpvs, Store.cpvVocabulary): upserted by code, unchanged codes
 * counted and left alone.
 * Set-wise: the stored codes are read in one statement, compared here in input order (a code given twice is
 * written once, as last given), and the new or changed ones written in one statement (`dialect.rows`), with one
 * procurement-version bump (the labels are part of the procurement records) — the whole vocabulary (9 454 codes) at
 * migration is two statements.
 */
import { bumpProcurementVersion } from '../meta.js';
import type { CpvRecord } from '../procurement-records.js';
import type { WriteSummary } from '../records.js';
import { recordCodec, text, textOrNull } from '../shared/record-codec.js';
import type { SqlPort } from '../sql/port.js';
import { setExcluded } from '../sql/statements.js';

const CPV = recordCodec<CpvRecord>({ code: text, division: text, label_pt: textOrNull, label_en: textOrNull });
const COLUMNS = CPV.columns.join(', ');

/** Call it inside a transaction. */
export async function saveCpvs(tx: SqlPort, cpvs: readonly CpvRecord[]): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  if (cpvs.length === 0) return summary;
  const held = await CPV.all(tx, `SELECT ${COLUMNS} FROM cpvs WHERE ${tx.dialect.inList('code', '$1')}`, [
    cpvs.map((c) => c.code),
  ]);
  const stored = new Map(held.map((cpv) => [cpv.code, CPV.values(cpv, CPV.columns)]));
  const written = new Map<string, unknown[]>();
  for (const cpv of cpvs) {
    const row = CPV.values(cpv, CPV.columns);
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
  await tx.run(
    `INSERT INTO cpvs (${COLUMNS}) SELECT ${COLUMNS} FROM ${tx.dialect.rows('$1', CPV.batch())} AS v WHERE true
     ON CONFLICT (code) DO UPDATE SET ${setExcluded(CPV.except('code'))}`,
    [JSON.stringify([...written.values()])],
  );
  await bumpProcurementVersion(tx);
  return summary;
}

export async function countCpvs(port: SqlPort): Promise<number> {
  const [row] = await port.query('SELECT count(*) AS n FROM cpvs');
  return Number(row.n);
}

export function cpvVocabulary(port: SqlPort): Promise<CpvRecord[]> {
  return CPV.all(port, `SELECT ${COLUMNS} FROM cpvs ORDER BY code`);
}
