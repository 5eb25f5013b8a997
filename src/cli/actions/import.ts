/**
 * What the `import` commands do: `ine`, `real` and `base…` (registered in data-commands.ts), `signals`
 * (signal-commands.ts).
 */
import { readFile } from 'node:fs/promises';
import { importSignals } from '../../detect/import-signals.js';
import {
  type BaseDataset,
  BaseFileError,
  type BaseFormat,
  type BaseImportReport,
  importBase,
} from '../../ingest/base/import-base.js';
import { readIneMappings } from '../../ingest/catalogue.js';
import { gunzipped, isGzip } from '../../ingest/gzip.js';
import { importIne } from '../../ingest/ine/import-ine.js';
import { parseIneResponse } from '../../ingest/ine/parse.js';
import { importReal } from '../../ingest/real/import-real.js';
import { isZip, theDataFileIn } from '../../ingest/sync/zip.js';
import { AdminError } from '../../lib/admin-error.js';
import type { CliContext } from '../context.js';
import { baseReportText, ineImportText, realImportText, signalImportText } from '../data-report-text.js';
import { print } from '../output.js';

export function ine(
  cli: CliContext,
  file: string,
  o: { indicator?: string; force: boolean; dimension?: string[] },
): Promise<void> {
  return cli.withStore(async (store) => {
    const text = await readFile(file, 'utf8');
    const asked = o.dimension ? dimensionChoices(o.dimension) : undefined;
    const mappings = readIneMappings();
    const key = o.indicator ?? indicatorOfFile(text, mappings);
    const mapping = mappings.get(key);
    // The catalogue's dimension filters describe its own code: a file of another code is refused on its code.
    const sameCode = mapping?.ine_varcd != null && parseIneResponse(text).some((i) => i.code === mapping.ine_varcd);
    const report = await importIne(store, text, {
      indicator: key,
      catalogueCode: mapping?.ine_varcd ?? null,
      dimensions: asked ?? (sameCode ? (mapping?.ine_dimensions ?? undefined) : undefined),
      force: o.force,
    });
    print(cli.json(), report, () => ineImportText(report));
  });
}

/** `--dimension dim_3=H1 4=T` → `{ dim_3: 'H1', dim_4: 'T' }`. */
function dimensionChoices(choices: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const choice of choices) {
    const m = /^(?:dim_)?(\d+)=(\S+)$/.exec(choice.trim());
    if (!m) throw new AdminError(`--dimension takes dim_N=CODE (e.g. dim_3=H1), not "${choice}"`);
    out[`dim_${m[1]}`] = m[2];
  }
  return out;
}

/** The catalogue indicator whose INE code (`ine_varcd`) is the file's `IndicadorCod`. */
function indicatorOfFile(text: string, mappings: ReadonlyMap<string, { ine_varcd: string | null }>): string {
  const codes = parseIneResponse(text).map((i) => i.code);
  const keys = [...mappings].filter(([, m]) => m.ine_varcd !== null && codes.includes(m.ine_varcd)).map(([key]) => key);
  if (keys.length === 1) return keys[0];
  throw new AdminError(
    keys.length === 0
      ? `the file holds INE ${codes.join(', ')}, which no catalogue indicator has as its INE code: name the ` +
          `indicator with --indicator KEY (and --force if the check refuses it)`
      : `the file's INE codes match several indicators (${keys.join(', ')}): name one with --indicator KEY`,
  );
}

export function real(cli: CliContext, o: { force: boolean }): Promise<void> {
  return cli.withStore(async (store) => {
    const report = await importReal(store, { force: o.force });
    print(cli.json(), report, () => realImportText(report));
  });
}

/**
 * `import base-<dataset> FILE [--format json|csv]`, and `import base FILE` (the dataset told by the file's fields).
 * FILE may be the ZIP the portal publishes a year's contracts in (the one JSON or CSV file inside is read), or a
 * gzip-compressed file (`.json.gz`, the format told from the name without `.gz`). Exit 0
 * when the file was imported (rejected rows are listed in the report), 2 when it cannot be read or parsed at all
 * (nothing is written then).
 */
export function base(
  cli: CliContext,
  dataset: BaseDataset | 'auto',
  file: string,
  o: { format?: string },
): Promise<void> {
  return readFile(file).then(
    (bytes) =>
      cli.withStore(async (store) => {
        let report: BaseImportReport;
        try {
          const data = isZip(bytes) ? unzipped(bytes, file) : { ...ungzipped(bytes, file), format: null };
          const format = o.format !== undefined || data.format === null ? baseFormat(data.name, o.format) : data.format;
          report = await importBase(dataset, store, data.bytes, { format, fileName: data.name });
        } catch (error) {
          if (error instanceof BaseFileError) throw new AdminError(`${file}: ${error.message}`);
          throw error;
        }
        print(cli.json(), report, () => baseReportText(report));
      }),
    (error: NodeJS.ErrnoException) => {
      throw new AdminError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    },
  );
}

/** The data file inside a ZIP; an archive that cannot be read is the file's fault (exit 2), not ours. */
function unzipped(bytes: Buffer, file: string): { bytes: Buffer; name: string; format: BaseFormat } {
  try {
    return theDataFileIn(bytes, file);
  } catch (error) {
    throw new AdminError(`${file}: ${(error as Error).message}`);
  }
}

/** The bytes of a gzip-compressed file, or the bytes as they are; a damaged stream is the file's fault (exit 2). */
function ungzipped(bytes: Buffer, file: string): { bytes: Buffer; name: string } {
  if (!isGzip(bytes)) return { bytes, name: file };
  try {
    return gunzipped(bytes, file);
  } catch (error) {
    throw new AdminError(`${file}: ${(error as Error).message}`);
  }
}

function baseFormat(file: string, option: string | undefined): BaseFormat {
  const chosen = option ?? /\.(json|jsonl|ndjson|csv|txt)$/i.exec(file)?.[1].toLowerCase();
  if (chosen === 'json' || chosen === 'jsonl' || chosen === 'ndjson') return 'json';
  if (chosen === 'csv' || chosen === 'txt') return 'csv';
  if (option !== undefined) throw new AdminError(`--format must be json or csv, not "${option}"`);
  throw new AdminError(`cannot tell the format of ${file} from its name: add --format json or --format csv`);
}

/** `import signals FILE`: exit 0 when the file was read (bad lines are listed), 2 when it cannot be read. */
export function signals(cli: CliContext, file: string): Promise<void> {
  return readFile(file, 'utf8').then(
    (text) =>
      cli.withStore(async (store) => {
        const report = await importSignals(store, text, { fileName: file, now: new Date() });
        print(cli.json(), report, () => signalImportText(report));
      }),
    (error: NodeJS.ErrnoException) => {
      throw new AdminError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    },
  );
}
