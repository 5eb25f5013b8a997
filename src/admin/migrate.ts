import { readCpvs } from '../ingest/cpv.js';
import type { Store } from '../store/store.js';
import { seedAlertTemplates } from './alert-rules.js';
import { DEFAULT_PLANS } from './default-plans.js';

/** Brings the schema up to date, seeds the default plans that are missing, the CPV vocabulary and the alert templates. Idempotent. */
export async function migrate(store: Store): Promise<void> {
  await store.migrate();
  for (const plan of DEFAULT_PLANS) {
    if (!(await store.getPlan(plan.code))) await store.savePlan(plan);
  }
  // The CPV vocabulary is reference data shipped with the project, like the plans: loaded once.
  if ((await store.countCpvs()) === 0) await store.saveCpvs(readCpvs());
  // Predefined alert subscriptions, by key: a template added or changed in the code arrives with the next migrate.
  await seedAlertTemplates(store);
}
