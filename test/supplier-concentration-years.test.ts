/**
 * Supplier concentration sums a buyer's year from the store (docs/integrity.md): the contracts published in the year
 * and those without a publication date signed in it. The undated ones are read once for all the years asked of a
 * buyer, and each year's contracts are the same as when they were read per year.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { CheckContext } from '../src/integrity/check.js';
import { buyerYear } from '../src/integrity/checks/supplier-concentration.js';
import { integrityCorpus } from '../src/integrity/corpus.js';
import { Regions } from '../src/lib/regions.js';
import type { ContractInput } from '../src/store/procurement-records.js';
import type { Store } from '../src/store/store.js';
import { contractInput, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';

const MUNICIPALITIES = readMunicipalities();
const BUYER = MUNICIPALITIES.find((m) => m.code === '0201') ?? MUNICIPALITIES[0];
const SUPPLIERS = [withCheckDigit('51900010'), withCheckDigit('51900011')];

function contract(id: string, published: string | null, signed: string | null, price: number, s = 0): ContractInput {
  return contractInput(id, {
    buyers: [{ nif: BUYER.nif, name: `Município de ${BUYER.name}` }],
    suppliers: [{ nif: SUPPLIERS[s], name: `Fornecedor ${s}, Lda.` }],
    price_eur: price,
    published_on: published,
    signed_on: signed,
    execution_days: 90,
    municipality_ids: [BUYER.id],
  });
}

const CONTRACTS = [
  contract('p2023', '2023-03-01', '2023-02-20', 1000),
  contract('p2024a', '2024-01-15', '2024-01-10', 2000, 1),
  contract('p2024b', '2024-02-15', null, 3000),
  contract('u2023', null, '2023-07-01', 400, 1),
  contract('u2024', null, '2024-05-01', 500),
  contract('u-none', null, null, 600),
];

let store: Store;
const idOf = new Map<string, number>();

beforeAll(async () => {
  store = (await freshStore()).store;
  await store.writeProcurement({ contracts: CONTRACTS, announcements: [], amendments: [] });
  for (const row of await store.listContracts({}, { limit: 100 })) idOf.set(row.source_id, row.id);
}, 120_000);
afterAll(() => store?.close());

/** A context over the store that counts the reads of the buyer's undated contracts. */
function countingContext(): { ctx: CheckContext; undatedReads: () => number } {
  let reads = 0;
  const counting = new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'buyerPrices') return Reflect.get(target, name, receiver);
      return (source: string, buyer: string, dates: Parameters<Store['buyerPrices']>[2]) => {
        if (dates === 'undated') reads++;
        return target.buyerPrices(source, buyer, dates);
      };
    },
  });
  const ctx: CheckContext = {
    store: counting,
    corpus: integrityCorpus(counting),
    regions: new Regions(MUNICIPALITIES),
    memo: new Map(),
  };
  return { ctx, undatedReads: () => reads };
}

describe('supplier concentration: a buyer year read from the store', () => {
  it('reads the undated contracts once for several years, each year the same contracts', async () => {
    const { ctx, undatedReads } = countingContext();
    const years = await Promise.all([2023, 2024, 2025].map((y) => buyerYear(ctx, 'base', BUYER.nif, y)));
    const ids = years.map((y) => new Set(y?.contracts.map((c) => c.id)));
    const expected = (...names: string[]) => new Set(names.map((n) => idOf.get(n)));
    expect(ids[0]).toEqual(expected('p2023', 'u2023'));
    expect(ids[1]).toEqual(expected('p2024a', 'p2024b', 'u2024'));
    expect(ids[2]).toEqual(expected());
    expect(years[1]?.sums.total).toBe(5500);
    expect(years[1]?.sums.bySupplier.get(SUPPLIERS[0])?.total).toBe(3500);
    expect(undatedReads()).toBe(1);
  });
});
