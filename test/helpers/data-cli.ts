/**
 * The data commands of the CLI (`import …`, `detect`, `sync …`: src/cli/data-commands.ts) run in-process on a
 * store the test holds, as `munidata` would run them: arguments parsed by the real command definitions, the report
 * printed to stdout (returned here). A refusal (exit 2 in the real CLI) rejects with its AdminError.
 */
import { Command } from 'commander';
import type { CliContext } from '../../src/cli/context.js';
import { registerDataCommands } from '../../src/cli/data-commands.js';
import { DEFAULT_DATABASE_TIMEOUT_MS } from '../../src/config.js';
import type { Store } from '../../src/store/store.js';

export async function runDataCommand(store: Store, args: string[]): Promise<string> {
  const program = new Command('munidata').option('--json', '', false).exitOverride();
  const context: CliContext = {
    config: {
      dbPath: ':memory:',
      databaseTimeoutMs: DEFAULT_DATABASE_TIMEOUT_MS,
      host: '127.0.0.1',
      port: 0,
      baseUrl: 'http://127.0.0.1',
      agentsUrl: 'http://127.0.0.1/agents',
      logLevel: 'silent',
      ineApiUrl: 'http://127.0.0.1',
      baseDataUrl: 'http://127.0.0.1',
      pipelineIntervalS: 0,
      pipelineSync: [],
      consoleOperators: [],
    },
    json: () => program.opts().json === true,
    withStore: (work) => work(store),
  };
  registerDataCommands(program, context);
  let out = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    await program.parseAsync(['node', 'munidata', ...args]);
  } finally {
    process.stdout.write = write;
  }
  return out;
}
