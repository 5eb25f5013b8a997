/**
 * The indicator catalogue the project ships (`data/indicators.json`), and the enumerations (docs/decisions.md) that
 * describe an indicator. The API schemas import the lists from here so that the catalogue and the published
 * `enum`s cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import {
  CATALOGUE_TREATMENTS,
  DIRECTIONS,
  FREQUENCIES,
  INDICATOR_CATEGORIES,
  UNITS,
  VALUE_DOMAINS,
} from '../lib/vocabulary.js';
import type { IndicatorRecord } from '../store/records.js';
import { dataFile } from './data-files.js';

// The vocabulary lives in one place (src/vocabulary.ts); re-exported for the catalogue's readers.
export {
  CATALOGUE_TREATMENTS,
  DIRECTIONS,
  type Direction,
  FREQUENCIES,
  INDICATOR_CATEGORIES,
  type IndicatorCategory,
  TREATMENTS,
  UNITS,
  type Unit,
  VALUE_DOMAINS,
  type ValueDomain,
} from '../lib/vocabulary.js';

/** A catalogue entry: an indicator without its `source`, which whoever loads the data fills in. */
export type CatalogueEntry = Omit<IndicatorRecord, 'source'>;

/**
 * Where INE (Statistics Portugal) publishes an indicator, as far as public sources tell (docs/data.md, The indicator
 * catalogue): its code (`varcd`), the category of each extra dimension that is the municipality's total, how sure
 * the code is and the evidence. Null where no code was found with high or medium confidence: left empty, not guessed.
 * These fields stay in the file, for `import ine` and `sync ine`; the store keeps the indicator without them.
 */
export interface IneMapping {
  readonly ine_varcd: string | null;
  readonly ine_dimensions: Readonly<Record<string, string>> | null;
  readonly ine_confidence: 'high' | 'medium' | null;
  readonly ine_evidence: string | null;
  readonly ine_note: string | null;
}

export function readIndicatorCatalogue(path = dataFile('indicators.json')): CatalogueEntry[] {
  return validateIndicatorCatalogue(readCatalogueJson(path), path);
}

/** The INE mapping of every catalogue indicator, by key. */
export function readIneMappings(path = dataFile('indicators.json')): Map<string, IneMapping> {
  const data = readCatalogueJson(path);
  validateIndicatorCatalogue(data, path);
  return new Map(
    (data as Record<string, unknown>[]).map((e) => [
      e.key as string,
      Object.fromEntries(Object.keys(INE_FIELDS).map((f) => [f, e[f] ?? null])) as unknown as IneMapping,
    ]),
  );
}

function readCatalogueJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`indicator catalogue ${path}: not readable JSON (${(error as Error).message})`);
  }
}

type Check = (value: unknown) => string | undefined;

const text: Check = (v) => (typeof v === 'string' && v.trim() !== '' ? undefined : 'must be a non-empty string');
const optionalText: Check = (v) => (v === null ? undefined : text(v));
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v)
      ? undefined
      : `has value ${JSON.stringify(v)}; expected one of ${values.join(', ')}`;
const pattern =
  (re: RegExp, what: string): Check =>
  (v) =>
    typeof v === 'string' && re.test(v) ? undefined : `has value ${JSON.stringify(v)}; expected ${what}`;

/** Every field of an entry and how to check it; a field not listed here is an error (it would not fit the table). */
const FIELDS: Record<keyof CatalogueEntry, Check> = {
  key: pattern(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/, 'snake_case'),
  name: text,
  name_pt: text,
  category: oneOf(INDICATOR_CATEGORIES),
  unit: oneOf(UNITS),
  unit_display: optionalText,
  direction: oneOf(DIRECTIONS),
  country_code: pattern(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code'),
  value_domain: oneOf(VALUE_DOMAINS),
  treatment: oneOf(CATALOGUE_TREATMENTS),
  summary: optionalText,
  summary_pt: optionalText,
  currency_code: (v) => (v === null ? undefined : pattern(/^[A-Z]{3}$/, 'an ISO 4217 code or null')(v)),
  scale_factor: (v) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? undefined : 'must be a positive number'),
  per_capita: (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean'),
  unit_description: optionalText,
  frequency: oneOf(FREQUENCIES),
};

const INE_FIELDS: Record<keyof IneMapping, Check> = {
  ine_varcd: (v) => (v === null ? undefined : pattern(/^\d{7}$/, 'a 7-digit INE code (leading zeros kept) or null')(v)),
  ine_dimensions: (v) =>
    v === null ||
    (typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.entries(v).every(([d, c]) => /^dim_\d+$/.test(d) && typeof c === 'string' && c !== ''))
      ? undefined
      : 'must be null or an object of dim_N → category code',
  ine_confidence: (v) => (v === null ? undefined : oneOf(['high', 'medium'])(v)),
  ine_evidence: optionalText,
  ine_note: optionalText,
};

/** Checks parsed catalogue JSON; throws an Error naming the entry and the field at the first problem. */
export function validateIndicatorCatalogue(data: unknown, label = 'indicator catalogue'): CatalogueEntry[] {
  if (!Array.isArray(data)) throw new Error(`${label}: expected a JSON array of indicators`);
  const seen = new Set<string>();
  return data.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new Error(`${label}: entry ${i} is not an object`);
    }
    const record = entry as Record<string, unknown>;
    const where = `${label}: entry ${i}${typeof record.key === 'string' ? ` (${record.key})` : ''}`;
    for (const [field, check] of Object.entries(FIELDS)) {
      if (!(field in record)) throw new Error(`${where}: field "${field}" is missing`);
      const problem = check(record[field]);
      if (problem) throw new Error(`${where}: field "${field}" ${problem}`);
    }
    for (const [field, check] of Object.entries(INE_FIELDS)) {
      // Optional: an entry without them has no INE code (docs/data.md).
      const problem = check(record[field] ?? null);
      if (problem) throw new Error(`${where}: field "${field}" ${problem}`);
    }
    // A code without its confidence and evidence would be a guess nobody can check.
    if (
      (record.ine_varcd ?? null) !== null &&
      ((record.ine_confidence ?? null) === null || (record.ine_evidence ?? null) === null)
    ) {
      throw new Error(`${where}: field "ine_varcd" needs "ine_confidence" and "ine_evidence"`);
    }
    for (const field of Object.keys(record)) {
      if (!(field in FIELDS) && !(field in INE_FIELDS))
        throw new Error(`${where}: field "${field}" is not a catalogue field`);
    }
    // Money needs its currency, and nothing else may claim one: clients format values by it.
    const money = record.unit === 'eur' || record.unit === 'eur_per_capita';
    if (money && record.currency_code === null)
      throw new Error(`${where}: field "currency_code" must be set for unit ${record.unit}`);
    if (!money && record.currency_code !== null)
      throw new Error(`${where}: field "currency_code" must be null for unit ${record.unit}`);
    const key = record.key as string;
    if (seen.has(key)) throw new Error(`${where}: field "key" duplicates an earlier entry`);
    seen.add(key);
    // Rebuilt in the canonical field order, so every entry has the same keys in the same order.
    return Object.fromEntries(Object.keys(FIELDS).map((f) => [f, record[f]])) as unknown as CatalogueEntry;
  });
}
