/** The CPV 2008 vocabulary, from the project's own `data/cpv.csv` (derived from the EU list; see docs/data.md). */
import { readFileSync } from 'node:fs';
import type { CpvRecord } from '../store/procurement-records.js';
import { parseCsv } from './csv.js';
import { dataFile } from './data-files.js';

export function readCpvs(path = dataFile('cpv.csv')): CpvRecord[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r, i) => {
    if (!/^\d{8}$/.test(r.code) || r.division !== r.code.slice(0, 2)) {
      throw new Error(
        `${path}: row ${i + 2} has code "${r.code}" and division "${r.division}"; ` +
          `expected 8 digits and their first two`,
      );
    }
    return { code: r.code, division: r.division, label_pt: r.label_pt || null, label_en: r.label_en || null };
  });
}
