/**
 * Company agents as the account console sees them (docs/console.md): each deployment made from the console
 * belongs to the account of the admin who uploaded it, and only that account sees and changes it. The work is
 * done by the same functions as `munidata agents` (admin.ts); this file adds who owns what.
 */
import { AdminError } from '../lib/admin-error.js';
import type { DeploymentRecord } from '../store/agent-records.js';
import type { Store } from '../store/store.js';
import {
  createDeployment,
  type DeploymentView,
  listDeployments,
  parseDeploymentText,
  updateDeployment,
} from './admin.js';

/** The account's deployments, by slug. */
export async function accountDeployments(store: Store, accountId: number): Promise<DeploymentView[]> {
  const owners = await store.console.listDeploymentOwners();
  const records = await store.agents.listDeployments();
  const owned = new Set(records.filter((r) => owners.get(r.id) === accountId).map((r) => r.slug));
  return (await listDeployments(store)).filter((d) => owned.has(d.slug));
}

/** The account's deployment with this slug, or undefined (none, or another account's: the same answer). */
export async function accountDeployment(
  store: Store,
  accountId: number,
  slug: string,
): Promise<DeploymentRecord | undefined> {
  const record = await store.agents.getDeployment(slug);
  if (!record || (await store.console.getDeploymentOwner(record.id)) !== accountId) return undefined;
  return record;
}

/**
 * A deployment file uploaded by an account: a new slug creates a draft the account owns; a slug the account owns
 * replaces its file (status kept); a slug of anyone else is refused. Invalid files throw DeploymentSpecError with
 * the field paths, as `agents create` does.
 */
export async function uploadDeployment(
  store: Store,
  accountId: number,
  file: { text: string; name?: string },
  now: Date,
): Promise<{ record: DeploymentRecord; created: boolean }> {
  const format = file.name?.toLowerCase().endsWith('.json') ? 'json' : undefined;
  const parsed = parseDeploymentText(file.text, format);
  const slug = typeof parsed === 'object' && parsed !== null ? (parsed as { slug?: unknown }).slug : undefined;
  const existing = typeof slug === 'string' ? await store.agents.getDeployment(slug) : undefined;
  if (existing) {
    if ((await store.console.getDeploymentOwner(existing.id)) !== accountId) {
      throw new AdminError(`The address "${slug}" is taken by another company: choose another slug.`);
    }
    return { record: await updateDeployment(store, parsed, now), created: false };
  }
  const record = await createDeployment(store, parsed, now);
  await store.console.setDeploymentOwner(record.id, accountId);
  return { record, created: true };
}
