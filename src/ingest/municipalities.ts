/** The 308 municipalities, from the project's own `data/municipalities.csv` (see docs/data.md for its sources). */
import { readFileSync } from 'node:fs';
import type { MunicipalityRecord } from '../store/records.js';
import { parseCsv } from './csv.js';
import { dataFile } from './data-files.js';

export function readMunicipalities(path = dataFile('municipalities.csv')): MunicipalityRecord[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r) => ({
    id: Number(r.id),
    code: r.code,
    slug: r.slug,
    name: r.name,
    district: r.district,
    nuts_ii: r.nuts_ii,
    nuts_iii: r.nuts_iii,
    nuts_iii_code: r.nuts_iii_code,
    island: r.island || null,
    population_2021: Number(r.population_2021),
    area_km2: Number(r.area_km2),
    nif: r.nif,
  }));
}
