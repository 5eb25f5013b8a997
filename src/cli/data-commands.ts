/** `migrate`, `demo` and `import`: getting data into the store. */
import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { migrate } from '../admin/migrate.js';
import { DEFAULT_DEMO_CONTRACTS, DEFAULT_DEMO_SEED } from '../demo/demo-defaults.js';
import { loadDemo } from '../demo/load-demo.js';
import {
  type BaseDataset,
  BaseFileError,
  type BaseFormat,
  type BaseImportReport,
  importBase,
} from '../ingest/base/import-base.js';
import { readIneMappings } from '../ingest/catalogue.js';
import { gunzipped, isGzip } from '../ingest/gzip.js';
import { importIne } from '../ingest/ine/import-ine.js';
import { parseIneResponse } from '../ingest/ine/parse.js';
import { importReal } from '../ingest/real/import-real.js';
import { isZip, theDataFileIn } from '../ingest/sync/zip.js';
import { AdminError } from '../lib/admin-error.js';
import { describeStore } from '../store/open-store.js';
import type { CliContext } from './context.js';
import {
  baseReportText,
  demoRemovalText,
  demoText,
  ineImportText,
  migrateText,
  realImportText,
} from './data-report-text.js';
import { print } from './output.js';
import { registerDetectCommand, registerSignalImport } from './signal-commands.js';
import { registerSyncCommands } from './sync-commands.js';

export function registerDataCommands(program: Command, cli: CliContext): void {
  program
    .command('migrate')
    .description(
      'Create or upgrade the schema and seed the reference data (default plans, municipalities, indicator catalogue, ' +
        'CPV vocabulary, alert templates); says what it applied (idempotent)',
    )
    .action(() =>
      cli.withStore(
        async (store) => {
          const report = await migrate(store);
          print(cli.json(), { migrated: true, ...report }, () => migrateText(describeStore(cli.config), report));
        },
        { migrate: false },
      ),
    );

  const demo = program
    .command('demo')
    .description(
      'Load the generated (synthetic) data beside the real reference data (the 308 municipalities, the indicator ' +
        'catalogue): series of the indicators without real data, procurement (only open calls for tenders when ' +
        'the store holds real contracts), the demo account with its alert rules; then detection and alert ' +
        'matching (idempotent)',
    )
    .option('--seed <n>', 'seed of the generator', (t) => Number.parseInt(t, 10), DEFAULT_DEMO_SEED)
    .option(
      '--contracts <n>',
      'synthetic contracts, when the store holds no real ones',
      contractCount,
      DEFAULT_DEMO_CONTRACTS,
    )
    .action((o: { seed: number; contracts: number }) =>
      cli.withStore(async (store) => {
        const summary = await loadDemo(store, { seed: o.seed, contracts: o.contracts });
        print(cli.json(), summary, () => demoText(summary));
      }),
    );
  demo
    .command('remove')
    .description(
      'Delete every generated record — demo procurement, demo series, and the signals, cases and alert matches ' +
        'derived from them — in one transaction; imported data, accounts, keys, rules and usage stay',
    )
    .action(() =>
      cli.withStore(async (store) => {
        const removed = await store.removeDemoData();
        print(cli.json(), removed, () => demoRemovalText(removed));
      }),
    );

  const imports = program.command('import').description('Import real data');
  imports
    .command('ine')
    .description("Import an INE (Statistics Portugal) JSON indicator response into one indicator's series")
    .argument('<file>', 'a saved response of the INE JSON API (pindica.jsp)')
    .option(
      '--indicator <key>',
      "the catalogue key the data belongs to (default: the one whose INE code is the file's)",
    )
    .option(
      '--force',
      "import even when the file's code or unit contradicts the indicator, or its series holds another source",
      false,
    )
    .option(
      '--dimension <dim=code...>',
      "the category to take of an extra dimension, e.g. dim_3=H1 (default: the catalogue's, else each dimension's " +
        'total)',
    )
    .action((file: string, o: { indicator?: string; force: boolean; dimension?: string[] }) =>
      cli.withStore(async (store) => {
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
      }),
    );

  imports
    .command('real')
    .description(
      'Load the real data shipped in data/real/: the series (crime rate, purchasing power, burnt area by ignition ' +
        'municipality) into their indicators, replacing demo series, and the Portal BASE contracts of January–' +
        'February 2024 as source base; idempotent (a first start loads them by itself)',
    )
    .option('--force', 'replace a series another source (an INE sync, another import) holds', false)
    .action((o: { force: boolean }) =>
      cli.withStore(async (store) => {
        const report = await importReal(store, { force: o.force });
        print(cli.json(), report, () => realImportText(report));
      }),
    );
  registerBaseImport(imports, cli, 'auto');
  for (const dataset of ['contracts', 'announcements', 'amendments'] as const)
    registerBaseImport(imports, cli, dataset);
  registerSignalImport(imports, cli);
  registerDetectCommand(program, cli);
  registerSyncCommands(program, cli);
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

/** `--contracts`: a whole number from 0 to 10 000 000 (`1000000`, `1_000_000` and `1e6` are accepted). */
function contractCount(text: string): number {
  const n = text.trim() === '' ? Number.NaN : Number(text.replaceAll('_', ''));
  if (!Number.isSafeInteger(n) || n < 0 || n > 10_000_000) {
    throw new InvalidArgumentError('expected a whole number of contracts from 0 to 10000000');
  }
  return n;
}

const BASE_DESCRIPTIONS: Record<BaseDataset | 'auto', string> = {
  auto:
    'Import a Portal BASE export of any of the three datasets, told by its fields (contracts, announcements or ' +
    'modifications)',
  contracts: 'Import a Portal BASE contracts export (contratos: JSON as on dados.gov.pt, or CSV)',
  announcements: 'Import a Portal BASE announcements export (anúncios: JSON or CSV)',
  amendments: 'Import a Portal BASE contract modifications export (modificações contratuais: JSON or CSV)',
};

/**
 * `import base-<dataset> FILE [--format json|csv]`, and `import base FILE` (the dataset told by the file's fields).
 * FILE may be the ZIP the portal publishes a year's contracts in (the one JSON or CSV file inside is read), or a
 * gzip-compressed file (`.json.gz`, the format told from the name without `.gz`). Exit 0
 * when the file was imported (rejected rows are listed in the report), 2 when it cannot be read or parsed at all
 * (nothing is written then).
 */
function registerBaseImport(imports: Command, cli: CliContext, dataset: BaseDataset | 'auto'): void {
  imports
    .command(dataset === 'auto' ? 'base' : `base-${dataset}`)
    .description(BASE_DESCRIPTIONS[dataset])
    .argument('<file>', 'the export file (.json, .csv, a .zip holding one, or either gzip-compressed: .json.gz)')
    .option('--format <format>', 'json or csv (default: from the file name)')
    .action((file: string, o: { format?: string }) =>
      readFile(file).then(
        (bytes) =>
          cli.withStore(async (store) => {
            let report: BaseImportReport;
            try {
              const data = isZip(bytes) ? unzipped(bytes, file) : { ...ungzipped(bytes, file), format: null };
              const format =
                o.format !== undefined || data.format === null ? baseFormat(data.name, o.format) : data.format;
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
      ),
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
