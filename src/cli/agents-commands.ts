/**
 * `agents`: company-agent deployments (from a JSON or YAML file) and their credentials (secrets shown once). The
 * commands' work is in actions/agents.ts, imported when one runs (lazy-actions.ts).
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { positiveInt } from './number-arguments.js';

const agentActions = lazyActions(() => import('./actions/agents.js'));

export function registerAgentsCommands(program: Command, cli: CliContext): void {
  const agents = program.command('agents').description('Company agents: deployments and their credentials');
  agents
    .command('create')
    .description('Create a deployment (in draft) from a JSON or YAML file')
    .argument('<file>', 'the deployment file')
    .action(agentActions((a, file: string) => a.create(cli, file)));
  agents
    .command('update')
    .description("Replace a deployment's file (the slug in the file names it); its status stays")
    .argument('<file>', 'the deployment file')
    .action(agentActions((a, file: string) => a.update(cli, file)));
  agents
    .command('publish')
    .description('Make a deployment live: its card, A2A and MCP addresses answer')
    .argument('<slug>', 'the deployment slug')
    .action(agentActions((a, slug: string) => a.setStatus(cli, slug, 'live')));
  agents
    .command('pause')
    .description('Pause a deployment: its addresses answer 404 until it is published again (credentials are kept)')
    .argument('<slug>', 'the deployment slug')
    .action(agentActions((a, slug: string) => a.setStatus(cli, slug, 'paused')));
  agents
    .command('list')
    .description('List deployments')
    .action(agentActions((a) => a.list(cli)));

  const credentials = agents
    .command('credentials')
    .description("A deployment's credentials (one deployment, one channel each)");
  credentials
    .command('create')
    .description('Create a credential; prints the secret once')
    .requiredOption('--deployment <slug>', 'the deployment slug')
    .requiredOption('--channel <channel>', 'a2a or mcp')
    .option('--licensed', 'a marketplace credential: read skills only', false)
    .option('--label <text>', 'a note to recognise the credential by')
    .action(
      agentActions((a, o: { deployment: string; channel: string; licensed: boolean; label?: string }) =>
        a.credentialsCreate(cli, o),
      ),
    );
  credentials
    .command('list')
    .description("List a deployment's credentials (never their secrets)")
    .requiredOption('--deployment <slug>', 'the deployment slug')
    .action(agentActions((a, o: { deployment: string }) => a.credentialsList(cli, o)));
  credentials
    .command('revoke')
    .description('Revoke a credential (refused at the next request on every running server)')
    .argument('<credential_id>', 'credential id', positiveInt)
    .action(agentActions((a, id: number) => a.credentialsRevoke(cli, id)));
}
