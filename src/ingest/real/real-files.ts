/** The copies of real data the project ships under `data/real/` (data/SOURCES.md, "Real data"), read as CSV rows. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseCsv } from '../csv.js';
import { dataFile } from '../data-files.js';

/** `name` is the path under `data/real/`; a `.gz` file is unpacked first. */
export function readRealCsv(name: string): Record<string, string>[] {
  const bytes = readFileSync(dataFile(`real/${name}`));
  return parseCsv((name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
}
