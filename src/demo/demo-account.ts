/** The demo account the embedded default starts with: premium plan, a key printed at every start. */

import { type CreatedKey, createKey } from '../admin/keys.js';
import { issueLink } from '../admin/users.js';
import { DEMO_ACCOUNT_NAME } from '../lib/provenance.js';
import type { AccountRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export async function findDemoAccount(store: Store): Promise<AccountRecord | undefined> {
  return (await store.listAccounts()).find((a) => a.name === DEMO_ACCOUNT_NAME);
}

export async function ensureDemoAccount(store: Store, now: Date): Promise<AccountRecord> {
  return (
    (await findDemoAccount(store)) ??
    (await store.createAccount({ name: DEMO_ACCOUNT_NAME, plan_code: 'premium', beta: false, now: now.toISOString() }))
  );
}

/** A fresh key for the demo account. Earlier ones stay valid: someone may have put one in a script. */
export async function issueDemoKey(store: Store, now: Date): Promise<CreatedKey> {
  const account = await ensureDemoAccount(store, now);
  return createKey(store, { accountId: account.id, label: 'demo key printed at start' }, now);
}

export const DEMO_OWNER_EMAIL = 'owner@demo.example';

/**
 * The demo account's owner in the console (created once, without a password) and a one-time sign-in link for
 * them, printed at every start so that a newcomer signs in with one click.
 */
export async function issueDemoOwnerLink(
  store: Store,
  now: Date,
  baseUrl: string,
): Promise<{ email: string; link: string }> {
  const account = await ensureDemoAccount(store, now);
  const owner =
    (await store.console.findUserByEmail(DEMO_OWNER_EMAIL)) ??
    (await store.console.createUser({
      account_id: account.id,
      email: DEMO_OWNER_EMAIL,
      display_name: 'Demo owner',
      role: 'owner',
      now: now.toISOString(),
    }));
  if (!owner) throw new Error('the demo owner could not be created');
  return { email: owner.email, link: await issueLink(store, owner.id, 'sign-in', now, baseUrl) };
}
