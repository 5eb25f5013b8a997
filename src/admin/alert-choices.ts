/**
 * What a rule may name, for a form to offer (the console's rule form): the catalogue's signal types and families,
 * the store's indicators and districts. The checks themselves stay in alert-params.ts and alert-places.ts.
 */
import { SIGNAL_FAMILIES, SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS, SIGNAL_TYPES } from '../signals/catalogue.js';
import type { Store } from '../store/store.js';

export interface RuleChoices {
  signalTypes: readonly string[];
  signalFamilies: readonly string[];
  indicators: readonly string[];
  districts: readonly string[];
  /** Each signal type's, family's and indicator's name in English, by its key: what a form shows beside the key. */
  names: ReadonlyMap<string, string>;
}

export async function ruleChoices(store: Pick<Store, 'listIndicators' | 'listMunicipalities'>): Promise<RuleChoices> {
  const municipalities = await store.listMunicipalities();
  const indicators = await store.listIndicators();
  return {
    signalTypes: SIGNAL_TYPE_KEYS,
    signalFamilies: SIGNAL_FAMILY_KEYS,
    indicators: indicators.map((i) => i.key),
    districts: [...new Set(municipalities.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt')),
    names: namesOf(indicators),
  };
}

/** The names alone (`RuleChoices.names`), for a page that lists rules and needs no districts. */
export async function ruleKeyNames(store: Pick<Store, 'listIndicators'>): Promise<ReadonlyMap<string, string>> {
  return namesOf(await store.listIndicators());
}

function namesOf(indicators: readonly { key: string; name: string }[]): ReadonlyMap<string, string> {
  return new Map([
    ...SIGNAL_TYPES.map((t) => [t.key, t.label_en] as const),
    ...SIGNAL_FAMILIES.map((f) => [f.key, f.label_en] as const),
    ...indicators.map((i) => [i.key, i.name] as const),
  ]);
}
