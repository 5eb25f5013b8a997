/**
 * What a rule may name, for a form to offer (the console's rule form): the catalogue's signal types and families,
 * the store's indicators and districts. The checks themselves stay in alert-params.ts and alert-places.ts.
 */
import { SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';
import type { Store } from '../store/store.js';

export interface RuleChoices {
  signalTypes: readonly string[];
  signalFamilies: readonly string[];
  indicators: readonly string[];
  districts: readonly string[];
}

export async function ruleChoices(store: Pick<Store, 'listIndicators' | 'listMunicipalities'>): Promise<RuleChoices> {
  const municipalities = await store.listMunicipalities();
  return {
    signalTypes: SIGNAL_TYPE_KEYS,
    signalFamilies: SIGNAL_FAMILY_KEYS,
    indicators: (await store.listIndicators()).map((i) => i.key),
    districts: [...new Set(municipalities.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt')),
  };
}
