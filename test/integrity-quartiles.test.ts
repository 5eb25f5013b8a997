/**
 * The quartiles the corpus checks use (src/integrity/quartiles.ts) against values worked out by hand from the type-8
 * formula that Cardinal's statrs uses, h = (n + 1/3)·τ + 1/3; and the corpus statistics (src/integrity/corpus.ts)
 * computed once per procurement version, then again when it moves.
 */
import { describe, expect, it } from 'vitest';
import { type CorpusStore, integrityCorpus, shareCorpus } from '../src/integrity/corpus.js';
import { fences, quantile } from '../src/integrity/quartiles.js';

describe('type-8 quartiles, as statrs 0.16 (Cardinal) computes them', () => {
  it('interpolates between the order statistics around h = (n + 1/3)·τ + 1/3', () => {
    const oneToTen = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // n = 10, τ = 1/4: h = 31/12 + 1/3 = 35/12, so x₂ + 11/12·(x₃ − x₂) = 35/12 (type 7 would give 3.25).
    expect(quantile(oneToTen, 0.25)).toBeCloseTo(35 / 12, 12);
    // τ = 3/4: h = 31/4 + 1/3 = 97/12, so x₈ + 1/12·(x₉ − x₈) = 97/12 (type 7: 7.75).
    expect(quantile(oneToTen, 0.75)).toBeCloseTo(97 / 12, 12);
    // The median is the middle of x₅ and x₆: h = 31/6 + 1/3 = 5.5.
    expect(quantile(oneToTen, 0.5)).toBeCloseTo(5.5, 12);
    // n = 4: h = 13/12 + 1/3 = 17/12 → 1 + 5/12; h = 13/4 + 1/3 = 43/12 → 3 + 7/12.
    expect(quantile([1, 2, 3, 4], 0.25)).toBeCloseTo(17 / 12, 12);
    expect(quantile([1, 2, 3, 4], 0.75)).toBeCloseTo(43 / 12, 12);
  });

  it('clamps to the minimum and the maximum, and has no quantile of nothing', () => {
    // n = 2, τ = 1/4: h = 7/12 + 1/3 = 11/12 < 1 → the minimum; τ = 3/4: h = 25/12 ≥ 2 → the maximum.
    expect(quantile([3, 7], 0.25)).toBe(3);
    expect(quantile([3, 7], 0.75)).toBe(7);
    expect(quantile([5], 0.25)).toBe(5);
    expect(quantile([1, 2, 3], 0)).toBe(1);
    expect(quantile([1, 2, 3], 1)).toBe(3);
    expect(quantile([], 0.5)).toBeNaN();
    expect(quantile([1, 2], 1.5)).toBeNaN();
    expect(fences([])).toBeNull();
  });

  it("gives the fences of Cardinal's own R048 test: varieties 2, 1, 1, 1, 1", () => {
    // cardinal-rs tests/fixtures/indicators/R048-minimum_contracting_processes-1: the supplier of 2 is flagged.
    // h = 16/12 + 1/3 = 5/3 → x₁ + 2/3·0 = 1; h = 4 + 1/3 → x₄ + 1/3·(x₅ − x₄) = 4/3; fence 4/3 + 1.5·1/3 = 11/6.
    const f = fences([2, 1, 1, 1, 1]);
    expect(f?.n).toBe(5);
    expect(f?.q1).toBeCloseTo(1, 12);
    expect(f?.q3).toBeCloseTo(4 / 3, 12);
    expect(f?.upper_fence).toBeCloseTo(11 / 6, 12);
    expect(f?.lower_fence).toBeCloseTo(1 - 0.5, 12);
    expect(2 >= (f?.upper_fence ?? Number.NaN)).toBe(true);
  });
});

