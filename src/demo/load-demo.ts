/**
 * Loads the demo data set into a store: the 308 municipalities, the indicator catalogue and synthetic
 * observations, synthetic procurement (contracts, announcements, amendments, entities; source `demo`), the demo
 * account with its alert rules, and what detection and the alert matcher make of it all (signals, cases, matches),
 * so that every endpoint answers with meaningful data on first start.
 * Idempotent: a second load with the same seed and number of contracts in the same month writes nothing.
 * Indicators whose data already comes from another source (e.g. an INE import) keep that source and their
 * observations; procurement from other sources is untouched (demo records have their own source). A store that
 * holds real contracts gets no generated ones, nor their amendments: only the pending announcements (docs/data.md,
 * "Real and generated data apart").
 */

import { type DetectReport, detectAndMatch } from '../alerts/detect-and-match.js';
import { readIndicatorCatalogue } from '../ingest/catalogue.js';
import { readCpvs } from '../ingest/cpv.js';
import { readMunicipalities } from '../ingest/municipalities.js';
import {
  DEMO_CONTRACT_INDICATOR_SOURCE,
  DEMO_INDICATOR_SOURCE,
  DEMO_INDICATOR_SOURCE_PREFIX,
} from '../lib/provenance.js';
import type { ProcurementWriteSummary } from '../store/procurement-records.js';
import type { WriteSummary } from '../store/records.js';
import type { Store } from '../store/store.js';
import { ensureDemoAccount } from './demo-account.js';
import { ensureDemoAlertRules } from './demo-alert-rules.js';
import { DEFAULT_DEMO_CONTRACTS, DEFAULT_DEMO_SEED } from './demo-defaults.js';
import { generateDemoObservations } from './generate.js';
import { generateProcurement } from './procurement/generate.js';

/** The indicator source label of demo series, and the prefix that tells any demo label (src/lib/provenance.ts). */
export const DEMO_SOURCE = DEMO_INDICATOR_SOURCE;
export const DEMO_SOURCE_PREFIX = DEMO_INDICATOR_SOURCE_PREFIX;

export interface DemoSummary {
  seed: number;
  municipalities: WriteSummary;
  indicators: WriteSummary;
  observations: WriteSummary;
  /** Indicators left to their other source: neither their source label nor their observations were touched. */
  skipped: string[];
  procurement: ProcurementDemoSummary;
  /** The demo account's alert rules (created on the first load). */
  alert_rules: number;
  detection: DetectReport;
}

export interface ProcurementDemoSummary {
  /** Contracts generated: the `--contracts` option, or 0 beside real contracts. */
  generated: number;
  /** Why fewer contracts were generated than asked for; null when none were withheld. */
  withheld: string | null;
  contracts: ProcurementWriteSummary;
  announcements: ProcurementWriteSummary;
  amendments: ProcurementWriteSummary;
  entities: ProcurementWriteSummary;
}

export async function loadDemo(
  store: Store,
  options: { seed?: number; today?: Date; contracts?: number } = {},
): Promise<DemoSummary> {
  const data = await loadDemoData(store, options);
  return { ...data, detection: await detectAndMatch(store, options.today ?? new Date()) };
}

/** The demo data, account and alert rules without running detection (bench/detect.js times that on its own). */
export async function loadDemoData(
  store: Store,
  options: { seed?: number; today?: Date; contracts?: number } = {},
): Promise<Omit<DemoSummary, 'detection'>> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const asked = options.contracts ?? DEFAULT_DEMO_CONTRACTS;
  if (!Number.isSafeInteger(asked) || asked < 0)
    throw new RangeError(`contracts must be a whole number ≥ 0, not ${asked}`);
  // Generated contracts beside real ones would mix in every list, aggregate and profile of a real buyer.
  const realContracts = (await store.listContracts({ source: 'base' }, { limit: 1 })).length > 0;
  const contracts = realContracts ? 0 : asked;
  const withheld =
    realContracts && asked > 0 ? 'the store holds real contracts (source base): none are generated beside them' : null;
  const now = options.today ?? new Date();
  // Only the year and month matter to the generator; pinning the day keeps runs in one month identical.
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

  const municipalities = readMunicipalities();
  const catalogue = readIndicatorCatalogue();
  const municipalitySummary = await store.saveMunicipalities(municipalities);

  const current = new Map((await store.listIndicators()).map((i) => [i.key, i.source]));
  const isOther = (key: string) => {
    const source = current.get(key);
    return source !== undefined && source !== null && !source.startsWith(DEMO_SOURCE_PREFIX);
  };
  const skipped = catalogue.filter((entry) => isOther(entry.key)).map((entry) => entry.key);
  const indicatorSummary = await store.saveIndicators(
    catalogue.map((entry) => ({
      ...entry,
      source: isOther(entry.key)
        ? (current.get(entry.key) as string)
        : entry.category === 'procurement'
          ? DEMO_CONTRACT_INDICATOR_SOURCE
          : DEMO_SOURCE,
    })),
  );

  const observations: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  const generated = generateDemoObservations(municipalities, catalogue, { seed, today });
  for (const [key, rows] of generated) {
    if (skipped.includes(key)) continue;
    const written = await store.writeObservations(key, rows, { replace: true });
    observations.inserted += written.inserted;
    observations.updated += written.updated;
    observations.unchanged += written.unchanged;
  }
  const procurement = { ...(await loadDemoProcurement(store, { seed, today, contracts, municipalities })), withheld };

  const account = await ensureDemoAccount(store, now);
  const rules = await ensureDemoAlertRules(store, account.id, now);
  return {
    seed,
    municipalities: municipalitySummary,
    indicators: indicatorSummary,
    observations,
    skipped,
    procurement,
    alert_rules: rules.length,
  };
}

/** Writes the generated procurement chunk by chunk (one transaction each), then refreshes the entity totals. */
async function loadDemoProcurement(
  store: Store,
  options: { seed: number; today: Date; contracts: number; municipalities: ReturnType<typeof readMunicipalities> },
): Promise<Omit<ProcurementDemoSummary, 'withheld'>> {
  const zero = (): ProcurementWriteSummary => ({ inserted: 0, updated: 0, unchanged: 0 });
  const summary: Omit<ProcurementDemoSummary, 'withheld'> = {
    generated: options.contracts,
    contracts: zero(),
    announcements: zero(),
    amendments: zero(),
    entities: zero(),
  };
  const add = (into: ProcurementWriteSummary, from: ProcurementWriteSummary) => {
    into.inserted += from.inserted;
    into.updated += from.updated;
    into.unchanged += from.unchanged;
  };
  // The generator only uses codes of the vocabulary the store serves labels from (migrate loads it).
  const cpvs = readCpvs();
  for (const chunk of generateProcurement({ ...options, cpvs })) {
    const written = await store.writeProcurement(chunk);
    if (written.orphan_amendments.length > 0) {
      throw new Error(
        `demo procurement: amendments without their contract: ${written.orphan_amendments.slice(0, 5).join(', ')}`,
      );
    }
    add(summary.contracts, written.contracts);
    add(summary.announcements, written.announcements);
    add(summary.amendments, written.amendments);
    add(summary.entities, written.entities);
  }
  await store.refreshProcurementRollups();
  return summary;
}
