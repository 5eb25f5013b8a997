/**
 * `migrate`, `demo` and `import`: getting data into the store. The commands' work is in actions/<group>.ts, imported
 * when one runs (lazy-actions.ts).
 */
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_DEMO_CONTRACTS, DEFAULT_DEMO_SEED } from '../demo/demo-defaults.js';
import type { BaseDataset } from '../ingest/base/import-base.js';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { registerDetectCommand, registerSignalImport } from './signal-commands.js';
import { registerSyncCommands } from './sync-commands.js';

const migrateActions = lazyActions(() => import('./actions/migrate.js'));
const demoActions = lazyActions(() => import('./actions/demo.js'));
const importActions = lazyActions(() => import('./actions/import.js'));

export function registerDataCommands(program: Command, cli: CliContext): void {
  program
    .command('migrate')
    .description(
      'Create or upgrade the schema and seed the reference data (default plans, municipalities, indicator catalogue, ' +
        'CPV vocabulary, alert templates); says what it applied (idempotent)',
    )
    .action(migrateActions((a) => a.migrate(cli)));

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
    .action(demoActions((a, o: { seed: number; contracts: number }) => a.load(cli, o)));
  demo
    .command('remove')
    .description(
      'Delete every generated record — demo procurement, demo series, and the signals, cases and alert matches ' +
        'derived from them — in one transaction; imported data, accounts, keys, rules and usage stay',
    )
    .action(demoActions((a) => a.remove(cli)));

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
    .action(
      importActions((a, file: string, o: { indicator?: string; force: boolean; dimension?: string[] }) =>
        a.ine(cli, file, o),
      ),
    );

  imports
    .command('real')
    .description(
      'Load the real data shipped in data/real/: the series (crime rate, purchasing power, burnt area by ignition ' +
        'municipality) into their indicators, replacing demo series, and the Portal BASE contracts of January–' +
        'February 2024 as source base; idempotent (a first start loads them by itself)',
    )
    .option('--force', 'replace a series another source (an INE sync, another import) holds', false)
    .action(importActions((a, o: { force: boolean }) => a.real(cli, o)));
  registerBaseImport(imports, cli, 'auto');
  for (const dataset of ['contracts', 'announcements', 'amendments'] as const)
    registerBaseImport(imports, cli, dataset);
  registerSignalImport(imports, cli);
  registerDetectCommand(program, cli);
  registerSyncCommands(program, cli);
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

/** `import base-<dataset> FILE [--format json|csv]`, and `import base FILE` (actions/import.ts says what they read). */
function registerBaseImport(imports: Command, cli: CliContext, dataset: BaseDataset | 'auto'): void {
  imports
    .command(dataset === 'auto' ? 'base' : `base-${dataset}`)
    .description(BASE_DESCRIPTIONS[dataset])
    .argument('<file>', 'the export file (.json, .csv, a .zip holding one, or either gzip-compressed: .json.gz)')
    .option('--format <format>', 'json or csv (default: from the file name)')
    .action(importActions((a, file: string, o: { format?: string }) => a.base(cli, dataset, file, o)));
}
