/**
 * Real or synthetic (docs/data.md, "Real and synthetic data"): the one place that says how a record made by the
 * demo generator is told from real data. Nothing new is stored for it: the demo writes procurement under the
 * source `demo` and labels the indicators it fills `munidata demo data (synthetic)`; signals and cases name their
 * source (or indicator) in their keys. Every answer derives its `synthetic` flag from these.
 */

/** The `source` of every procurement record the demo generates. */
export const DEMO_PROCUREMENT_SOURCE = 'demo';
/** The `source` label of an indicator whose observations the demo generated. */
export const DEMO_INDICATOR_SOURCE = 'munidata demo data (synthetic)';
/** Any indicator source label starting so is demo data (labels of earlier versions included). */
export const DEMO_INDICATOR_SOURCE_PREFIX = 'munidata demo';
/**
 * The procurement sources records can come from: the national portal's open data (the BASE importers), and the demo.
 */
export const PROCUREMENT_SOURCES = ['base', DEMO_PROCUREMENT_SOURCE] as const;

/** What the titles of signals (and so of cases) derived from demo data begin with. */
export const DEMO_TITLE_PREFIX = '[demo] ';

export function isDemoProcurementSource(source: string): boolean {
  return source === DEMO_PROCUREMENT_SOURCE;
}

export function isDemoIndicatorSource(source: string | null | undefined): boolean {
  return typeof source === 'string' && source.startsWith(DEMO_INDICATOR_SOURCE_PREFIX);
}

/** Whether an indicator's observations are demo data, by its key (the caller knows the catalogue). */
export type IndicatorIsSynthetic = (indicatorKey: string) => boolean;

/**
 * Whether a signal is derived from demo data, by its key: `procurement:<type>:<source>:<id>`,
 * `indicators:<type>:<indicator>:<code>:<date>`, `import:<source>:<id>` (an import of source `demo` only).
 */
export function isSyntheticSignalKey(key: string, indicatorIsSynthetic: IndicatorIsSynthetic): boolean {
  const parts = key.split(':');
  if (parts[0] === 'procurement') return isDemoProcurementSource(parts[2] ?? '');
  if (parts[0] === 'indicators') return indicatorIsSynthetic(parts[2] ?? '');
  if (parts[0] === 'import') return isDemoProcurementSource(parts[1] ?? '');
  return false;
}

/**
 * Whether a case is about demo data, by its key: `procurement:<source>:…`, `indicators:<indicator>:…`; the keys of
 * imported cases are the importer's own and name no demo source.
 */
export function isSyntheticCaseKey(key: string, indicatorIsSynthetic: IndicatorIsSynthetic): boolean {
  const parts = key.split(':');
  if (parts[0] === 'procurement') return isDemoProcurementSource(parts[1] ?? '');
  if (parts[0] === 'indicators') return indicatorIsSynthetic(parts[1] ?? '');
  return false;
}

/** A title marked as demo (idempotent: a marked title is left as it is). */
export function demoTitle<T extends string | null>(title: T): T {
  if (title === null || title.startsWith(DEMO_TITLE_PREFIX)) return title;
  return `${DEMO_TITLE_PREFIX}${title}` as T;
}
