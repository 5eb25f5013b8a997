/**
 * What a company admin does with deployments and their credentials (the `munidata agents` commands call these):
 * create or update a deployment from its file, publish or pause it, list them; create, list and revoke
 * credentials. A credential's secret exists only in the value `createCredential` returns.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { generateKeySecret, KEY_PREFIX } from '../access/api-keys.js';
import { ReferenceData } from '../core/reference.js';
import { AdminError } from '../lib/admin-error.js';
import type { AgentChannel, DeploymentRecord, DeploymentStatus } from '../store/agent-records.js';
import type { Store } from '../store/store.js';
import { type DeploymentSpec, DeploymentSpecError, parseDeploymentSpec } from './deployment-spec.js';

/** Reads a deployment file: JSON (`.json`, or text starting with `{`) or YAML. */
export function readDeploymentFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AdminError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  return parseDeploymentText(text, extname(path).toLowerCase() === '.json' ? 'json' : undefined);
}

export function parseDeploymentText(text: string, format?: 'json' | 'yaml'): unknown {
  const json = format === 'json' || (format === undefined && text.trimStart().startsWith('{'));
  try {
    return json ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    throw new DeploymentSpecError([
      { path: '', message: `not valid ${json ? 'JSON' : 'YAML'}: ${(error as Error).message}` },
    ]);
  }
}

/** A deployment's file content, as stored (validated when it was written). */
export function specOf(record: DeploymentRecord): DeploymentSpec {
  return JSON.parse(record.spec) as DeploymentSpec;
}

async function referenceOf(store: Store): Promise<ReferenceData> {
  return new ReferenceData({
    version: 0,
    municipalities: await store.listMunicipalities(),
    indicators: [],
    betaGates: [],
  });
}

/** A new deployment, in draft until published. */
export async function createDeployment(store: Store, file: unknown, now: Date): Promise<DeploymentRecord> {
  const spec = parseDeploymentSpec(file, await referenceOf(store));
  const created = await store.agents.createDeployment({
    slug: spec.slug,
    status: 'draft',
    spec: JSON.stringify(spec),
    now: now.toISOString(),
  });
  if (!created) throw new AdminError(`A deployment with slug "${spec.slug}" exists already: use \`agents update\`.`);
  return created;
}

/** Replaces a deployment's file (its status stays). */
export async function updateDeployment(store: Store, file: unknown, now: Date): Promise<DeploymentRecord> {
  const spec = parseDeploymentSpec(file, await referenceOf(store));
  if (!(await store.agents.getDeployment(spec.slug)))
    throw new AdminError(`No deployment with slug "${spec.slug}": use \`agents create\`.`);
  return (await store.agents.updateDeployment(spec.slug, JSON.stringify(spec), now.toISOString())) as DeploymentRecord;
}

/** `live`: the host answers on its card, A2A and MCP addresses. `paused`: 404 there, credentials kept. */
export async function setDeploymentStatus(
  store: Store,
  slug: string,
  status: DeploymentStatus,
  now: Date,
): Promise<DeploymentRecord> {
  const updated = await store.agents.setDeploymentStatus(slug, status, now.toISOString());
  if (!updated) throw new AdminError(`No deployment with slug "${slug}".`);
  return updated;
}

export interface DeploymentView {
  slug: string;
  name: string;
  company: string;
  status: DeploymentStatus;
  channels: string[];
  skills: string[];
  procurement_lookups: boolean;
  revision: number;
  updated_at: string;
}

export async function listDeployments(store: Store): Promise<DeploymentView[]> {
  return (await store.agents.listDeployments()).map((record) => {
    const spec = specOf(record);
    return {
      slug: record.slug,
      name: spec.name,
      company: spec.company.name,
      status: record.status,
      channels: spec.channels,
      skills: spec.skills,
      procurement_lookups: spec.procurement_lookups,
      revision: record.revision,
      updated_at: record.updated_at,
    };
  });
}

/** A credential as it may be shown: never the hash, never the secret. */
export interface CredentialView {
  id: number;
  deployment: string;
  channel: AgentChannel;
  licensed: boolean;
  prefix: string;
  label: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface CreatedCredential {
  credential: CredentialView;
  /** Shown once; only its hash is stored. */
  secret: string;
}

export async function createCredential(
  store: Store,
  input: { slug: string; channel: string; licensed?: boolean; label?: string },
  now: Date,
): Promise<CreatedCredential> {
  const deployment = await store.agents.getDeployment(input.slug);
  if (!deployment) throw new AdminError(`No deployment with slug "${input.slug}".`);
  if (input.channel !== 'a2a' && input.channel !== 'mcp')
    throw new AdminError(`--channel must be a2a or mcp, not "${input.channel}".`);
  if (!specOf(deployment).channels.includes(input.channel)) {
    throw new AdminError(
      `The deployment "${input.slug}" does not enable the ${input.channel} channel (see its file's \`channels\`).`,
    );
  }
  const { secret, lookup, hash } = generateKeySecret();
  const record = await store.agents.createAgentCredential({
    deployment_id: deployment.id,
    channel: input.channel,
    licensed: input.licensed === true,
    lookup,
    hash,
    label: input.label ?? null,
    now: now.toISOString(),
  });
  return { credential: { ...view(record), deployment: deployment.slug }, secret };
}

export async function listCredentials(store: Store, slug: string): Promise<CredentialView[]> {
  const deployment = await store.agents.getDeployment(slug);
  if (!deployment) throw new AdminError(`No deployment with slug "${slug}".`);
  return (await store.agents.listAgentCredentials(deployment.id)).map((record) => ({
    ...view(record),
    deployment: slug,
  }));
}

export async function revokeCredential(store: Store, id: number, now: Date): Promise<void> {
  if (!(await store.agents.revokeAgentCredential(id, now.toISOString()))) {
    throw new AdminError(`No credential ${id}, or it was revoked already.`);
  }
}

function view(record: {
  id: number;
  channel: AgentChannel;
  licensed: boolean;
  lookup: string;
  label: string | null;
  revoked_at: string | null;
  created_at: string;
}): Omit<CredentialView, 'deployment'> {
  return {
    id: record.id,
    channel: record.channel,
    licensed: record.licensed,
    prefix: `${KEY_PREFIX}${record.lookup.slice(0, 4)}…`,
    label: record.label,
    revoked_at: record.revoked_at,
    created_at: record.created_at,
  };
}
