#!/usr/bin/env node
/**
 * The `munidata` command. The only place that reads the environment: it is read once, here, and passed
 * down as a frozen Config.
 */
import { Command, CommanderError } from 'commander';
import { registerAdminCommands } from './cli/admin-commands.js';
import { registerAgentsCommands } from './cli/agents-commands.js';
import { registerAlertCommands } from './cli/alert-commands.js';
import { cliContext } from './cli/context.js';
import { registerDataCommands } from './cli/data-commands.js';
import { registerExportCommand } from './cli/export-command.js';
import { registerOAuthCommands } from './cli/oauth-commands.js';
import { registerServeCommand } from './cli/serve-command.js';
import { registerUsersCommands } from './cli/users-commands.js';
import { ConfigError, loadConfig } from './config.js';
import { AdminError } from './lib/admin-error.js';

async function main(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  const program = new Command('munidata')
    .description('Portuguese municipal data service: REST /v1 over an embedded SQLite store')
    .option('--json', 'print results as JSON (for scripts)', false)
    .showHelpAfterError()
    .exitOverride();
  const cli = cliContext(loadConfig(env), () => program.opts().json === true);
  registerServeCommand(program, env);
  registerDataCommands(program, cli);
  registerExportCommand(program, cli);
  registerAdminCommands(program, cli);
  registerAgentsCommands(program, cli);
  registerAlertCommands(program, cli);
  registerUsersCommands(program, cli);
  registerOAuthCommands(program, cli);
  await program.parseAsync(argv);
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
