/** What the `agents` commands do (registered in agents-commands.ts). */
import { agentAddresses } from '../../agents/addresses.js';
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
} from '../../agents/admin.js';
import type { DeploymentRecord } from '../../store/agent-records.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

/** A deployment as `create`, `update`, `publish` and `pause` print it: its status and the addresses it answers at. */
function show(cli: CliContext, record: DeploymentRecord, verb: string): void {
  print(cli.json(), { ...record, spec: specOf(record) }, () => {
    const urls = agentAddresses(cli.config.agentsUrl, record.slug);
    const spec = specOf(record);
    return [
      `${verb} deployment "${record.slug}" (${spec.name}), status ${record.status}, revision ${record.revision}.`,
      `  card ${urls.card}`,
      ...(spec.channels.includes('a2a') ? [`  A2A  ${urls.a2a}`] : []),
      ...(spec.channels.includes('mcp') ? [`  MCP  ${urls.mcp}`] : []),
    ].join('\n');
  });
}

export function create(cli: CliContext, file: string): Promise<void> {
  return cli.withStore(async (store) =>
    show(cli, await createDeployment(store, readDeploymentFile(file), new Date()), 'Created'),
  );
}

export function update(cli: CliContext, file: string): Promise<void> {
  return cli.withStore(async (store) =>
    show(cli, await updateDeployment(store, readDeploymentFile(file), new Date()), 'Updated'),
  );
}

/** `publish` (status live) or `pause` (status paused). */
export function setStatus(cli: CliContext, slug: string, status: 'live' | 'paused'): Promise<void> {
  return cli.withStore(async (store) =>
    show(cli, await setDeploymentStatus(store, slug, status, new Date()), status === 'live' ? 'Published' : 'Paused'),
  );
}

export function list(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const rows = await listDeployments(store);
    print(cli.json(), rows, () =>
      table(rows as never, ['slug', 'name', 'status', 'channels', 'procurement_lookups', 'revision', 'updated_at']),
    );
  });
}

export function credentialsCreate(
  cli: CliContext,
  o: { deployment: string; channel: string; licensed: boolean; label?: string },
): Promise<void> {
  return cli.withStore(async (store) => {
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
  });
}

export function credentialsList(cli: CliContext, o: { deployment: string }): Promise<void> {
  return cli.withStore(async (store) => {
    const rows = await listCredentials(store, o.deployment);
    print(cli.json(), rows, () =>
      table(rows as never, ['id', 'channel', 'licensed', 'prefix', 'label', 'revoked_at', 'created_at']),
    );
  });
}

export function credentialsRevoke(cli: CliContext, id: number): Promise<void> {
  return cli.withStore(async (store) => {
    await revokeCredential(store, id, new Date());
    print(cli.json(), { id, revoked: true }, () => `Revoked credential ${id}.`);
  });
}
