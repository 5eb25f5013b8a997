/**
 * The SQLite procurement store: batch writes (idempotent, all-or-nothing, fast), derived figures (entity totals,
 * contract rollups, previous prices of amendments), and every index path of the contract list — each checked
 * against a brute-force answer computed here from the fixture, and by its query plan (no sort of the whole list).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amendmentQuery } from '../src/store/procurement/amendment-list.js';
import { announcementQuery } from '../src/store/procurement/announcement-read.js';
import { contractQuery } from '../src/store/procurement/contract-list.js';
import { entityListSql } from '../src/store/procurement/entity-read.js';
import { keysetSql } from '../src/store/procurement/keyset.js';
import type {
  AggregateKey,
  AggregateQuery,
  AggregateResult,
  AmendmentFilter,
  AnnouncementFilter,
  ContractFilter,
  EntityFilter,
} from '../src/store/procurement-queries.js';
import type { ContractInput, ContractRecord } from '../src/store/procurement-records.js';
import { SqlitePort } from '../src/store/sqlite/connection.js';
import { SQLITE_TEXT_SEARCH } from '../src/store/sqlite/procurement/text-search.js';
import type { Store } from '../src/store/store.js';
import { onPostgres } from './helpers/backend.js';
import {
  BUYERS,
  buildFixture,
  type Fixture,
  IMPORTED_AT,
  PERSON,
  SUPPLIERS,
  withCheckDigit,
} from './helpers/procurement-fixture.js';
import { fold, freshStore, newestFirst } from './helpers/procurement-store.js';

const TODAY = '2025-07-01';

describe('writing a procurement batch', () => {
  let store: Store;
  let fixture: Fixture;
  beforeAll(async () => {
    ({ store } = await freshStore());
    fixture = buildFixture({ contracts: 300, today: TODAY });
  });
  afterAll(() => store.close());

  it('loads the CPV vocabulary at migration, once', async () => {
    expect(await store.countCpvs()).toBe(9454);
    const version = await store.dataVersion();
    await store.migrate();
    expect(await store.countCpvs()).toBe(9454);
    expect(await store.dataVersion()).toBe(version);
  });

  it('inserts everything the first time, and finds every record unchanged the second time', async () => {
    const before = await store.dataVersion();
    const first = await store.writeProcurement(fixture);
    expect(first.contracts).toEqual({ inserted: 300, updated: 0, unchanged: 0 });
    expect(first.announcements).toEqual({ inserted: 60, updated: 0, unchanged: 0 });
    expect(first.amendments).toEqual({ inserted: fixture.amendments.length, updated: 0, unchanged: 0 });
    // The 8 listed entities, plus every supplier and the person met as parties (the party without a NIF is none).
    expect(first.entities).toEqual({ inserted: 8 + SUPPLIERS.length + 1, updated: 0, unchanged: 0 });
    expect(first.orphan_amendments).toEqual([]);
    const afterFirst = await store.dataVersion();
    expect(afterFirst).toBeGreaterThan(before);

    const second = await store.writeProcurement(fixture);
    expect(second.contracts).toEqual({ inserted: 0, updated: 0, unchanged: 300 });
    expect(second.announcements).toEqual({ inserted: 0, updated: 0, unchanged: 60 });
    expect(second.amendments).toEqual({ inserted: 0, updated: 0, unchanged: fixture.amendments.length });
    expect(second.entities).toEqual({ inserted: 0, updated: 0, unchanged: 8 });
    expect(await store.dataVersion()).toBe(afterFirst);
  });

  it('gives contracts ids in the order they were first written, and keeps them on update', async () => {
    const [first] = await store
      .listContracts({ supplier: fixture.contracts[0].suppliers[0].nif }, { limit: 1000 })
      .then((rows) => rows.filter((r) => r.source_id === fixture.contracts[0].source_id));
    expect(first.id).toBe(1);
    const changed = { ...fixture.contracts[0], price_eur: 999_999.99, suppliers: [SUPPLIERS[3]] };
    const summary = await store.writeProcurement({ contracts: [changed] });
    expect(summary.contracts).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const detail = await store.getContract(1);
    expect(detail?.price_eur).toBe(999_999.99);
    expect(detail?.suppliers).toEqual([{ ...SUPPLIERS[3], withheld: false }]);
    expect(detail?.imported_at).toBe(IMPORTED_AT);
    // Written back as it was: the same id, the old figures again.
    expect((await store.writeProcurement({ contracts: [fixture.contracts[0]] })).contracts.updated).toBe(1);
    // A party without a tax number ('' in the input) reads back with nif null.
    expect((await store.getContract(1))?.suppliers).toEqual(
      fixture.contracts[0].suppliers.map((p) => ({ ...p, nif: p.nif || null, withheld: false })),
    );
  });

  it('writes a batch with a bad row not at all', async () => {
    const version = await store.dataVersion();
    const newSupplier = { nif: withCheckDigit('51999999'), name: 'Fornecedor Novo, Lda.' };
    const good: ContractInput = { ...fixture.contracts[1], source_id: 'new-1', suppliers: [newSupplier] };
    const bad: ContractInput = { ...fixture.contracts[2], source_id: 'new-2', municipality_ids: [9999] };
    await expect(store.writeProcurement({ contracts: [good, bad] })).rejects.toThrow(/foreign key/i);
    expect(await store.dataVersion()).toBe(version);
    expect(await store.getEntity(newSupplier.nif)).toBeUndefined();
    const all = await store.listContracts({}, { limit: 1000 });
    expect(all).toHaveLength(300);
    expect(all.some((c) => c.source_id === 'new-1')).toBe(false);
  });

  it('reports amendments of unknown contracts, and writes none of them', async () => {
    const orphan = { ...fixture.amendments[0], source_id: 'orphan-1', contract_source_id: 'no-such-contract' };
    const summary = await store.writeProcurement({ amendments: [orphan] });
    expect(summary.orphan_amendments).toEqual(['orphan-1']);
    expect(summary.amendments).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
  });

  const derivedPreviousPrice =
    'derives a missing previous price from the amendment before it, or the contract price — also when it arrives late';
  it(derivedPreviousPrice, async () => {
    const contract: ContractInput = { ...fixture.contracts[5], source_id: 'amended', price_eur: 100 };
    const amendment = (id: string, date: string, next: number) => ({
      source: 'fixture',
      source_id: id,
      imported_at: IMPORTED_AT,
      contract_source_id: 'amended',
      date,
      previous_price_eur: null,
      new_price_eur: next,
      reason: null,
      link: null,
    });
    await store.writeProcurement({
      contracts: [contract],
      amendments: [amendment('A', '2025-02-01', 110), amendment('B', '2025-03-01', 125)],
    });
    const [stored] = (await store.listContracts({ supplier: contract.suppliers[0].nif }, { limit: 1000 })).filter(
      (c) => c.source_id === 'amended',
    );
    const prices = async () =>
      (await store.getContract(stored.id))?.amendments.map((a) => [
        a.source_id,
        a.previous_price_eur,
        a.new_price_eur,
        a.change_eur,
      ]);
    expect(await prices()).toEqual([
      ['A', 100, 110, 10],
      ['B', 110, 125, 15],
    ]);
    await store.writeProcurement({ amendments: [amendment('C', '2025-01-15', 105)] });
    expect(await prices()).toEqual([
      ['C', 100, 105, 5],
      ['A', 105, 110, 5],
      ['B', 110, 125, 15],
    ]);
  });
});

describe('entity totals', () => {
  let store: Store;
  let fixture: Fixture;
  beforeAll(async () => {
    ({ store } = await freshStore());
    fixture = buildFixture({ contracts: 300, today: TODAY });
    await store.writeProcurement(fixture);
  });
  afterAll(() => store.close());

  /** Count and euros of the fixture's contracts where the tax number appears in the role (once per contract). */
  function expected(nif: string, role: 'buyers' | 'suppliers') {
    const contracts = fixture.contracts.filter((c) => c[role].some((p) => p.nif === nif));
    return {
      count: contracts.length,
      eur: Math.round(contracts.reduce((s, c) => s + (c.price_eur ?? 0), 0) * 100) / 100,
    };
  }

  it('are zero until refreshProcurementRollups, then exact; a refresh with nothing new changes nothing', async () => {
    const lisboa = BUYERS[0];
    expect((await store.getEntity(lisboa.nif))?.contracts_as_buyer).toBe(0);
    await store.refreshProcurementRollups();
    const version = await store.dataVersion();
    const entity = await store.getEntity(lisboa.nif);
    expect(entity).toMatchObject({
      kind: 'municipality',
      municipality: lisboa.code,
      country: 'PT',
      contracts_as_supplier: 0,
    });
    expect(entity?.contracts_as_buyer).toBe(expected(lisboa.nif, 'buyers').count);
    expect(entity?.total_as_buyer_eur).toBeCloseTo(expected(lisboa.nif, 'buyers').eur, 2);
    for (const supplier of [...SUPPLIERS, PERSON]) {
      const e = await store.getEntity(supplier.nif);
      expect(e?.contracts_as_supplier, supplier.name).toBe(expected(supplier.nif, 'suppliers').count);
      expect(e?.total_as_supplier_eur, supplier.name).toBeCloseTo(expected(supplier.nif, 'suppliers').eur, 2);
    }
    expect((await store.getEntity(PERSON.nif))?.kind).toBe('person');
    await store.refreshProcurementRollups();
    expect(await store.dataVersion()).toBe(version);
  });

  it('follow a contract that moves from one supplier to another', async () => {
    const [from, to] = [SUPPLIERS[0], SUPPLIERS[1]];
    const before = [
      (await store.getEntity(from.nif))?.contracts_as_supplier ?? 0,
      (await store.getEntity(to.nif))?.contracts_as_supplier ?? 0,
    ];
    const moved = fixture.contracts.find(
      (c) => c.suppliers.length === 1 && c.suppliers[0].nif === from.nif,
    ) as ContractInput;
    await store.writeProcurement({ contracts: [{ ...moved, suppliers: [to] }] });
    await store.refreshProcurementRollups();
    expect((await store.getEntity(from.nif))?.contracts_as_supplier).toBe(before[0] - 1);
    expect((await store.getEntity(to.nif))?.contracts_as_supplier).toBe(before[1] + 1);
  });
});

