/**
 * The two demo deployments the embedded default starts with (a solar installer and an engineering consultancy),
 * published, and credentials for them printed at every start, so that the agent host answers on first start.
 */
import { DEMO_ACCOUNT_NAME } from '../../lib/provenance.js';
import type { DeploymentRecord } from '../../store/agent-records.js';
import type { AccountRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { agentAddresses } from '../addresses.js';
import { type CreatedCredential, createCredential, createDeployment, setDeploymentStatus } from '../admin.js';
import type { DeploymentSpec } from '../deployment-spec.js';
import { ENGINEERING_CONSULTANCY } from './engineering-consultancy.js';
import { SOLAR_INSTALLER } from './solar-installer.js';

export const DEMO_DEPLOYMENTS: readonly DeploymentSpec[] = [SOLAR_INSTALLER, ENGINEERING_CONSULTANCY];

/**
 * Whether a deployment is one of the demo's: a slug of DEMO_DEPLOYMENTS held by the demo account. Their companies
 * are invented, so wherever the console shows one it marks it "demo", never as a real company's agent; the same
 * slug uploaded by a company of a store without the demo is that company's own.
 */
export function isDemoDeployment(slug: string, owner: Pick<AccountRecord, 'name'> | undefined): boolean {
  return owner?.name === DEMO_ACCOUNT_NAME && DEMO_DEPLOYMENTS.some((spec) => spec.slug === slug);
}

/**
 * Creates and publishes the demo deployments that are missing (an existing one is left as its admin set it);
 * with `ownerAccountId` (the demo account), they belong to it in the console.
 */
export async function ensureDemoAgents(store: Store, now: Date, ownerAccountId?: number): Promise<DeploymentRecord[]> {
  const records: DeploymentRecord[] = [];
  for (const spec of DEMO_DEPLOYMENTS) {
    const existing = await store.agents.getDeployment(spec.slug);
    const record =
      existing ?? (await setDeploymentStatus(store, (await createDeployment(store, spec, now)).slug, 'live', now));
    if (ownerAccountId !== undefined) await store.console.setDeploymentOwner(record.id, ownerAccountId);
    records.push(record);
  }
  return records;
}

export interface DemoAgentCredentials {
  readonly slug: string;
  readonly a2a: CreatedCredential;
  readonly mcp: CreatedCredential;
  readonly licensed: CreatedCredential;
}

/** Fresh credentials for each demo deployment: full A2A, full MCP, licensed A2A. Earlier ones stay valid. */
export async function issueDemoAgentCredentials(store: Store, now: Date): Promise<DemoAgentCredentials[]> {
  const issued: DemoAgentCredentials[] = [];
  for (const spec of DEMO_DEPLOYMENTS) {
    if (!(await store.agents.getDeployment(spec.slug))) continue;
    const label = 'demo credential printed at start';
    issued.push({
      slug: spec.slug,
      a2a: await createCredential(store, { slug: spec.slug, channel: 'a2a', label }, now),
      mcp: await createCredential(store, { slug: spec.slug, channel: 'mcp', label }, now),
      licensed: await createCredential(store, { slug: spec.slug, channel: 'a2a', licensed: true, label }, now),
    });
  }
  return issued;
}

/** What `serve` prints about the demo agents: their addresses and credentials (shown once). */
export function demoAgentLines(agentsUrl: string, issued: readonly DemoAgentCredentials[]): string[] {
  const lines = ['Demo company agents (credentials shown once, new ones at every start):'];
  for (const demo of issued) {
    const urls = agentAddresses(agentsUrl, demo.slug);
    lines.push(
      `  ${demo.slug}`,
      `    card  ${urls.card}`,
      `    A2A   ${urls.a2a}   credential ${demo.a2a.secret}`,
      `          licensed (read skills only)   ${demo.licensed.secret}`,
      `    MCP   ${urls.mcp}   credential ${demo.mcp.secret}`,
    );
  }
  return lines;
}