describe('the corpus statistics, once per procurement version', () => {
  /** A store whose procurement version the test moves, counting the corpus queries it answers. */
  function countingStore() {
    const calls = { varieties: 0, bids: 0 };
    const state = { version: 1, fail: false, keepFails: false };
    // What the database keeps across processes, by key and version.
    const kept = new Map<string, unknown>();
    const store: CorpusStore = {
      procurementVersion: async () => state.version,
      keptCorpusStatistic: async (key, version) => kept.get(`${key}@${version}`),
      keepCorpusStatistic: async (key, version, value) => {
        if (state.keepFails) throw new Error('the database is locked');
        kept.set(`${key}@${version}`, value);
      },
      supplierVarieties: async () => {
        calls.varieties++;
        if (state.fail) throw new Error('the database is away');
        // Four suppliers of 20 processes in one division, one in two; one of 3 processes, kept out of the fence.
        return [
          ...['a', 'b', 'c', 'd'].map((nif) => ({ nif, processes: 20, cpv_prefixes: 1 })),
          { nif: 'e', processes: 25, cpv_prefixes: state.version === 1 ? 2 : 9 },
          { nif: 'f', processes: 3, cpv_prefixes: 30 },
        ];
      },
      noticePeriods: async () => [],
      procurementSources: async () => [],
      tendererBids: async () => {
        calls.bids++;
        return [
          { nif: 'a', bids: 4, wins: 2 },
          { nif: 'b', bids: 8, wins: 1 },
        ];
      },
    };
    return { store, calls, state };
  }

  it('computes a statistic on first use, reuses it across requests until the procurement version moves', async () => {
    const { store, calls, state } = countingStore();
    const first = await integrityCorpus(store).supplierVariety('base', 2, 20);
    expect(first.fences?.upper_fence).toBeCloseTo(11 / 6, 12);
    expect(first.fences?.n).toBe(5);
    expect(first.bySupplier.get('f')).toEqual({ processes: 3, cpvPrefixes: 30 });
    // Two more requests, two at once: the same computation.
    const [again, meanwhile] = await Promise.all([
      integrityCorpus(store).supplierVariety('base', 2, 20),
      integrityCorpus(store).supplierVariety('base', 2, 20),
    ]);
    expect(again).toBe(first);
    expect(meanwhile).toBe(first);
    expect(calls.varieties).toBe(1);
    // Nothing asked, nothing computed: the other statistic waits for a check that needs it.
    expect(calls.bids).toBe(0);
    // Another source or other parameters are other statistics.
    await integrityCorpus(store).supplierVariety('demo', 2, 20);
    await integrityCorpus(store).supplierVariety('base', 3, 20);
    expect(calls.varieties).toBe(3);
    state.version = 2;
    const moved = await integrityCorpus(store).supplierVariety('base', 2, 20);
    expect(calls.varieties).toBe(4);
    expect(moved.bySupplier.get('e')?.cpvPrefixes).toBe(9);
  });

  it('shares what one store computed with another store of the same database, as serve and its pipeline', async () => {
    const pipeline = countingStore();
    const served = countingStore();
    const alone = countingStore();
    shareCorpus(pipeline.store, served.store);
    const computed = await integrityCorpus(pipeline.store).supplierVariety('base', 2, 20);
    expect(await integrityCorpus(served.store).supplierVariety('base', 2, 20)).toBe(computed);
    expect(served.calls.varieties).toBe(0);
    // A store not shared with computes its own.
    expect(await integrityCorpus(alone.store).supplierVariety('base', 2, 20)).not.toBe(computed);
    expect(alone.calls.varieties).toBe(1);
    // Once the records move, whichever store sees it first computes the statistic again, for both.
    served.state.version = 2;
    const moved = await integrityCorpus(served.store).supplierVariety('base', 2, 20);
    expect(served.calls.varieties).toBe(1);
    pipeline.state.version = 2;
    expect(await integrityCorpus(pipeline.store).supplierVariety('base', 2, 20)).toBe(moved);
    expect(pipeline.calls.varieties).toBe(1);
  });

  it('gives the unsuccessful shares and the percentile of bids, and retries a failed computation', async () => {
    const { store, calls, state } = countingStore();
    const bids = await integrityCorpus(store).tendererBids('base', 75);
    // Shares 0.5 and 0.875; bids 4 and 8, n = 2: h = 7/4 + 1/3 = 25/12 ≥ 2 → the maximum, 8.
    expect(bids.topBids).toBe(8);
    expect(bids.fences).toMatchObject({ n: 2, q1: 0.5, q3: 0.875 });
    state.fail = true;
    await expect(integrityCorpus(store).supplierVariety('base', 2, 20)).rejects.toThrow(/away/);
    state.fail = false;
    expect((await integrityCorpus(store).supplierVariety('base', 2, 20)).fences?.n).toBe(5);
    expect(calls.varieties).toBe(2);
  });

  it('answers when the rows cannot be kept for the next process, which then groups them again', async () => {
    const { store, calls, state } = countingStore();
    state.keepFails = true;
    expect((await integrityCorpus(store).supplierVariety('base', 2, 20)).fences?.n).toBe(5);
    state.keepFails = false;
    // A process started afresh over the same database (another holder, the same kept rows): nothing was kept.
    const restarted: CorpusStore = { ...store };
    expect((await integrityCorpus(restarted).supplierVariety('base', 2, 20)).fences?.n).toBe(5);
    expect(calls.varieties).toBe(2);
    // It kept them: a third process reads them back.
    await integrityCorpus({ ...store }).supplierVariety('base', 2, 20);
    expect(calls.varieties).toBe(2);
  });
});
