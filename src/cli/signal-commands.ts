/** `detect` (the detectors, the cases, then the alert matcher) and `import signals FILE`. */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { detectAndMatch } from '../alerts/detect-and-match.js';
import { importSignals } from '../detect/import-signals.js';
import { AdminError } from '../lib/admin-error.js';
import type { CliContext } from './context.js';
import { detectText, signalImportText } from './data-report-text.js';
import { print } from './output.js';

export function registerDetectCommand(program: Command, cli: CliContext): void {
  program
    .command('detect')
    .description(
      'Detect signals from the procurement and indicator data changed since the last run, group them into cases, ' +
        'then match alert rules (incremental and idempotent)',
    )
    .action(() =>
      cli.withStore(async (store) => {
        const report = await detectAndMatch(store, new Date());
        print(cli.json(), report, () => detectText(report));
      }),
    );
}

/** `import signals FILE`: exit 0 when the file was read (bad lines are listed), 2 when it cannot be read. */
export function registerSignalImport(imports: Command, cli: CliContext): void {
  imports
    .command('signals')
    .description('Import signals of outside detectors: JSON Lines, one signal per line (format in docs/signals.md)')
    .argument('<file>', 'a .jsonl file')
    .action((file: string) =>
      readFile(file, 'utf8').then(
        (text) =>
          cli.withStore(async (store) => {
            const report = await importSignals(store, text, { fileName: file, now: new Date() });
            print(cli.json(), report, () => signalImportText(report));
          }),
        (error: NodeJS.ErrnoException) => {
          throw new AdminError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
        },
      ),
    );
}
