import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DIRECTIONS,
  INDICATOR_CATEGORIES,
  readIndicatorCatalogue,
  TREATMENTS,
  UNITS,
  VALUE_DOMAINS,
  validateIndicatorCatalogue,
} from '../src/ingest/catalogue.js';
import { testDir } from './helpers/temp-dir.js';

const catalogue = readIndicatorCatalogue();
const byKey = new Map(catalogue.map((e) => [e.key, e]));

describe('the enumerations', () => {
  it('are exactly those docs/decisions.md lists', () => {
    expect([...INDICATOR_CATEGORIES]).toEqual([
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
    ]);
    expect([...UNITS]).toEqual([
      'persons',
      'percent',
      'eur',
      'eur_per_capita',
      'per_1000',
      'index',
      'count',
      'km2',
      'years',
      'ratio',
    ]);
    expect([...DIRECTIONS]).toEqual(['higher_is_better', 'lower_is_better', 'neutral']);
    expect([...VALUE_DOMAINS]).toEqual(['count', 'amount', 'rate', 'ratio', 'index', 'signed']);
    expect([...TREATMENTS]).toEqual(['raw', 'derived', 'estimated', 'normalized']);
  });
});

describe('data/indicators.json', () => {
  it('has at least 30 indicators over at least 8 categories, with unique snake_case keys', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(30);
    expect(new Set(catalogue.map((e) => e.category)).size).toBeGreaterThanOrEqual(8);
    expect(byKey.size).toBe(catalogue.length);
    for (const e of catalogue) expect(e.key).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it('uses only valid enumeration values and never the served-only `normalized` treatment', () => {
    for (const e of catalogue) {
      expect(INDICATOR_CATEGORIES, e.key).toContain(e.category);
      expect(UNITS, e.key).toContain(e.unit);
      expect(DIRECTIONS, e.key).toContain(e.direction);
      expect(VALUE_DOMAINS, e.key).toContain(e.value_domain);
      expect(['raw', 'derived', 'estimated'], e.key).toContain(e.treatment);
      expect(['annual', 'monthly'], e.key).toContain(e.frequency);
      expect(e.country_code).toBe('PT');
      expect(e.scale_factor).toBe(1);
      expect(e).not.toHaveProperty('source');
    }
  });

  it('has Portuguese names and summaries that are not copies of the English ones', () => {
    for (const e of catalogue) {
      expect(e.name_pt, e.key).not.toBe(e.name);
      expect(e.summary_pt, e.key).not.toBe(e.summary);
      expect(e.summary?.length ?? 0, e.key).toBeGreaterThan(40);
    }
    const accented = catalogue.filter((e) => /[áàâãéêíóôõúç]/i.test(`${e.name_pt} ${e.summary_pt}`));
    expect(accented.length).toBeGreaterThan(catalogue.length / 2);
    expect(byKey.get('ageing_index')?.name_pt).toBe('Índice de envelhecimento');
  });

  it('has the indicators other code relies on', () => {
    expect(byKey.get('birth_rate')).toMatchObject({
      name: 'Crude birth rate',
      name_pt: 'Taxa bruta de natalidade',
      category: 'demography',
      unit: 'per_1000',
      frequency: 'annual',
    });
    expect(byKey.get('population')).toMatchObject({ unit: 'persons', value_domain: 'count', category: 'demography' });
  });

  it('has monthly series, and euro amounts carry EUR while nothing else has a currency', () => {
    expect(catalogue.filter((e) => e.frequency === 'monthly').length).toBeGreaterThanOrEqual(3);
    for (const e of catalogue) {
      const money = e.unit === 'eur' || e.unit === 'eur_per_capita';
      expect(e.currency_code, e.key).toBe(money ? 'EUR' : null);
      if (e.unit === 'eur_per_capita') expect(e.per_capita, e.key).toBe(true);
      if (e.value_domain === 'signed') expect(e.unit, e.key).not.toBe('count');
    }
  });
});

describe('catalogue validation', () => {
  const good = () => catalogue.slice(0, 3).map((e) => ({ ...e }));

  it('accepts a valid list and rebuilds entries in the canonical field order', () => {
    const reordered = good().map((e) => Object.fromEntries(Object.entries(e).reverse()));
    const out = validateIndicatorCatalogue(reordered);
    expect(Object.keys(out[0])).toEqual(Object.keys(catalogue[0]));
  });

  it('names the entry and the field of an unknown enumeration value', () => {
    const list = good();
    (list[1] as Record<string, unknown>).unit = 'permille';
    expect(() => validateIndicatorCatalogue(list)).toThrow(
      /entry 1 \(birth_rate\): field "unit" has value "permille"; expected one of persons/,
    );
  });

  it('names a missing field, an unexpected field and a duplicate key', () => {
    const missing = good();
    delete (missing[2] as Record<string, unknown>).direction;
    expect(() => validateIndicatorCatalogue(missing)).toThrow(/entry 2 \(.+\): field "direction" is missing/);

    const extra = good().map((e) => ({ ...e, source: 'INE' }));
    expect(() => validateIndicatorCatalogue(extra)).toThrow(
      /entry 0 \(population\): field "source" is not a catalogue field/,
    );

    const duplicate = [...good(), { ...catalogue[0] }];
    expect(() => validateIndicatorCatalogue(duplicate)).toThrow(/entry 3 \(population\): field "key" duplicates/);
  });

  it('rejects wrong types, a currency on a non-money unit and a non-array', () => {
    const list = good();
    (list[0] as Record<string, unknown>).per_capita = 'no';
    expect(() => validateIndicatorCatalogue(list)).toThrow(/field "per_capita" must be a boolean/);
    const currency = good();
    currency[1].currency_code = 'EUR';
    expect(() => validateIndicatorCatalogue(currency)).toThrow(
      /entry 1 \(birth_rate\): field "currency_code" must be null/,
    );
    expect(() => validateIndicatorCatalogue({})).toThrow(/expected a JSON array/);
  });

  it('reports the file when it is not JSON', () => {
    const path = join(testDir('catalogue-'), 'indicators.json');
    writeFileSync(path, '[{"key": ');
    expect(() => readIndicatorCatalogue(path)).toThrow(
      new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not readable JSON`),
    );
  });
});
