#!/usr/bin/env node
/**
 * The `munidata` command. The only place that reads the environment: it is read once, here, and passed
 * down as a frozen Config.
 */
import { CommanderError } from 'commander';
import { createProgram } from './cli/program.js';
import { ConfigError } from './config.js';
import { AdminError } from './lib/admin-error.js';

async function main(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  await createProgram(env).parseAsync(argv);
}

main(process.argv, process.env).catch((error: unknown) => {
  // A usage error (unknown command or option, a bad argument) exits 2 like every refused command; help exits 0.
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof AdminError || error instanceof ConfigError) {
    process.stderr.write(`munidata: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`munidata: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
