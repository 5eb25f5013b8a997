import type { Store } from '../store/store.js';
import { DEFAULT_PLANS } from './default-plans.js';

/** Brings the schema up to date and seeds the default plans that are missing. Idempotent. */
export async function migrate(store: Store): Promise<void> {
  await store.migrate();
  for (const plan of DEFAULT_PLANS) {
    if (!(await store.getPlan(plan.code))) await store.savePlan(plan);
  }
}
