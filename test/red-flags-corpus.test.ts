/**
 * The corpus checks of procurement_red_flags (docs/integrity.md, "Against the whole corpus"): R048 heterogeneous
 * supplier and R025 excessive unsuccessful bids, judged against the fences of every supplier or tenderer of the
 * contract's source. Hand-made corpora whose quartiles are worked out below from the type-8 formula; each type
 * flagged, not flagged and not assessable on REST, once through all three channels, and the store's corpus queries
 * followed as the data changes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnyOperation } from '../src/core/operation.js';
import { integrityCorpus } from '../src/integrity/corpus.js';
import type { ContractInput, Party } from '../src/store/procurement-records.js';
import type { Store } from '../src/store/store.js';
import { fixtureSignals } from './helpers/alert-fixture.js';
import { openStoreAt } from './helpers/backend.js';
import { BUYERS, contractInput, IMPORTED_AT, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { answerData, type CallAnswer, CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

const buyer = BUYERS[0];
const party = (name: string, i: number): Party => ({ nif: withCheckDigit(String(51700000 + i * 917)), name });
/** R048's suppliers: H1–H4 in one CPV division, H5 in two; FEW with 3 processes; LOTS with 25 contracts in 5. */
const [H1, H2, H3, H4, H5, FEW, LOTS] = ['H1', 'H2', 'H3', 'H4', 'H5', 'FEW', 'LOTS'].map(party);
/** R025's tenderers: L bids often and loses; T1–T6 win about half. */
const [L, T1, T2, T3, T4, T5, T6] = ['L', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((n, i) => party(n, 20 + i));
const UNIDENTIFIED: Party = { nif: '', name: 'Consórcio sem NIF' };

/** A direct award with the fields the other checks read; `changes` makes it what a case needs. */
function contract(sourceId: string, changes: Partial<ContractInput>): ContractInput {
  return contractInput(sourceId, {
    buyers: [{ nif: buyer.nif, name: `Município de ${buyer.name}` }],
    suppliers: [H1],
    base_price_eur: 100_000,
    price_eur: 90_000,
    effective_price_eur: 90_000,
    published_on: '2024-03-10',
    awarded_on: '2024-03-01',
    signed_on: '2024-03-05',
    closed_on: '2024-06-01',
    execution_days: 90,
    execution_places_text: `Portugal, ${buyer.district}, ${buyer.name}`,
    municipality_ids: [buyer.id],
    ...changes,
  });
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/**
 * R048. Twenty processes each for H1–H4 (CPV division 79) and H5 (ten in 79, ten in 45): the varieties of the
 * suppliers with 20 processes are 1, 1, 1, 1, 2 — Cardinal's own R048 fixture. Type 8, n = 5: Q1 at h = 5/3 is 1,
 * Q3 at h = 13/3 is 1 + 1/3·(2 − 1) = 4/3, the upper fence 4/3 + 1.5·1/3 = 11/6 ≈ 1.8333: H5 (2) is flagged.
 * None of these names a competitor, so R025 cannot judge them.
 */
const VARIETY: ContractInput[] = [
  ...[H1, H2, H3, H4].flatMap((s) => times(20, (i) => contract(`${s.name}-${i}`, { suppliers: [s] }))),
  ...times(20, (i) =>
    contract(`H5-${i}`, {
      suppliers: [H5],
      cpvs: i < 10 ? ['79341000'] : ['45233140'],
      // The shape of the real copy in data/real/: no competitors, base price, effective price or closing date.
      ...(i === 0 ? { base_price_eur: null, effective_price_eur: null, closed_on: null } : {}),
    }),
  ),
  // Not H1's alone (a consortium), not classified: neither counts among H1's 20 processes.
  contract('H1-with-H2', { suppliers: [H1, H2], cpvs: ['45233140'] }),
  contract('H1-no-cpv', { suppliers: [H1], cpvs: [] }),
  contract('no-supplier-nif', { suppliers: [UNIDENTIFIED] }),
  ...times(3, (i) => contract(`FEW-${i}`, { suppliers: [FEW], cpvs: [['79341000', '45233140', '30192000'][i]] })),
  // 25 contracts of five procedures: 5 contracting processes, fewer than 20.
  ...times(25, (i) => contract(`LOTS-${i}`, { suppliers: [LOTS], procedure_id: `P${i % 5}` })),
];

/**
 * R025. Nineteen procedures, each won by its first competitor (the supplier) against the others:
 *
 *   tenderer  bids  won  lost  unsuccessful share
 *   L           10    1     9  0.9
 *   T1–T3, T6    6    3     3  0.5
 *   T4           6    4     2  0.3333
 *   T5           6    2     4  0.6667
 *
 * Type 8, n = 7, shares sorted 1/3, ½, ½, ½, ½, 2/3, 0.9: Q1 at h = 13/6 is ½; Q3 at h = 35/6 is
 * ½ + 5/6·(2/3 − ½) = 23/36 ≈ 0.6389; the upper fence 23/36 + 1.5·5/36 = 61/72 ≈ 0.8472 (under 1: Cardinal judges).
 * Bids sorted 6 ×6, 10: the 75th percentile (h = 35/6) is 6. L (10 bids, 0.9) is flagged; T5 (0.6667) is not.
 */
const BIDS: [winner: Party, losers: Party[]][] = [
  [L, [T5]],
  [T1, [L]],
  [T1, [L, T5]],
  [T1, [T2]],
  [T2, [L]],
  [T2, [L, T3]],
  [T2, [T1]],
  [T3, [L]],
  [T3, [L, T6]],
  [T3, [T1]],
  [T4, [L]],
  [T4, [L, T5]],
  [T4, [T6]],
  [T4, [T1, T2]],
  [T5, [L, T6]],
  [T5, [T2, T3]],
  [T6, [T3, T4]],
  [T6, [T4, T5]],
  [T6, []],
];
const BID_CONTRACTS = BIDS.map(([winner, losers], i) =>
  contract(`bid-${i + 1}`, { suppliers: [winner], competitors: [winner, ...losers], cpvs: ['50000000'] }),
);

/**
 * The demo source is a corpus of its own. Its tenderers: T1 won 3 of 3, T2 and T3 lost 1 of 1 — shares 0, 1, 1:
 * Q1 at h = 7/6 is 1/6, Q3 at h = 17/6 is 1, the fence 2.25 ≥ 1: most tenderers never win, Cardinal does not judge.
 */
const DEMO: ContractInput[] = [
  contract('demo-1', { source: 'demo', suppliers: [T1], competitors: [T1, T2], cpvs: ['45233140'] }),
  contract('demo-2', { source: 'demo', suppliers: [T1], competitors: [T1, T3] }),
  contract('demo-3', { source: 'demo', suppliers: [T1], competitors: [T1, UNIDENTIFIED] }),
  contract('demo-4', { source: 'demo', suppliers: [T1, T2], competitors: [T1, T2, T3] }),
  // R048 at the demo source: H1 alone reaches 20 processes there, so the fences are its own variety.
  ...times(20, (i) => contract(`demo-H1-${i}`, { source: 'demo', suppliers: [H1] })),
];

let store: Store;
let dbPath: string;
let t: TestApp;
let key: string;
const idOf = new Map<string, number>();

async function flagsOf(sourceId: string) {
  const res = await t.get(`/v1/procurement/contracts/${idOf.get(sourceId)}/red-flags`, { key });
  expect(res.status, sourceId).toBe(200);
  const of = (type: string) => res.json.assessments.find((a: any) => a.type === type);
  return { body: res.json, r048: of('heterogeneous_supplier'), r025: of('excessive_unsuccessful_bids') };
}

beforeAll(async () => {
  const fresh = await freshStore();
  store = fresh.store;
  dbPath = fresh.dbPath;
  const parties = [H1, H2, H3, H4, H5, FEW, LOTS, L, T1, T2, T3, T4, T5, T6];
  const entities = [
    { nif: buyer.nif, name: `Município de ${buyer.name}`, kind: 'municipality' as const, country: 'PT' },
    ...parties.map((p) => ({ nif: p.nif, name: p.name, kind: 'company' as const, country: 'PT' })),
  ].map((e) => ({ ...e, municipality_id: e.kind === 'municipality' ? buyer.id : null }));
  const contracts = [...VARIETY, ...BID_CONTRACTS, ...DEMO];
  await store.writeProcurement({ entities, contracts, announcements: [], amendments: [] });
  for (const source of ['base', 'demo'])
    for (const row of await store.listContracts({ source }, { limit: 500 })) idOf.set(row.source_id, row.id);
  expect(idOf.size).toBe(contracts.length);
  t = await startTestApp({ store, dbPath: fresh.dbPath });
  key = (await t.keyOnPlan('red_flags_corpus', { domains: ['procurement'] })).key;
}, 120_000);
afterAll(() => t?.close());

describe('R048 heterogeneous supplier, against the suppliers of the same source', () => {
  it('flags a supplier whose CPV divisions reach the upper fence, with the corpus it was judged against', async () => {
    const { r048 } = await flagsOf('H5-3');
    expect(r048).toMatchObject({
      code: 'R048',
      version: 1,
      state: 'flagged',
      values: { supplier_nif: H5.nif, contracting_processes: 20, cpv_divisions: 2 },
      thresholds: { cpv_digits: 2, minimum_contracting_processes: 20 },
      corpus: { q1: 1, q3: 1.3333, upper_fence: 1.8333, suppliers: 5, supplier_cpv_divisions: 2 },
      legal_basis: null,
      cites: [idOf.get('H5-3')],
    });
    expect(r048.reason).toContain('2 CPV divisions over its 20 contracting processes at source base');
    expect(r048.reason).toContain(`/v1/procurement/contracts?supplier=${H5.nif}`);
  });

  it('does not flag a supplier of one division, and counts only its own classified contracts', async () => {
    const { r048 } = await flagsOf('H1-7');
    expect(r048).toMatchObject({
      state: 'not_flagged',
      values: { supplier_nif: H1.nif, contracting_processes: 20, cpv_divisions: 1 },
      corpus: { upper_fence: 1.8333, suppliers: 5 },
    });
    expect(r048.reason).toMatch(/^Under the fence: 1 CPV division over its 20 contracting processes/);
  });

  it('cannot judge a consortium, a supplier without a tax number, or one of too few processes', async () => {
    const cases: [string, RegExp, Record<string, unknown>][] = [
      ['H1-with-H2', /names 2 suppliers/, { supplier_nif: null }],
      ['no-supplier-nif', /no tax number for the supplier/, { supplier_nif: null }],
      ['FEW-0', /3 contracting processes .* fewer than the 20/, { contracting_processes: 3, cpv_divisions: 3 }],
      // 25 contracts, but of 5 procedures: Cardinal counts a supplier once per contracting process.
      ['LOTS-0', /5 contracting processes/, { supplier_nif: LOTS.nif, contracting_processes: 5 }],
      // At the demo source T1 has 3 processes: the base corpus does not count there.
      ['demo-1', /3 contracting processes with a CPV code at source demo/, { supplier_nif: T1.nif }],
    ];
    for (const [sourceId, reason, values] of cases) {
      const { r048 } = await flagsOf(sourceId);
      expect(r048.state, sourceId).toBe('not_assessable');
      expect(r048.reason, sourceId).toMatch(reason);
      expect(r048.values, sourceId).toMatchObject(values);
      expect(r048.corpus, sourceId).toBeNull();
    }
  });

  it('says so when the fences are one supplier’s own variety, in the singular', async () => {
    const { r048 } = await flagsOf('demo-H1-0');
    expect(r048).toMatchObject({ state: 'flagged', corpus: { suppliers: 1, upper_fence: 1 } });
    expect(r048.reason).toContain('the upper fence over the one supplier there with at least 20 processes is 1');
    expect(r048.reason_pt).toContain('a barreira superior do único adjudicatário dessa fonte');
  });
});

describe('R025 excessive unsuccessful bids, against the tenderers of the same source', () => {
  it('flags a contract that a top tenderer with an outlying share of lost bids lost', async () => {
    const { r025 } = await flagsOf('bid-2');
    expect(r025).toMatchObject({
      code: 'R025',
      version: 1,
      state: 'flagged',
      values: { tenderer_nif: L.nif, bids: 10, unsuccessful_bids: 9, unsuccessful_share: 0.9 },
      thresholds: { top_tenderer_percentile: 75 },
      corpus: {
        q1: 0.5,
        q3: 0.6389,
        upper_fence: 0.8472,
        top_tenderer_bids: 6,
        tenderers: 7,
        tenderer_unsuccessful_share: 0.9,
      },
      cites: [idOf.get('bid-2')],
    });
    expect(r025.reason).toContain(`NIF ${L.nif} lost 9 of its 10 bids (90 %)`);
  });

  it('does not flag where the losers are under the fence, or where no one lost', async () => {
    // L won bid-1: its loser, T5, lost 4 of 6 — under the fence.
    const won = (await flagsOf('bid-1')).r025;
    expect(won).toMatchObject({
      state: 'not_flagged',
      values: { tenderer_nif: T5.nif, bids: 6, unsuccessful_bids: 4, unsuccessful_share: 0.6667 },
      corpus: { upper_fence: 0.8472, tenderers: 7 },
    });
    // Two losers under the fence: the higher share is reported.
    expect((await flagsOf('bid-18')).r025.values).toMatchObject({ tenderer_nif: T5.nif });
    const alone = (await flagsOf('bid-19')).r025;
    expect(alone).toMatchObject({ state: 'not_flagged', corpus: null });
    expect(alone.reason).toMatch(/No competitor lost/);
  });

  it('cannot judge without competitors or tax numbers, with several suppliers, or no room for an outlier', async () => {
    const cases: [string, RegExp][] = [
      // The real copy's shape, and every contract of the R048 corpus: no competitor named.
      ['H5-0', /names no competitor/],
      ['demo-3', /lost have no tax number/],
      ['demo-4', /names 2 suppliers/],
      ['demo-1', /no room for an outlier/],
    ];
    for (const [sourceId, reason] of cases) {
      const { r025 } = await flagsOf(sourceId);
      expect(r025.state, sourceId).toBe('not_assessable');
      expect(r025.reason, sourceId).toMatch(reason);
    }
    // Judged against the demo corpus: shares 0, 1, 1 give a fence of 2.25.
    expect((await flagsOf('demo-1')).r025.corpus).toMatchObject({ q1: 0.1667, q3: 1, upper_fence: 2.25, tenderers: 3 });
  });
});

describe('procurement_red_flags with the corpus checks', () => {
  it('answers every type for the real copy’s shape: R048 flagged, what it lacks not assessable', async () => {
    const { body, r048, r025 } = await flagsOf('H5-0');
    expect(r048.state).toBe('flagged');
    expect(r025.state).toBe('not_assessable');
    expect(body.assessments.map((a: any) => a.type)).toEqual(
      expect.arrayContaining(['heterogeneous_supplier', 'excessive_unsuccessful_bids', 'single_bid']),
    );
    expect(body.counts.flagged + body.counts.not_flagged + body.counts.not_assessable).toBe(body.assessments.length);
  });

  it('answers the same on REST, A2A and MCP', async () => {
    const op = t.app.registry.get('procurement_red_flags') as AnyOperation;
    const bodies = [];
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op, { id: idOf.get('bid-2') as number }, key);
      expect(answer?.kind, channel).toBeUndefined();
      bodies.push(answerData(answer as CallAnswer));
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
    // Of the two corpus types, only R025 judged this contract against the corpus (the buyer-comparing types, which
    // give their counts too, are judged in red-flags-buyer.test.ts).
    const corpusTypes = bodies[0].assessments
      .filter(
        (a: any) => a.corpus !== null && ['excessive_unsuccessful_bids', 'heterogeneous_supplier'].includes(a.type),
      )
      .map((a: any) => a.type);
    expect(corpusTypes).toEqual(['excessive_unsuccessful_bids']);
  });

  it('follows the procurement records: a new contract moves them, and the corpus is computed again', async () => {
    const before = await integrityCorpus(store).supplierVariety('base', 2, 20);
    expect(await integrityCorpus(store).supplierVariety('base', 2, 20)).toBe(before);
    // A signal written moves the data version (served lists change) but not the contracts: the corpus is kept.
    const [signal] = fixtureSignals(new Date(IMPORTED_AT));
    const dataVersion = await store.dataVersion();
    const procurementVersion = await store.procurementVersion();
    await store.writeSignals({ signals: [signal], now: IMPORTED_AT });
    expect(await store.dataVersion()).toBeGreaterThan(dataVersion);
    expect(await store.procurementVersion()).toBe(procurementVersion);
    expect(await integrityCorpus(store).supplierVariety('base', 2, 20)).toBe(before);
    // H1 now also supplies division 45: varieties 2, 1, 1, 1, 2 — Q1 1, Q3 at h = 13/3 is 2, the fence 3.5.
    const extra = contract('H1-45', { suppliers: [H1], cpvs: ['45233140'] });
    await store.writeProcurement({ entities: [], contracts: [extra], announcements: [], amendments: [] });
    expect(await store.procurementVersion()).toBeGreaterThan(procurementVersion);
    const after = await integrityCorpus(store).supplierVariety('base', 2, 20);
    expect(after).not.toBe(before);
    expect(after.bySupplier.get(H1.nif)).toEqual({ processes: 21, cpvPrefixes: 2 });
    expect(after.fences).toMatchObject({ n: 5, q1: 1, q3: 2, upper_fence: 3.5 });
  });

  it('is kept in the database for its version: a process started afresh reads it back, no GROUP BY', async () => {
    const computed = await integrityCorpus(store).supplierVariety('base', 2, 20);
    // Another store over the same database is what a restarted process or another instance has.
    const restarted = openStoreAt(dbPath);
    try {
      const grouped = vi.spyOn(restarted, 'supplierVarieties');
      const read = await integrityCorpus(restarted).supplierVariety('base', 2, 20);
      expect(grouped).not.toHaveBeenCalled();
      expect(read).not.toBe(computed);
      expect(read.fences).toEqual(computed.fences);
      expect([...read.bySupplier]).toEqual([...computed.bySupplier]);
      // What is kept holds for its version only: a contract written moves it, and the next request groups again.
      await store.writeProcurement({
        entities: [],
        contracts: [contract('FEW-45', { suppliers: [FEW], cpvs: ['45233140'] })],
        announcements: [],
        amendments: [],
      });
      const moved = await integrityCorpus(restarted).supplierVariety('base', 2, 20);
      expect(grouped).toHaveBeenCalledTimes(1);
      const processes = computed.bySupplier.get(FEW.nif)?.processes ?? 0;
      expect(moved.bySupplier.get(FEW.nif)?.processes).toBe(processes + 1);
      // and the first store, which held the older version, reads what the restarted one grouped.
      const first = vi.spyOn(store, 'supplierVarieties');
      expect((await integrityCorpus(store).supplierVariety('base', 2, 20)).bySupplier).toEqual(moved.bySupplier);
      expect(first).not.toHaveBeenCalled();
      first.mockRestore();
    } finally {
      await restarted.close();
    }
  });
});
