/**
 * `munidata export --format csv|sqlite|parquet [--plan CODE] DIR`: every table a plan may read, whole, for analysts who
 * want the data rather than the API (docs/data.md, Exporting; export-tables.ts writes them). The command's work is in
 * actions/export.ts, imported when it runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';

/** The formats of an export: one file per table (`csv`, `parquet`) or one SQLite file holding them all. */
export const EXPORT_FORMATS = ['csv', 'sqlite', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const exportActions = lazyActions(() => import('./actions/export.js'));

export function registerExportCommand(program: Command, cli: CliContext): void {
  program
    .command('export')
    .description(
      'Write every table a plan may read (default premium) to DIR, as CSV or Parquet files or one SQLite file',
    )
    .argument('<dir>', 'the folder to write into (created if missing)')
    .option('--format <format>', EXPORT_FORMATS.join(', '), 'csv')
    .option('--plan <code>', 'the plan whose data domains and values to export', 'premium')
    .action(exportActions((a, dir: string, o: { format: string; plan: string }) => a.exportTo(cli, dir, o)));
}
