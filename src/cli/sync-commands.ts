/** `sync ine` and `sync base`: real data fetched over HTTP into the store (docs/data.md, Syncing). */
import type { Command } from 'commander';
import { PoliteClient } from '../ingest/sync/polite-client.js';
import { syncBase } from '../ingest/sync/sync-base.js';
import { syncIne } from '../ingest/sync/sync-ine.js';
import type { CliContext } from './context.js';
import { periodArgument } from './date-arguments.js';
import { print } from './output.js';

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
    .action((o: { indicator?: string[]; since?: string; force: boolean }) =>
      cli.withStore(async (store) => {
        const log = progress;
        const report = await syncIne(store, {
          client: new PoliteClient({ log }),
          baseUrl: cli.config.ineApiUrl,
          indicators: o.indicator,
          since: o.since,
          force: o.force,
          log,
        });
        print(
          cli.json(),
          report,
          () =>
            `${report.requests} requests to ${report.base_url}; ` +
            (report.stopped !== null
              ? `stopped: ${report.stopped}${notTried(report.not_tried, 'indicator')}`
              : report.ok
                ? 'done'
                : 'some indicators failed (see above)'),
        );
        if (!report.ok) process.exitCode = 1;
      }),
    );
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
    .action((o: { since?: string }) =>
      cli.withStore(async (store) => {
        const log = progress;
        const report = await syncBase(store, {
          client: new PoliteClient({ log }),
          baseUrl: cli.config.baseDataUrl,
          since: o.since,
          log,
        });
        print(
          cli.json(),
          report,
          () =>
            `${report.files.length} files, ${report.requests} requests; ` +
            (report.stopped !== null
              ? `stopped: ${report.stopped}${notTried(report.not_tried, 'dataset')}`
              : report.ok
                ? 'done'
                : 'some files failed (see above)'),
        );
        if (!report.ok) process.exitCode = 1;
      }),
    );
}

/** What a stopped sync left out, after its reason. */
function notTried(names: readonly string[], what: string): string {
  return names.length === 0
    ? ''
    : `; ${names.length} ${what}${names.length === 1 ? '' : 's'} not tried (${names.join(', ')})`;
}

/** Progress goes to stderr, so that `--json` keeps stdout for the report alone. */
function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}