describe('contract rollups', () => {
  it('stay exact through updates: the aggregate from rollups equals the count from the contracts', async () => {
    const { store } = await freshStore();
    try {
      const fixture = buildFixture({ contracts: 300, today: TODAY });
      await store.writeProcurement(fixture);
      // Rewrite a tenth of the contracts with another date, price, place and procedure; one of them twice.
      const contracts = fixture.contracts.map((c, i) =>
        i % 10 === 3
          ? {
              ...c,
              published_on: '2024-11-20',
              price_eur: (c.price_eur ?? 0) + 1000,
              municipality_ids: [BUYERS[7].id],
              procedure_type: 'Concurso público',
            }
          : c,
      );
      await store.writeProcurement({ contracts });
      contracts[3] = { ...contracts[3], municipality_ids: [], published_on: null };
      await store.writeProcurement({ contracts: [contracts[3]] });

      const perMonth = (list: ContractInput[]) => {
        const groups = new Map<string, { count: number; total: number }>();
        for (const c of list) {
          const month = c.published_on?.slice(0, 7) ?? null;
          if (month === null) continue;
          const held = groups.get(month) ?? { count: 0, total: 0 };
          groups.set(month, {
            count: held.count + 1,
            total: Math.round((held.total + (c.price_eur ?? 0)) * 100) / 100,
          });
        }
        return [...groups.entries()].sort().map(([month, g]) => ({ month, ...g }));
      };
      for (const municipality of [BUYERS[7], BUYERS[3]]) {
        const answer = await store.aggregateContracts({
          executedIn: [municipality.id],
          from: '2023-01-01',
          groupBy: ['month'],
        });
        const expected = perMonth(contracts.filter((c) => c.municipality_ids.includes(municipality.id)));
        expect(answer.groups.map((g) => ({ month: g.key.month, count: g.count, total: g.total_eur }))).toEqual(
          expected,
        );
      }
      // Several municipalities: the contracts executed in two of them count once, also after one moved away.
      const pair = [BUYERS[6].id, BUYERS[7].id];
      const leaving = contracts.findIndex((c) => pair.every((id) => c.municipality_ids.includes(id)));
      contracts[leaving] = { ...contracts[leaving], municipality_ids: [BUYERS[6].id, BUYERS[2].id] };
      await store.writeProcurement({ contracts: [contracts[leaving]] });
      const inPair = contracts.filter((c) => c.municipality_ids.some((id) => pair.includes(id)));
      expect(inPair.filter((c) => pair.every((id) => c.municipality_ids.includes(id))).length).toBeGreaterThan(0);
      const answer = await store.aggregateContracts({ executedIn: pair, from: '2023-01-01', groupBy: ['month'] });
      expect(answer.groups.map((g) => ({ month: g.key.month, count: g.count, total: g.total_eur }))).toEqual(
        perMonth(inPair),
      );
      const totalsOnly = await store.aggregateContracts({ executedIn: pair, from: '2023-01-01', groupBy: [] });
      expect(totalsOnly).toEqual({ groups: [], totals: answer.totals });
      const byProcedure = await store.aggregateContracts({ groupBy: ['procedure_type'] });
      const concurso = contracts.filter((c) => c.procedure_type === 'Concurso público');
      expect(byProcedure.groups.find((g) => g.key.procedure_type === 'Concurso público')?.count).toBe(concurso.length);
      expect(byProcedure.totals.count).toBe(300);
    } finally {
      await store.close();
    }
  });
});

