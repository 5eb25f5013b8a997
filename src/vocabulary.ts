/**
 * The enumerated values of the resource model (DESIGN.md §3), defined once. Schemas publish them as `enum`,
 * the catalogue loader validates against them, docs list them.
 */
export const INDICATOR_CATEGORIES = [
  'demography',
  'economy',
  'employment',
  'education',
  'health',
  'housing',
  'environment',
  'public_finance',
  'procurement',
  'social',
  'territory',
] as const;

export const UNITS = ['persons', 'percent', 'eur', 'eur_per_capita', 'per_1000', 'index', 'count', 'km2', 'years', 'ratio'] as const;

export const DIRECTIONS = ['higher_is_better', 'lower_is_better', 'neutral'] as const;

export const VALUE_DOMAINS = ['count', 'amount', 'rate', 'ratio', 'index', 'signed'] as const;

/**
 * raw: as published by the source; derived: computed from other series; estimated: provisional or
 * interpolated; normalized: the 0–100 index served instead of the value to plans without raw values.
 */
export const TREATMENTS = ['raw', 'derived', 'estimated', 'normalized'] as const;

/** What a catalogue entry may say; `normalized` only ever describes a served value. */
export const CATALOGUE_TREATMENTS = ['raw', 'derived', 'estimated'] as const;

export const FREQUENCIES = ['annual', 'monthly'] as const;

export type IndicatorCategory = (typeof INDICATOR_CATEGORIES)[number];
export type Unit = (typeof UNITS)[number];
export type Direction = (typeof DIRECTIONS)[number];
export type ValueDomain = (typeof VALUE_DOMAINS)[number];
