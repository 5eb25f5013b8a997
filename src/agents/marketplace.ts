/**
 * The marketplace (docs/console.md): the live company agents that accounts publish, and licences. A licence is a
 * licensed A2A credential of the seller's deployment issued to a buyer account: it reaches the read skills and
 * the extended card (docs/agents.md, Credentials). Revoking a licence revokes its credential.
 */
import { AdminError } from '../lib/admin-error.js';
import type { LicenceRecord } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { type CreatedCredential, createCredential, revokeCredential, specOf } from './admin.js';
import { SKILLS } from './skills/index.js';

export interface MarketplaceEntry {
  slug: string;
  name: string;
  description: string;
  company: string;
  seller_account_id: number;
  skills: { id: string; title: string; description: string; kind: 'read' | 'action' }[];
}

/** Live deployments that an account owns, by name. */
export async function listMarketplace(store: Store): Promise<MarketplaceEntry[]> {
  const owners = await store.console.listDeploymentOwners();
  const entries: MarketplaceEntry[] = [];
  for (const record of await store.agents.listDeployments()) {
    const seller = owners.get(record.id);
    if (record.status !== 'live' || seller === undefined) continue;
    const spec = specOf(record);
    if (!spec.channels.includes('a2a')) continue;
    entries.push({
      slug: record.slug,
      name: spec.name,
      description: spec.description,
      company: spec.company.name,
      seller_account_id: seller,
      skills: SKILLS.filter(
        (s) => spec.skills.includes(s.id) && (!s.procurement || spec.procurement_lookups) && s.channels.includes('a2a'),
      ).map((s) => ({ id: s.id, title: s.title, description: s.description, kind: s.kind })),
    });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

export interface IssuedLicence {
  licence: LicenceRecord;
  /** The licensed A2A credential: its secret is shown once. */
  credential: CreatedCredential;
}

/** Licenses a live deployment of another account to `buyerAccountId`. */
export async function licenseAgent(
  store: Store,
  input: { slug: string; buyerAccountId: number },
  now: Date,
): Promise<IssuedLicence> {
  const entry = (await listMarketplace(store)).find((e) => e.slug === input.slug);
  if (!entry) throw new AdminError(`No published agent "${input.slug}" on the marketplace.`);
  if (entry.seller_account_id === input.buyerAccountId)
    throw new AdminError('This agent is your own: create a credential for it on the Company agents page.');
  const credential = await createCredential(
    store,
    { slug: input.slug, channel: 'a2a', licensed: true, label: `licence of account ${input.buyerAccountId}` },
    now,
  );
  const deployment = await store.agents.getDeployment(input.slug);
  if (!deployment) throw new AdminError(`No deployment "${input.slug}".`);
  const licence = await store.console.createLicence({
    deployment_id: deployment.id,
    buyer_account_id: input.buyerAccountId,
    credential_id: credential.credential.id,
    now: now.toISOString(),
  });
  return { licence, credential };
}

/** Revokes a licence and its credential: the buyer's next request is refused. */
export async function revokeLicence(store: Store, licenceId: number, now: Date): Promise<void> {
  const licence = await store.console.getLicence(licenceId);
  if (!licence || licence.revoked_at !== null) throw new AdminError(`No active licence ${licenceId}.`);
  await revokeCredential(store, licence.credential_id, now).catch((error: unknown) => {
    // A credential revoked already (from the command line) still ends the licence.
    if (!(error instanceof AdminError)) throw error;
  });
  await store.console.revokeLicence(licenceId, now.toISOString());
}