describe('contract rollups of several municipalities', () => {
  /** The answer counted here from the contracts: groups (key, count, cents) in key order, and the totals. */
  function counted(contracts: readonly ContractInput[], query: AggregateQuery) {
    const asked = query.executedIn ?? [];
    const inRange = (c: ContractInput) =>
      query.from === undefined && query.to === undefined
        ? true
        : c.published_on !== null && c.published_on >= (query.from ?? '0000') && c.published_on <= (query.to ?? '9999');
    const selected = contracts.filter((c) => c.municipality_ids.some((id) => asked.includes(id)) && inRange(c));
    const cents = (c: ContractInput) => Math.round((c.price_eur ?? 0) * 100);
    const keysOf = (c: ContractInput): AggregateKey[] => {
      let keys: AggregateKey[] = [{}];
      for (const d of query.groupBy) {
        const values: (string | number | null)[] =
          d === 'year'
            ? [c.published_on === null ? null : Number(c.published_on.slice(0, 4))]
            : d === 'month'
              ? [c.published_on?.slice(0, 7) ?? null]
              : d === 'cpv_division'
                ? [c.cpvs[0].slice(0, 2)]
                : d === 'procedure_type'
                  ? [c.procedure_type ?? null]
                  : // Grouped by municipality, a contract is in the group of each asked municipality it is executed in.
                    [...new Set(c.municipality_ids)].filter((id) => asked.includes(id)).map((id) => codeOf(id));
        keys = keys.flatMap((k) => values.map((v) => ({ ...k, [d]: v })));
      }
      return keys;
    };
    const groups = new Map<string, { key: AggregateKey; count: number; cents: number }>();
    if (query.groupBy.length > 0) {
      for (const c of selected) {
        for (const key of keysOf(c)) {
          const id = JSON.stringify(query.groupBy.map((d) => key[d]));
          const held = groups.get(id) ?? { key, count: 0, cents: 0 };
          groups.set(id, { key, count: held.count + 1, cents: held.cents + cents(c) });
        }
      }
    }
    return {
      groups: [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, g]) => g),
      totals: { count: selected.length, cents: selected.reduce((n, c) => n + cents(c), 0) },
    };
  }
  const codeOf = (id: number) => BUYERS.find((b) => b.id === id)?.code ?? null;
  const asCounted = (answer: AggregateResult, query: AggregateQuery) => ({
    groups: answer.groups
      .map((g) => ({ key: g.key, count: g.count, cents: Math.round(g.total_eur * 100) }))
      .sort((a, b) =>
        JSON.stringify(query.groupBy.map((d) => a.key[d])) < JSON.stringify(query.groupBy.map((d) => b.key[d]))
          ? -1
          : 1,
      ),
    totals: { count: answer.totals.count, cents: Math.round(answer.totals.total_eur * 100) },
  });

  const countedOnceThroughReimports =
    'count a contract executed in several asked municipalities once, ' +
    'through re-imports that move it or change its price';
  it(countedOnceThroughReimports, async () => {
    const { store } = await freshStore();
    try {
      const [a, b, c, d] = BUYERS.slice(0, 4).map((m) => m.id);
      // Contracts in three of the first four buyers' municipalities, in two, and (the fixture's own) in pairs.
      let contracts = buildFixture({ contracts: 300, today: TODAY }).contracts.map((x, i) =>
        i % 7 === 1 ? { ...x, municipality_ids: [a, b, c] } : i % 7 === 2 ? { ...x, municipality_ids: [b, d] } : x,
      );
      const questions: AggregateQuery[] = [];
      for (const executedIn of [
        [a, b],
        [a, b, c],
        [b, c, d],
        [a, b, c, d],
        [c, d],
      ]) {
        for (const groupBy of [
          ['month'],
          ['year', 'cpv_division', 'procedure_type'],
          ['municipality'],
          ['year', 'municipality'],
          [],
        ] as const) {
          for (const range of [{}, { from: '2023-01-01' }, { from: '2023-02-11', to: '2024-07-20' }]) {
            questions.push({ executedIn, groupBy, ...range });
          }
        }
      }
      const check = async (when: string) => {
        for (const query of questions) {
          expect(asCounted(await store.aggregateContracts(query), query), `${when}: ${JSON.stringify(query)}`).toEqual(
            counted(contracts, query),
          );
        }
      };
      await store.writeProcurement({ contracts });
      expect(contracts.filter((x) => [a, b, c].every((id) => x.municipality_ids.includes(id))).length).toBeGreaterThan(
        10,
      );
      await check('as first written');

      // Re-imported: a new price in the same set, another set (listed out of order), out of every set, into one.
      contracts = contracts.map((x, i) =>
        i % 7 === 1 && i % 2 === 1
          ? { ...x, price_eur: (x.price_eur ?? 0) + 1234.56 }
          : i % 7 === 1 && i % 3 === 0
            ? { ...x, municipality_ids: [c, a] }
            : i % 7 === 2 && i % 2 === 0
              ? { ...x, municipality_ids: [d] }
              : i % 7 === 3 && i % 2 === 0
                ? { ...x, municipality_ids: [d, a, c], published_on: '2024-11-20', price_eur: 99.995 }
                : x,
      );
      const summary = await store.writeProcurement({ contracts });
      expect(summary.contracts.updated).toBeGreaterThan(40);
      await check('after the re-import');

      // The same contracts again change nothing; one of them twice in a batch counts as its last version.
      contracts[8] = { ...contracts[8], municipality_ids: [a, b, c, d], price_eur: 10 };
      await store.writeProcurement({ contracts: [{ ...contracts[8], municipality_ids: [b, c] }, ...contracts] });
      await check('after another re-import');
    } finally {
      await store.close();
    }
  });
});

