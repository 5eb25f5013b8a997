/**
 * District parameters take the autonomous regions by their usual short names (Açores, Azores, Madeira) as well as
 * their full names, on every channel and every operation that takes a district; an unknown district is refused with
 * the nearest names, as an unknown municipality is (docs/api.md, Series and snapshots).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, callOperation } from './helpers/operation-call.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const MUNICIPALITIES = municipalitiesFromFile();
const AZORES = 'Região Autónoma dos Açores';
const MADEIRA = 'Região Autónoma da Madeira';
const codesIn = (district: string) =>
  MUNICIPALITIES.filter((m) => m.district === district)
    .map((m) => m.code)
    .sort();

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function ok(channel: (typeof CHANNELS)[number], name: string, input: Record<string, unknown>) {
  const res = await callOperation(t, channel, name, input);
  expect(res.ok, `${channel} ${name} ${JSON.stringify(input)}: ${JSON.stringify(res)}`).toBe(true);
  return res.ok ? res.json : undefined;
}

describe.each(CHANNELS)('district names on %s', (channel) => {
  it.each([
    ['Açores', AZORES],
    ['Azores', AZORES],
    ['acores', AZORES],
    ['Madeira', MADEIRA],
    ['MADEIRA', MADEIRA],
  ])('municipalities_search and indicators_snapshot take %s for %s', async (written, district) => {
    const search = await ok(channel, 'municipalities_search', { district: written, limit: 200 });
    expect(search.items.map((m: { code: string }) => m.code)).toEqual(codesIn(district));
    const snapshot = await ok(channel, 'indicators_snapshot', { key: 'population', district: written, limit: 308 });
    expect(snapshot.items.map((r: { municipality: string }) => r.municipality).sort()).toEqual(codesIn(district));
  });

  it('indicators_medians and procurement_announcements answer a short name as the full one', async () => {
    for (const [short, full] of [
      ['Açores', AZORES],
      ['Madeira', MADEIRA],
    ]) {
      const medians = await ok(channel, 'indicators_medians', { key: 'population', district: short });
      expect(medians).toEqual(await ok(channel, 'indicators_medians', { key: 'population', district: full }));
      const notices = await ok(channel, 'procurement_announcements', { district: short, limit: 200 });
      expect(notices.items).toEqual(
        (await ok(channel, 'procurement_announcements', { district: full, limit: 200 })).items,
      );
    }
  });

  it('refuses an unknown district with 422 and the nearest names', async () => {
    for (const [written, near] of [
      ['Bragaa', 'Braga'],
      ['Madiera', MADEIRA],
      ['Açors', AZORES],
    ]) {
      const res = await callOperation(t, channel, 'municipalities_search', { district: written });
      expect(res.ok).toBe(false);
      if (res.ok) continue;
      expect(res.kind).toBe('validation-error');
      expect(res.problem.detail).toContain(`Unknown district "${written}". Did you mean ${near}`);
      expect(res.problem.suggestions[0]).toEqual({ code: near, name: near });
      expect(res.problem.errors.map((e: { field: string }) => e.field)).toEqual(['district']);
    }
    const far = await callOperation(t, channel, 'indicators_snapshot', { key: 'population', district: 'Xyzzyqq' });
    expect(far.ok).toBe(false);
    if (!far.ok) expect(far.problem.detail).not.toContain('Did you mean');
  });
});
