/**
 * The `munidata` command tree: every command and option, as `--help` prints them. Built apart from src/main.ts
 * (which reads the environment and runs it) so that a test can read the whole tree in one process and hold the
 * README's command table to it.
 */
import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { registerAdminCommands } from './admin-commands.js';
import { registerAgentsCommands } from './agents-commands.js';
import { registerAlertCommands } from './alert-commands.js';
import { cliContext } from './context.js';
import { registerDataCommands } from './data-commands.js';
import { registerExportCommand } from './export-command.js';
import { registerOAuthCommands } from './oauth-commands.js';
import { registerServeCommand } from './serve-command.js';
import { registerUsersCommands } from './users-commands.js';
import { registerWebhookCommands } from './webhook-commands.js';

export function createProgram(env: Record<string, string | undefined>): Command {
  const program = new Command('munidata')
    .description(
      'Read-only service over Portuguese municipal data: REST /v1, an A2A agent at /a2a, an MCP server at /mcp and ' +
        'company agents, on SQLite or PostgreSQL',
    )
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
  registerWebhookCommands(program, cli);
  return program;
}
