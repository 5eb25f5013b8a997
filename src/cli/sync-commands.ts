/**
 * `sync ine` and `sync base`: real data fetched over HTTP into the store (docs/data.md, Syncing). The commands' work
 * is in actions/sync.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { periodArgument } from './date-arguments.js';
import { lazyActions } from './lazy-actions.js';

const syncActions = lazyActions(() => import('./actions/sync.js'));

export function registerSyncCommands(program: Command, cli: CliContext): void {
  const sync = program
    .command('sync')
    .description('Fetch real data over HTTP and import it (incremental, one request at a time)');
  sync
    .command('ine')
    .description(
      "INE's JSON API → the indicators whose INE code the catalogue knows (INE_API_URL, default https://www.ine.pt)",
    )
    .option('--indicator <key...>', 'only these catalogue keys (default: every indicator with an INE code)')
    .option(
      '--since <date>',
      'first period for an indicator holding none of its INE data yet (YYYY or YYYY-MM-DD)',
      periodArgument,
    )
    .option('--force', "import even when a file's code or unit contradicts its indicator", false)
    .action(syncActions((a, o: { indicator?: string[]; since?: string; force: boolean }) => a.ine(cli, o)));
  sync
    .command('base')
    .description(
      "The procurement portal's open-data files (dados.gov.pt; BASE_DATA_URL) → contracts, announcements, amendments",
    )
    .option(
      '--since <date>',
      "files of this date's year and later (YYYY or YYYY-MM-DD; default the current year)",
      periodArgument,
    )
    .action(syncActions((a, o: { since?: string }) => a.base(cli, o)));
}
