/**
 * `serve`: the HTTP service. On an empty store it loads the demo dataset first, and prints a demo key. The app (and
 * with it the OAuth library, which warns at import on Node 20) is imported when the service starts, not with the CLI.
 */
import type { Command } from 'commander';
import { demoAgentLines, ensureDemoAgents, issueDemoAgentCredentials } from '../agents/demo/demo-agents.js';
import { type Config, loadConfig } from '../config.js';
import { findDemoAccount, issueDemoKey, issueDemoOwnerLink } from '../demo/demo-account.js';
import { loadDemo } from '../demo/load-demo.js';
import { describeStore, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { cliContext } from './context.js';
import { closeOnSignals } from './graceful-shutdown.js';

export function registerServeCommand(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('serve')
    .description(
      'Start the service: REST /v1, A2A /a2a, MCP /mcp, company agents, console and explorer (docs at /docs)',
    )
    .option('--port <n>', 'port to listen on (default $PORT or 8080)')
    .option('--host <h>', 'address to listen on (default $HOST or 127.0.0.1)')
    .option('--no-demo', 'do not load demo data into an empty store, nor print a demo key')
    .action(async (o: { port?: string; host?: string; demo: boolean }) => {
      const config = loadConfig({ ...env, ...(o.port && { PORT: o.port }), ...(o.host && { HOST: o.host }) });
      await serve(config, o.demo);
    });
}

async function serve(config: Config, demo: boolean): Promise<void> {
  const now = new Date();
  // Migrations and the demo's load may run long: on a store of their own, whose statements have no time limit.
  const { demoKey, demoAgents, demoOwner } = await cliContext(config, () => false).withStore(async (store) => {
    if (demo && (await holdsNoData(store))) {
      process.stdout.write(
        'Empty store: loading the demo dataset (first start only). It is SYNTHETIC: generated series and contracts, ' +
          'marked synthetic: true in every answer.\n',
      );
      await loadDemo(store, { today: now }); // the demo account and its alert rules included
    }
    // Only a store that holds the demo dataset has the demo account; a production store never gets one.
    const demoKey = demo && (await findDemoAccount(store)) ? await issueDemoKey(store, now) : undefined;
    // The demo company agents go with the demo account: created (and published) once, fresh credentials at every start.
    if (demoKey) await ensureDemoAgents(store, now, demoKey.key.account_id);
    const demoAgents = demoKey ? await issueDemoAgentCredentials(store, now) : [];
    const demoOwner = demoKey ? await issueDemoOwnerLink(store, now, config.baseUrl) : undefined;
    return { demoKey, demoAgents, demoOwner };
  });

  // Requests wait on the store at most DATABASE_TIMEOUT_MS a statement, then are answered 503 (docs/deploy.md).
  const store = openStore(config, { timeoutMs: config.databaseTimeoutMs });
  const { createApp } = await import('../app.js');
  const app = await createApp({ config, store, logger: true });
  await app.http.listen({ port: config.port, host: config.host });
  const lines = [
    `munidata is listening on ${config.baseUrl}  (store: ${describeStore(config)})`,
    `Docs: ${config.baseUrl}/docs`,
    `Console: ${config.baseUrl}/console`,
  ];
  if (demoOwner) {
    lines.push(
      '',
      `Demo owner ${demoOwner.email}: sign in to the console with this one-time link (a new one at every start):`,
      `  ${demoOwner.link}`,
    );
  }
  if (demoKey) {
    lines.push(
      '',
      'The data served is SYNTHETIC demo data (synthetic: true on every generated record; GET /v1/sources lists the ' +
        'sources).',
      'Real data: munidata import …; munidata demo remove deletes the demo; serve --no-demo runs on real data only.',
    );
  }
  if (demoKey) {
    lines.push(
      '',
      'Demo API key (premium plan; shown once, a new one at every start):',
      `  ${demoKey.secret}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demoKey.secret}" ${config.baseUrl}/v1/me`,
    );
  }
  if (demoAgents.length > 0) lines.push('', ...demoAgentLines(config.agentsUrl, demoAgents));
  process.stdout.write(`${lines.join('\n')}\n`);

  closeOnSignals(app, store);
}

/**
 * No series and no contracts: the store has only what `migrate` seeds (municipalities, catalogue, plans), so the
 * demo may fill it. A store holding real imports of either kind is never given demo data.
 */
async function holdsNoData(store: Store): Promise<boolean> {
  return (await store.countObservations()) === 0 && (await store.listContracts({}, { limit: 1 })).length === 0;
}
