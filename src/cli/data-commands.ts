/** `migrate`, `demo` and `import`: getting data into the store. */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ensureDemoAccount } from '../admin/demo-account.js';
import { loadDemo } from '../ingest/demo/load-demo.js';
import { importIne } from '../ingest/ine/import-ine.js';
import type { CliContext } from './context.js';
import { print } from './output.js';

export function registerDataCommands(program: Command, cli: CliContext): void {
  program
    .command('migrate')
    .description('Create or upgrade the schema and seed the default plans (idempotent)')
    .action(() => cli.withStore(async () => print(cli.json(), { migrated: true }, () => `Store ${cli.config.dbPath} is up to date.`)));

  program
    .command('demo')
    .description('Load the demo dataset: the 308 municipalities, the indicator catalogue, synthetic series and the demo account (idempotent)')
    .option('--seed <n>', 'seed of the generator', (t) => Number.parseInt(t, 10), 42)
    .action((o: { seed: number }) =>
      cli.withStore(async (store) => {
        const summary = await loadDemo(store, { seed: o.seed });
        await ensureDemoAccount(store, new Date());
        print(cli.json(), summary, () => `Demo data loaded (seed ${o.seed}):\n${JSON.stringify(summary, null, 2)}`);
      }),
    );

  const imports = program.command('import').description('Import real data');
  imports
    .command('ine')
    .description("Import an INE (Statistics Portugal) JSON indicator response into one indicator's series")
    .argument('<file>', 'a saved response of the INE JSON API (pindica.jsp)')
    .requiredOption('--indicator <key>', 'the catalogue key the data belongs to (e.g. birth_rate)')
    .action((file: string, o: { indicator: string }) =>
      cli.withStore(async (store) => {
        const report = await importIne(store, await readFile(file, 'utf8'), { indicator: o.indicator });
        print(cli.json(), report, () => JSON.stringify(report, null, 2));
      }),
    );
}
