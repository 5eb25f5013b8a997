/** `detect` (the detectors, the cases, then the alert matcher) and `import signals FILE`. */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { type DetectReport, detectAndMatch } from '../alerts/detect-and-match.js';
import { importSignals, type SignalImportReport } from '../detect/import-signals.js';
import { AdminError } from '../lib/admin-error.js';
import type { CliContext } from './context.js';
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
            print(cli.json(), report, () => importText(report));
          }),
        (error: NodeJS.ErrnoException) => {
          throw new AdminError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
        },
      ),
    );
}

const n = (x: number) => x.toLocaleString('en-US');
const writes = (s: { inserted: number; updated: number; unchanged: number }) =>
  `${n(s.inserted)} inserted, ${n(s.updated)} updated, ${n(s.unchanged)} unchanged`;

export function detectText(r: DetectReport): string {
  return [
    `Detection at ${r.now} (${r.seconds} s)`,
    `  procurement: ${n(r.procurement.entries)} journal entries in ${n(r.procurement.batches)} batches`,
    `  integrity: ${n(r.integrity.contracts)} contracts judged, from ${n(r.integrity.entries)} journal entries`,
    `  deadline sweep: ${r.sweep.from === null ? 'first run' : `since ${r.sweep.from}`}, ${n(r.sweep.entries)} ` +
      `notices derived again`,
    `  indicators: ${r.indicators.indicators.length} changed` +
      `${r.indicators.indicators.length ? ` (${r.indicators.indicators.join(', ')})` : ''}`,
    `  signals: ${writes(r.signals)}`,
    `  cases: ${n(r.cases.computed)} computed, ${n(r.cases.events)} events appended`,
    `  alerts: ${n(r.alerts.rules)} rules checked, ${n(r.alerts.matched)} matches recorded`,
  ].join('\n');
}

function importText(r: SignalImportReport): string {
  const lines = [
    `Signals from ${r.file}: ${n(r.lines)} lines, ${n(r.accepted)} accepted, ${n(r.rejected.length)} rejected`,
    `  signals: ${writes(r.written)}`,
    `  cases: ${n(r.cases.computed)} computed, ${n(r.cases.events)} events appended`,
  ];
  if (r.rejected.length > 0) {
    lines.push('Rejected lines:');
    for (const x of r.rejected)
      lines.push(`  line ${x.line}${x.external_id ? ` [${x.external_id}]` : ''}: ${x.reason}`);
  }
  return lines.join('\n');
}
