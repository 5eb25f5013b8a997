/**
 * Loads the demo data set into a store: the 308 municipalities, the indicator catalogue and synthetic
 * observations. Idempotent: a second load with the same seed in the same month writes nothing. Indicators whose
 * data already comes from another source (e.g. an INE import) keep that source and their observations.
 */
import type { Store } from '../../store/store.js';
import type { WriteSummary } from '../../store/records.js';
import { readIndicatorCatalogue } from '../catalogue.js';
import { readMunicipalities } from '../municipalities.js';
import { generateDemoObservations } from './generate.js';

export const DEMO_SOURCE = 'munidata demo data (synthetic)';
/** Any source label starting so is demo data (the INE importer recognises demo series by the same prefix). */
export const DEMO_SOURCE_PREFIX = 'munidata demo';
export const DEFAULT_DEMO_SEED = 42;

export interface DemoSummary {
  seed: number;
  municipalities: WriteSummary;
  indicators: WriteSummary;
  observations: WriteSummary;
  /** Indicators left to their other source: neither their source label nor their observations were touched. */
  skipped: string[];
}

export async function loadDemo(store: Store, options: { seed?: number; today?: Date } = {}): Promise<DemoSummary> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
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
    catalogue.map((entry) => ({ ...entry, source: isOther(entry.key) ? (current.get(entry.key) as string) : DEMO_SOURCE })),
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
  return { seed, municipalities: municipalitySummary, indicators: indicatorSummary, observations, skipped };
}
