/**
 * Municipality parameters take the name as a person writes it, accent- and case-insensitively, on every channel;
 * an unknown one is refused with the closest names as `suggestions` (docs/api.md, Municipalities by name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, callOperation } from './helpers/operation-call.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const MUNICIPALITIES = municipalitiesFromFile();
const codeOf = (name: string) => MUNICIPALITIES.find((m) => m.name === name)?.code;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe.each(CHANNELS)('municipality names on %s', (channel) => {
  it.each(['Guimarães', 'guimaraes', 'GUIMARÃES', 'guimarães '])('finds Guimarães written "%s"', async (written) => {
    const res = await callOperation(t, channel, 'municipalities_get', { code: written });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (res.ok) expect(res.json.code).toBe(codeOf('Guimarães'));
  });

  it('takes a name of several words as the series municipality', async () => {
    const res = await callOperation(t, channel, 'indicators_series', {
      key: 'population',
      municipality: 'Vila Nova de Gaia',
      limit: 3,
    });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (res.ok) expect(res.json.items[0].municipality).toBe(codeOf('Vila Nova de Gaia'));
  });

  it('takes names in list filters', async () => {
    const res = await callOperation(t, channel, 'procurement_contracts', {
      municipality: ['Évora', 'vila nova de gaia'],
      limit: 50,
    });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (res.ok) {
      expect(res.json.items.length).toBeGreaterThan(0);
      for (const contract of res.json.items as { municipalities: string[] }[]) {
        expect(
          contract.municipalities.some((code) => code === codeOf('Évora') || code === codeOf('Vila Nova de Gaia')),
        ).toBe(true);
      }
    }
  });

  it('refuses an unknown name with 404 and the closest names as suggestions', async () => {
    const res = await callOperation(t, channel, 'municipalities_get', { code: 'Guimaraez' });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.kind).toBe('not-found');
      expect(res.problem.suggestions[0]).toEqual({ code: codeOf('Guimarães'), slug: 'guimaraes', name: 'Guimarães' });
      expect(res.problem.detail).toContain('Guimarães');
    }
  });

  it('refuses an unknown series municipality with 404 and suggestions', async () => {
    const res = await callOperation(t, channel, 'indicators_series', {
      key: 'population',
      municipality: 'Vila Nova de Gaiaa',
    });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.kind).toBe('not-found');
      expect(res.problem.suggestions.map((s: { name: string }) => s.name)).toContain('Vila Nova de Gaia');
    }
  });
});

describe('names shared by two municipalities', () => {
  it('gives the Algarve Lagoa for the name, as its slug does, and the Azores one by its slug', async () => {
    const algarve = MUNICIPALITIES.find((m) => m.name === 'Lagoa' && m.district === 'Faro');
    const azores = MUNICIPALITIES.find((m) => m.name === 'Lagoa' && m.district !== 'Faro');
    expect((await t.get('/v1/municipalities/Lagoa')).json.code).toBe(algarve?.code);
    expect((await t.get('/v1/municipalities/lagoa-acores')).json.code).toBe(azores?.code);
  });
});
