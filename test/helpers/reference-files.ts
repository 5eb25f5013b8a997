/**
 * The project's reference data read straight from its files, independently of the code under test, so that
 * black-box tests compare the service's answers with the files rather than with the service's own loaders.
 */
import { readFileSync } from 'node:fs';

export interface CsvMunicipality {
  id: number;
  code: string;
  slug: string;
  name: string;
  district: string;
  nuts_ii: string;
  nuts_iii: string;
}

export function municipalitiesFromFile(): CsvMunicipality[] {
  const text = readFileSync(new URL('../../data/municipalities.csv', import.meta.url), 'utf8');
  if (text.includes('"')) throw new Error('municipalities.csv has quoted fields; a plain split is not enough');
  const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = header.split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    const row = Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
    return {
      id: Number(row.id),
      code: row.code,
      slug: row.slug,
      name: row.name,
      district: row.district,
      nuts_ii: row.nuts_ii,
      nuts_iii: row.nuts_iii,
    };
  });
}
