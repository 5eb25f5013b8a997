/** What `sync ine` and `sync base` do (registered in sync-commands.ts). */
import { PoliteClient } from '../../ingest/sync/polite-client.js';
import { syncBase } from '../../ingest/sync/sync-base.js';
import { syncIne } from '../../ingest/sync/sync-ine.js';
import type { CliContext } from '../context.js';
import { print } from '../output.js';

export function ine(cli: CliContext, o: { indicator?: string[]; since?: string; force: boolean }): Promise<void> {
  return cli.withStore(async (store) => {
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
      () => `${report.requests} requests to ${report.base_url}; ${outcome(report, 'indicator')}`,
    );
    if (!report.ok) process.exitCode = 1;
  });
}

export function base(cli: CliContext, o: { since?: string }): Promise<void> {
  return cli.withStore(async (store) => {
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
      () => `${report.files.length} files, ${report.requests} requests; ${outcome(report, 'dataset', 'files')}`,
    );
    if (!report.ok) process.exitCode = 1;
  });
}

/**
 * How a sync ended, for people: stopped (with what it left out, as `what`s), done, or done with failures (of its
 * `what`s, or of the `failed` it names).
 */
function outcome(
  report: { stopped: string | null; not_tried: readonly string[]; ok: boolean },
  what: string,
  failed = `${what}s`,
): string {
  if (report.stopped !== null) return `stopped: ${report.stopped}${notTried(report.not_tried, what)}`;
  return report.ok ? 'done' : `some ${failed} failed (see above)`;
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