/** A buyer of a few contracts only (the fixture's buyers have a thousand and more each). */
const SMALL_BUYER = { nif: withCheckDigit('50999901'), name: 'Junta de Freguesia de Teste' };

describe('10 000 contracts in one batch, read through every index', () => {
  const COUNT = 10_000;
  let store: Store;
  let dbPath: string;
  let fixture: Fixture;
  /** Contract ids follow the fixture's order (checked in the first test). */
  const idOf = (c: ContractInput) => fixture.contracts.indexOf(c) + 1;

  beforeAll(async () => {
    ({ store, dbPath } = await freshStore());
    fixture = buildFixture({ contracts: COUNT, today: TODAY });
    // A buyer of three contracts with a supplier of a thousand: a list of the pair starts from the buyer's range.
    for (const i of [10, 2010, 7010])
      fixture.contracts[i] = { ...fixture.contracts[i], buyers: [SMALL_BUYER], suppliers: [SUPPLIERS[5]] };
    // How fast this is, is measured by bench/procurement.js, not here: a timed test fails on a busy machine.
    await store.writeProcurement({ contracts: fixture.contracts });
  });
  afterAll(() => store.close());

  /** Every page of the list, in order, as source ids. */
  async function walk(filter: ContractFilter, limit = 700): Promise<ContractRecord[]> {
    const rows: ContractRecord[] = [];
    let after: { date: string | null; id: number } | undefined;
    for (;;) {
      const page = await store.listContracts(filter, { after, limit });
      rows.push(...page);
      if (page.length < limit) return rows;
      const last = page[page.length - 1];
      after = { date: last.published_on, id: last.id };
    }
  }

  function brute(test: (c: ContractInput) => boolean): string[] {
    return fixture.contracts
      .filter(test)
      .sort(newestFirst((c) => c.published_on, idOf))
      .map((c) => c.source_id);
  }

  const text = (c: ContractInput) => fold(`${c.object} ${c.description ?? ''}`);
  const cases: [string, ContractFilter, (c: ContractInput) => boolean][] = [
    ['no filter', {}, () => true],
    ['one municipality', { municipalityIds: [BUYERS[2].id] }, (c) => c.municipality_ids.includes(BUYERS[2].id)],
    [
      'three municipalities',
      { municipalityIds: [BUYERS[0].id, BUYERS[3].id, BUYERS[5].id] },
      (c) => c.municipality_ids.some((m) => [BUYERS[0].id, BUYERS[3].id, BUYERS[5].id].includes(m)),
    ],
    ['buyer', { buyer: BUYERS[1].nif }, (c) => c.buyers.some((p) => p.nif === BUYERS[1].nif)],
    ['supplier', { supplier: SUPPLIERS[4].nif }, (c) => c.suppliers.some((p) => p.nif === SUPPLIERS[4].nif)],
    // A pair: from the party with fewer contracts (the supplier here, the small buyer below), the other looked up.
    [
      'buyer and supplier',
      { buyer: BUYERS[1].nif, supplier: SUPPLIERS[7].nif },
      (c) => c.buyers.some((p) => p.nif === BUYERS[1].nif) && c.suppliers.some((p) => p.nif === SUPPLIERS[7].nif),
    ],
    [
      'a small buyer and a large supplier',
      { buyer: SMALL_BUYER.nif, supplier: SUPPLIERS[5].nif },
      (c) => c.buyers.some((p) => p.nif === SMALL_BUYER.nif) && c.suppliers.some((p) => p.nif === SUPPLIERS[5].nif),
    ],
    [
      'buyer or supplier',
      { party: PERSON.nif },
      (c) => [...c.buyers, ...c.suppliers].some((p) => p.nif === PERSON.nif),
    ],
    ['CPV division', { cpvPrefix: '45' }, (c) => c.cpvs[0]?.startsWith('45')],
    ['CPV first digit', { cpvPrefix: '7' }, (c) => c.cpvs[0]?.startsWith('7')],
    ['CPV class', { cpvPrefix: '4523' }, (c) => c.cpvs[0]?.startsWith('4523')],
    [
      'procedure type, other case and accents',
      { procedureType: 'CONSULTA PREVIA' },
      (c) => c.procedure_type === 'Consulta Prévia',
    ],
    ['method', { method: 'selective' }, (c) => c.ocds_method === 'selective'],
    [
      'dates',
      { from: '2024-02-10', to: '2024-05-20' },
      (c) => c.published_on !== null && c.published_on >= '2024-02-10' && c.published_on <= '2024-05-20',
    ],
    ['few large amounts', { minAmount: 1_200_000 }, (c) => c.price_eur !== null && c.price_eur >= 1_200_000],
    [
      'many amounts',
      { minAmount: 1000, maxAmount: 500_000 },
      (c) => c.price_eur !== null && c.price_eur >= 1000 && c.price_eur <= 500_000,
    ],
    ['rare words', { words: ['lote', '777'] }, (c) => text(c).includes('lote') && text(c).includes('777')],
    ['common word', { words: ['limpeza'] }, (c) => text(c).includes('limpeza')],
    ['short word only', { words: ['de', '12'] }, (c) => text(c).includes('de') && text(c).includes('12')],
    [
      'everything at once',
      { municipalityIds: [BUYERS[0].id], cpvPrefix: '4', method: 'direct', from: '2023-06-01', words: ['lote'] },
      (c) =>
        c.municipality_ids.includes(BUYERS[0].id) &&
        (c.cpvs[0] ?? '').startsWith('4') &&
        c.ocds_method === 'direct' &&
        (c.published_on ?? '') >= '2023-06-01' &&
        text(c).includes('lote'),
    ],
  ];

  it('numbers contracts in the order written', async () => {
    const [newest] = await store.listContracts({ words: ['lote', '4321'] }, { limit: 5 });
    expect(newest.source_id).toBe(fixture.contracts[4321].source_id);
    expect(newest.id).toBe(4322);
  });

  for (const [name, filter, test] of cases) {
    it(`lists exactly the matching contracts, newest first, over every page: ${name}`, async () => {
      const expected = brute(test);
      expect(expected.length, 'the case selects something').toBeGreaterThan(0);
      const got = await walk(filter);
      expect(got.map((c) => c.source_id)).toEqual(expected);
    });
  }

  // The SQLite store's query plans; PostgreSQL plans its own.
  it.skipIf(onPostgres)(
    'plans every list as ordered index ranges: no sort of the whole list, no scan of the table',
    async () => {
      const port = new SqlitePort(new Database(dbPath, { readonly: true }));
      try {
        for (const [name, filter] of cases) {
          const query = await contractQuery(port, SQLITE_TEXT_SEARCH, filter, {
            after: { date: '2025-01-01', id: 5000 },
            limit: 51,
          });
          const { text, values } = keysetSql(port.dialect, query);
          const plan = (await port.query(`EXPLAIN QUERY PLAN ${text}`, values)).map((r) => r.detail).join(' | ');
          // A source that starts from a bounded set (the text index, the price index) sorts at most that set.
          const bounded = query.sources.some((source) => /contracts_fts|contracts_by_price/.test(source.from));
          if (!bounded) expect(plan, `${name}: ${plan}`).not.toMatch(/TEMP B-TREE/);
          expect(plan, `${name}: ${plan}`).not.toMatch(/SCAN c(?! USING)/);
          // A pair's other party is looked up by the contract (primary key), never walked by its tax number.
          if (filter.buyer && filter.supplier)
            expect(plan, `${name}: ${plan}`).not.toMatch(
              /SEARCH x (EXISTS )?USING (COVERING )?INDEX contract_parties_by_nif/,
            );
          // Several sources are merged as they are read, each in list order.
          if (query.sources.length > 1) expect(plan, `${name}: ${plan}`).toMatch(/MERGE \(UNION\)/);
        }
      } finally {
        port.close();
      }
    },
  );
});

