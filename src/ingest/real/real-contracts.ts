/**
 * The real Portal BASE contracts the project ships (data/real/base-2024-jan-feb/, data/SOURCES.md): loaded as
 * source `base` through the same importer as `munidata import base`, so a later import of the portal's own
 * export of those months merges into them.
 */
import { readFileSync } from 'node:fs';
import { type BaseImportReport, type BaseImportStore, importBaseContracts } from '../base/import-base.js';
import { dataFile } from '../data-files.js';
import { gunzipped } from '../gzip.js';

export const REAL_CONTRACTS_FILE = 'base-2024-jan-feb/contratos-2024-01-02.json.gz';

/** A second load changes nothing: a record whose content is unchanged keeps its first `imported_at`. */
export function importRealContracts(store: BaseImportStore, now: Date): Promise<BaseImportReport> {
  const { bytes } = gunzipped(readFileSync(dataFile(`real/${REAL_CONTRACTS_FILE}`)), REAL_CONTRACTS_FILE);
  return importBaseContracts(store, bytes, {
    format: 'json',
    fileName: `data/real/${REAL_CONTRACTS_FILE}`,
    now,
  });
}
