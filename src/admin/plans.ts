/** Plans are data: created and changed from the CLI, never in code (apart from the seeds). */

import { AdminError } from '../lib/admin-error.js';
import { DOMAIN_NAMES, type Domain, isDomain } from '../lib/domains.js';
import type { PlanRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export type PlanChanges = Partial<Omit<PlanRecord, 'code' | 'domains'>> & { domains?: string[] };

export async function savePlan(
  store: Store,
  code: string,
  changes: PlanChanges,
  mode: 'create' | 'update',
): Promise<PlanRecord> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(code))
    throw new AdminError(`A plan code is lowercase letters, digits and _; got "${code}".`);
  const existing = await store.getPlan(code);
  if (mode === 'create' && existing) throw new AdminError(`Plan "${code}" exists; use plans update.`);
  if (mode === 'update' && !existing) throw new AdminError(`No plan "${code}"; use plans create.`);
  const base: PlanRecord = existing ?? {
    code,
    name: code,
    api_access: false,
    domains: [],
    raw_values: false,
    judge: false,
    requests_per_minute: 60,
    requests_per_month: 10_000,
    history_years: 5,
    alerts_history_days: 30,
  };
  const { domains, ...rest } = changes;
  const plan: PlanRecord = {
    ...base,
    ...definedOnly(rest),
    code,
    domains: domains === undefined ? base.domains : parseDomains(domains),
  };
  for (const field of ['requests_per_minute', 'requests_per_month', 'history_years', 'alerts_history_days'] as const) {
    const v = plan[field];
    if (v !== null && (!Number.isInteger(v) || v < 1))
      throw new AdminError(`${field} must be a positive integer; got ${v}.`);
  }
  await store.savePlan(plan);
  return plan;
}

function parseDomains(domains: string[]): Domain[] {
  const unknown = domains.filter((d) => !isDomain(d));
  if (unknown.length > 0)
    throw new AdminError(`Unknown domain ${unknown.join(', ')}. Domains: ${DOMAIN_NAMES.join(', ')}.`);
  return [...new Set(domains)] as Domain[];
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