describe('announcements, amendments and entities, read through their indexes', () => {
  let store: Store;
  let dbPath: string;

  beforeAll(async () => {
    ({ store, dbPath } = await freshStore());
    await store.writeProcurement(buildFixture({ contracts: 300, today: TODAY }));
  });
  afterAll(() => store.close());

  // The SQLite store's query plans (its own, whatever the data: the store runs no ANALYZE); PostgreSQL plans its own.
  it.skipIf(onPostgres)(
    'plans every list as ordered index ranges: no sort of the whole list, no scan of the table',
    async () => {
      const port = new SqlitePort(new Database(dbPath, { readonly: true }));
      const explain = async ({ text, values }: { text: string; values: unknown[] }) =>
        (await port.query(`EXPLAIN QUERY PLAN ${text}`, values)).map((r) => r.detail).join(' | ');
      const page = { after: { date: '2025-06-01', id: 30 }, limit: 51 };
      const [lisboa, porto] = BUYERS;
      try {
        const announcements: [string, AnnouncementFilter][] = [
          ['newest first', { order: 'published' }],
          ['open, soonest closing first', { order: 'deadline', openOn: TODAY }],
          ['two municipalities', { order: 'published', municipalityIds: [lisboa.id, porto.id] }],
          [
            'two municipalities, by deadline',
            { order: 'deadline', municipalityIds: [lisboa.id, porto.id], openOn: TODAY },
          ],
          ['district', { order: 'published', district: fold(lisboa.district) }],
          ['district, by deadline', { order: 'deadline', district: fold(lisboa.district) }],
          [
            'CPV and closing dates',
            { order: 'published', cpvPrefix: '45', closingAfter: '2025-06-01', closingBefore: '2025-08-31' },
          ],
          ['words', { order: 'published', words: ['concurso'] }],
          ['short word in a district', { order: 'published', words: ['de'], district: fold(lisboa.district) }],
        ];
        for (const [name, filter] of announcements) {
          const query = await announcementQuery(port, SQLITE_TEXT_SEARCH, filter, page);
          const plan = await explain(keysetSql(port.dialect, query));
          // A source that starts from the text index's matches sorts at most those.
          if (!query.sources.some((source) => source.from.includes('_fts')))
            expect(plan, `${name}: ${plan}`).not.toMatch(/TEMP B-TREE/);
          expect(plan, `${name}: ${plan}`).not.toMatch(/SCAN a(?! USING)/);
          if (query.sources.length > 1) expect(plan, `${name}: ${plan}`).toMatch(/MERGE \(UNION\)/);
        }
        const amendments: [string, AmendmentFilter][] = [
          ['newest first', {}],
          ['one contract', { contractId: 13 }],
          [
            'municipalities and dates',
            { municipalityIds: [lisboa.id, porto.id], from: '2025-01-01', to: '2025-12-31' },
          ],
          ['source', { source: 'fixture' }],
        ];
        for (const [name, filter] of amendments) {
          const plan = await explain(keysetSql(port.dialect, amendmentQuery(port.dialect, filter, page)));
          expect(plan, `${name}: ${plan}`).not.toMatch(/TEMP B-TREE/);
          expect(plan, `${name}: ${plan}`).not.toMatch(/SCAN a(?! USING)/);
        }
        const entities: [string, EntityFilter, boolean][] = [
          ['by tax number', {}, false],
          ['kind', { kind: 'company' }, false],
          ['source', { source: 'fixture' }, false],
          ['short word', { words: ['de'] }, false],
          // Bounded: the text index's few matches, the municipality's one entity.
          ['words', { words: ['municipio'] }, true],
          ['municipality', { municipalityId: lisboa.id }, true],
        ];
        for (const [name, filter, bounded] of entities) {
          const plan = await explain(await entityListSql(port, SQLITE_TEXT_SEARCH, filter, { after: '5', limit: 51 }));
          if (!bounded) expect(plan, `${name}: ${plan}`).not.toMatch(/TEMP B-TREE/);
          expect(plan, `${name}: ${plan}`).not.toMatch(/SCAN e(?! USING)/);
        }
      } finally {
        port.close();
      }
    },
  );
});
