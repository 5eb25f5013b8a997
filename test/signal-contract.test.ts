/**
 * A signal names the contract it is about (`contract_id`, docs/api.md): the awarded contract, the contract an
 * amendment changes, the contract an integrity flag is on; none for a call for tenders. Checked on the demo store
 * (real and generated data, detection run) against the API's own contract records: the contract served is the one
 * the signal's evidence cites by its id at the source.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.close());

async function api(path: string): Promise<any> {
  const res = await t.get(path);
  expect(res.status, path).toBe(200);
  return res.json;
}

/** The first few signals of a type, in detail. */
async function signalsOf(type: string): Promise<any[]> {
  const page = await api(`/v1/signals?type=${type}&limit=3`);
  expect(page.items.length, type).toBeGreaterThan(0);
  return Promise.all(page.items.map((s: any) => api(`/v1/signals/${s.id}`)));
}

/** The id at the source an evidence item of this type cites in its title ("Contrato 10580639 (…)"). */
function citedSourceId(signal: any, sourceType: string): string {
  const item = signal.evidence.find((e: any) => e.source_type === sourceType) ?? expect.unreachable(sourceType);
  return /^\S+(?: contratual)? (\S+)/.exec(item.source_title)?.[1] ?? expect.unreachable(item.source_title);
}

describe('a signal’s contract_id', () => {
  it.each([
    'contract_awarded',
    'direct_award_high_value',
    'heterogeneous_supplier',
  ])('names the contract a %s signal is about', async (type) => {
    for (const signal of await signalsOf(type)) {
      expect(signal.contract_id, `signal ${signal.id}`).toEqual(expect.any(Number));
      const contract = await api(`/v1/procurement/contracts/${signal.contract_id}`);
      expect(contract.source_id).toBe(citedSourceId(signal, 'procurement_contract'));
      expect(contract.synthetic).toBe(signal.synthetic);
    }
  });

  it('names the contract an amendment changes for a contract_amended signal', async () => {
    for (const signal of await signalsOf('contract_amended')) {
      const contract = await api(`/v1/procurement/contracts/${signal.contract_id}`);
      expect(contract.source_id).toBe(citedSourceId(signal, 'procurement_contract'));
      expect(contract.amendments.map((m: any) => m.source_id)).toContain(
        citedSourceId(signal, 'procurement_amendment'),
      );
    }
  });

  it('is null for a call for tenders, which no contract answers yet', async () => {
    for (const signal of await signalsOf('tender_open')) expect(signal.contract_id).toBeNull();
  });
});
