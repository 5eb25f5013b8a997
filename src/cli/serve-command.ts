/**
 * `serve`: the HTTP service (docs/deploy.md). The command's work — the first start's loads, then the app, the
 * pipeline and the banner — is in actions/serve.ts, imported when it runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { lazyActions } from './lazy-actions.js';

const serveActions = lazyActions(() => import('./actions/serve.js'));

export function registerServeCommand(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('serve')
    .description(
      'Start the service: REST /v1, A2A /a2a, MCP /mcp, company agents, console and explorer (docs at /docs)',
    )
    .option('--port <n>', 'port to listen on (default $PORT or 8080)')
    .option('--host <h>', 'address to listen on (default $HOST or 127.0.0.1)')
    .option('--no-demo', 'load only the real data into an empty store (no generated data), and print no demo key')
    .action(
      serveActions((a, o: { port?: string; host?: string; demo: boolean }) => {
        const config = loadConfig({ ...env, ...(o.port && { PORT: o.port }), ...(o.host && { HOST: o.host }) });
        return a.serve(config, o.demo);
      }),
    );
}
