import { AdminError } from '../lib/admin-error.js';
import type { AccountRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export async function createAccount(
  store: Store,
  input: { name: string; plan: string; beta?: boolean },
  now: Date,
): Promise<AccountRecord> {
  const name = input.name.trim();
  if (!name) throw new AdminError('An account needs a name (--name).');
  if (!(await store.getPlan(input.plan))) {
    const plans = (await store.listPlans()).map((p) => p.code).join(', ');
    throw new AdminError(`No plan "${input.plan}". Plans: ${plans}.`);
  }
  return store.createAccount({ name, plan_code: input.plan, beta: input.beta ?? false, now: now.toISOString() });
}
