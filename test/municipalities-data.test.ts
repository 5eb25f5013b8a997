/** Our data/municipalities.csv against the facts of the reference data in test/fixtures (SOURCES.md there). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../src/ingest/csv.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';

const ours = readMunicipalities();
const reference = parseCsv(readFileSync(new URL('fixtures/municipalities.csv', import.meta.url), 'utf8'));
const nifs = parseCsv(readFileSync(new URL('fixtures/municipality-nif.csv', import.meta.url), 'utf8'));

describe('data/municipalities.csv', () => {
  it('has all 308 municipalities with unique ids 1…308, codes and slugs', () => {
    expect(ours).toHaveLength(308);
    expect(new Set(ours.map((m) => m.id))).toEqual(new Set(Array.from({ length: 308 }, (_, i) => i + 1)));
    expect(new Set(ours.map((m) => m.code)).size).toBe(308);
    expect(new Set(ours.map((m) => m.slug)).size).toBe(308);
  });

  it('uses 4-digit codes equal to the CAOP DICO, with the same names, districts and NUTS 2024', () => {
    const byDico = new Map(reference.map((r) => [r.dico, r]));
    for (const m of ours) {
      expect(m.code).toMatch(/^\d{4}$/);
      const r = byDico.get(m.code);
      expect(r, m.code).toBeDefined();
      expect([m.name, m.district, m.nuts_ii, m.nuts_iii]).toEqual([r?.name, r?.district, r?.nuts_ii, r?.nuts_iii]);
      expect(m.population_2021).toBe(Number(r?.population_2021));
    }
  });

  it('has lowercase ASCII slugs made of the name', () => {
    for (const m of ours) expect(m.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const bySlug = new Map(ours.map((m) => [m.slug, m]));
    expect(bySlug.get('vila-nova-de-gaia')?.code).toBe('1317');
    expect(bySlug.get('lagoa')?.code).toBe('0806');
    expect(bySlug.get('lagoa-acores')?.code).toBe('4201');
  });

  it('knows the spot facts', () => {
    const byCode = new Map(ours.map((m) => [m.code, m]));
    expect(byCode.get('1106')).toMatchObject({
      name: 'Lisboa',
      district: 'Lisboa',
      nuts_ii: 'Grande Lisboa',
      nuts_iii: 'Grande Lisboa',
    });
    expect(byCode.get('1312')).toMatchObject({
      name: 'Porto',
      district: 'Porto',
      nuts_iii: 'Área Metropolitana do Porto',
    });
    expect(byCode.get('0705')).toMatchObject({ name: 'Évora', district: 'Évora' });
    expect(byCode.get('3103')).toMatchObject({ name: 'Funchal', district: 'Região Autónoma da Madeira' });
    expect(byCode.get('4203')).toMatchObject({ name: 'Ponta Delgada', district: 'Região Autónoma dos Açores' });
    expect(ours.filter((m) => m.district === 'Região Autónoma dos Açores')).toHaveLength(19);
    expect(ours.filter((m) => m.district === 'Região Autónoma da Madeira')).toHaveLength(11);
    expect(new Set(ours.map((m) => m.district)).size).toBe(20);
    expect(ours.reduce((sum, m) => sum + m.population_2021, 0)).toBe(10_343_066);
  });

  it('carries each municipality’s tax number (NIF), with a valid check digit', () => {
    const byDico = new Map(nifs.map((r) => [r.dico, r.nif]));
    for (const m of ours) {
      expect(m.nif).toBe(byDico.get(m.code));
      const digits = m.nif.split('').map(Number);
      const sum = digits.slice(0, 8).reduce((s, d, i) => s + d * (9 - i), 0);
      const check = 11 - (sum % 11);
      expect(digits[8]).toBe(check >= 10 ? 0 : check);
    }
  });
});
