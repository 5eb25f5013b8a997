/** `agents`: company-agent deployments (from a JSON or YAML file) and their credentials (secrets shown once). */
import type { Command } from 'commander';
import { agentAddresses } from '../agents/addresses.js';
import {
  createCredential,
  createDeployment,
  listCredentials,
  listDeployments,
  readDeploymentFile,
  revokeCredential,
  setDeploymentStatus,
  specOf,
  updateDeployment,
} from '../agents/admin.js';
import type { DeploymentRecord } from '../store/agent-records.js';
import type { CliContext } from './context.js';
import { positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

export function registerAgentsCommands(program: Command, cli: CliContext): void {
  const agents = program.command('agents').description('Company agents: deployments and their credentials');
  const describe = (record: DeploymentRecord, verb: string) => {
    const urls = agentAddresses(cli.config.agentsUrl, record.slug);
    const spec = specOf(record);
    return [
      `${verb} deployment "${record.slug}" (${spec.name}), status ${record.status}, revision ${record.revision}.`,
      `  card ${urls.card}`,
      ...(spec.channels.includes('a2a') ? [`  A2A  ${urls.a2a}`] : []),
      ...(spec.channels.includes('mcp') ? [`  MCP  ${urls.mcp}`] : []),
    ].join('\n');
  };
  const show = (record: DeploymentRecord, verb: string) =>
    print(cli.json(), { ...record, spec: specOf(record) }, () => describe(record, verb));

  agents
    .command('create')
    .description('Create a deployment (in draft) from a JSON or YAML file')
    .argument('<file>', 'the deployment file')
    .action((file: string) =>
      cli.withStore(async (store) =>
        show(await createDeployment(store, readDeploymentFile(file), new Date()), 'Created'),
      ),
    );
  agents
    .command('update')
    .description("Replace a deployment's file (the slug in the file names it); its status stays")
    .argument('<file>', 'the deployment file')
    .action((file: string) =>
      cli.withStore(async (store) =>
        show(await updateDeployment(store, readDeploymentFile(file), new Date()), 'Updated'),
      ),
    );
  agents
    .command('publish')
    .description('Make a deployment live: its card, A2A and MCP addresses answer')
    .argument('<slug>', 'the deployment slug')
    .action((slug: string) =>
      cli.withStore(async (store) => show(await setDeploymentStatus(store, slug, 'live', new Date()), 'Published')),
    );
  agents
    .command('pause')
    .description('Pause a deployment: its addresses answer 404 until it is published again (credentials are kept)')
    .argument('<slug>', 'the deployment slug')
    .action((slug: string) =>
      cli.withStore(async (store) => show(await setDeploymentStatus(store, slug, 'paused', new Date()), 'Paused')),
    );
  agents
    .command('list')
    .description('List deployments')
    .action(() =>
      cli.withStore(async (store) => {
        const rows = await listDeployments(store);
        print(cli.json(), rows, () =>
          table(rows as never, ['slug', 'name', 'status', 'channels', 'procurement_lookups', 'revision', 'updated_at']),
        );
      }),
    );

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
    .action((o: { deployment: string; channel: string; licensed: boolean; label?: string }) =>
      cli.withStore(async (store) => {
        const created = await createCredential(
          store,
          { slug: o.deployment, channel: o.channel, licensed: o.licensed, label: o.label },
          new Date(),
        );
        print(cli.json(), { ...created.credential, secret: created.secret }, () =>
          [
            `Created ${created.credential.licensed ? 'licensed ' : ''}${created.credential.channel} ` +
              `credential ${created.credential.id} for "${o.deployment}".`,
            '',
            `  ${created.secret}`,
            '',
            'This secret is shown once and stored only as a hash.',
          ].join('\n'),
        );
      }),
    );
  credentials
    .command('list')
    .description("List a deployment's credentials (never their secrets)")
    .requiredOption('--deployment <slug>', 'the deployment slug')
    .action((o: { deployment: string }) =>
      cli.withStore(async (store) => {
        const rows = await listCredentials(store, o.deployment);
        print(cli.json(), rows, () =>
          table(rows as never, ['id', 'channel', 'licensed', 'prefix', 'label', 'revoked_at', 'created_at']),
        );
      }),
    );
  credentials
    .command('revoke')
    .description('Revoke a credential (refused at the next request on every running server)')
    .argument('<credential_id>', 'credential id', positiveInt)
    .action((id: number) =>
      cli.withStore(async (store) => {
        await revokeCredential(store, id, new Date());
        print(cli.json(), { id, revoked: true }, () => `Revoked credential ${id}.`);
      }),
    );
}
