import { readIndicatorCatalogue } from '../ingest/catalogue.js';
import { readCpvs } from '../ingest/cpv.js';
import { readMunicipalities } from '../ingest/municipalities.js';
import type { AppliedMigration } from '../store/sql/migration.js';
import type { Store } from '../store/store.js';
import { seedAlertTemplates } from './alert-rules.js';
import { DEFAULT_PLANS } from './default-plans.js';

/** What a migrate did: nothing of it on a store already up to date (the municipalities are refreshed every time). */
export interface MigrateReport {
  readonly migrations: readonly AppliedMigration[];
  /** Default plans it created (those the store lacked). */
  readonly plans: readonly string[];
  /** Catalogue indicators it added, without data. */
  readonly indicators: number;
  /** CPV codes it loaded (only into a store that had none). */
  readonly cpvs: number;
}

/**
 * Brings the schema up to date and seeds the reference data the project ships: the default plans that are
 * missing, the 308 municipalities, the indicator catalogue, the CPV vocabulary and the alert templates. Idempotent.
 */
export async function migrate(store: Store): Promise<MigrateReport> {
  const migrations = await store.migrate();
  const plans: string[] = [];
  for (const plan of DEFAULT_PLANS) {
    if (await store.getPlan(plan.code)) continue;
    await store.savePlan(plan);
    plans.push(plan.code);
  }
  // Municipalities and the catalogue are real reference data, not demo data: a store has them from its first
  // migrate, so real imports (INE, BASE) need no demo. A corrected municipality file arrives with the next migrate.
  await store.saveMunicipalities(readMunicipalities());
  // Indicators the store lacks, without a source until data is loaded; existing ones (and their sources) stay.
  const known = new Set((await store.listIndicators()).map((i) => i.key));
  const missing = readIndicatorCatalogue().filter((entry) => !known.has(entry.key));
  if (missing.length > 0) await store.saveIndicators(missing.map((entry) => ({ ...entry, source: null })));
  // The CPV vocabulary is reference data shipped with the project, like the plans: loaded once.
  const cpvs = (await store.countCpvs()) === 0 ? readCpvs() : [];
  if (cpvs.length > 0) await store.saveCpvs(cpvs);
  // Predefined alert subscriptions, by key: a template added or changed in the code arrives with the next migrate.
  await seedAlertTemplates(store);
  return { migrations, plans, indicators: missing.length, cpvs: cpvs.length };
}
