/**
 * `detect` (the detectors, the cases, then the alert matcher) and `import signals FILE`. The commands' work is in
 * actions/detect.ts and actions/import.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';

const detectActions = lazyActions(() => import('./actions/detect.js'));
const importActions = lazyActions(() => import('./actions/import.js'));

export function registerDetectCommand(program: Command, cli: CliContext): void {
  program
    .command('detect')
    .description(
      'Detect signals from the procurement and indicator data changed since the last run, group them into cases, ' +
        'then match alert rules (incremental and idempotent)',
    )
    .action(detectActions((a) => a.detect(cli)));
}

/** `import signals FILE`: exit 0 when the file was read (bad lines are listed), 2 when it cannot be read. */
export function registerSignalImport(imports: Command, cli: CliContext): void {
  imports
    .command('signals')
    .description('Import signals of outside detectors: JSON Lines, one signal per line (format in docs/signals.md)')
    .argument('<file>', 'a .jsonl file')
    .action(importActions((a, file: string) => a.signals(cli, file)));
}
