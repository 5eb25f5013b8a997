/**
 * Black-box tests of the procurement endpoints over REST, on a store seeded with the hand-built fixture
 * (test/helpers/procurement-fixture.ts). Every expectation is computed here from the fixture and
 * data/municipalities.csv — never from the service's own code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractInput } from '../src/store/procurement-records.js';
import { expectProblem } from './helpers/expectations.js';
import {
  BUYERS,
  buildFixture,
  type Fixture,
  PERSON,
  SUPPLIERS,
  UNIDENTIFIED,
  withCheckDigit,
} from './helpers/procurement-fixture.js';
import { fold, freshStore, newestFirst } from './helpers/procurement-store.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const TODAY = new Date().toISOString().slice(0, 10);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const [LISBOA, PORTO, EVORA, COIMBRA, GAIA] = BUYERS;

/** What a party of the fixture says of its tax number: each one given is Portuguese (entity-tax-numbers.test.ts). */
function taxNumberTold(nif: string) {
  return nif === ''
    ? { nif_kind: null, kind_assumed: null, note: null }
    : { nif_kind: 'portuguese', kind_assumed: false, note: null };
}

let t: TestApp;
let fixture: Fixture;
/** The fixture's contracts are written first, in order: contract i has id i + 1. */
const idOf = (c: ContractInput) => fixture.contracts.indexOf(c) + 1;
const contractById = (id: number) => fixture.contracts[id - 1];

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  fixture = buildFixture({ contracts: 300, today: TODAY });
  await store.writeProcurement(fixture);
  await store.refreshProcurementRollups();
  t = await startTestApp({ store, dbPath });
});
afterAll(() => t.close());

/** Every page of a list, with a small page size so that paging is exercised; checks there is no duplicate. */
async function all(path: string, limit = 7): Promise<any[]> {
  const items = await collectPages(t, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`);
  const ids = items.map((i) => i.id ?? i.nif);
  expect(new Set(ids).size, 'no item twice').toBe(ids.length);
  return items;
}

function expectedContracts(test: (c: ContractInput) => boolean): string[] {
  return fixture.contracts
    .filter(test)
    .sort(newestFirst((c) => c.published_on, idOf))
    .map((c) => c.source_id);
}

const text = (c: ContractInput) => fold(`${c.object} ${c.description ?? ''}`);
const round2 = (n: number) => Math.round(n * 100) / 100;

describe('procurement_contracts', () => {
  it('lists every contract once, newest first (ties by id descending, undated last), over small pages', async () => {
    const items = await all('/v1/procurement/contracts');
    expect(items.map((c) => c.source_id)).toEqual(expectedContracts(() => true));
    expect(items.at(-1).published_on).toBeNull();
  });

  it('answers ContractSummary with its documented fields, amounts as numbers and dates as YYYY-MM-DD', async () => {
    const res = await t.get('/v1/procurement/contracts?limit=50');
    expect(res.status).toBe(200);
    for (const c of res.json.items) {
      expect(Object.keys(c).sort()).toEqual(
        [
          'id',
          'source',
          'source_id',
          'procedure_id',
          'object',
          'procedure_type',
          'ocds_method',
          'contract_types',
          'cpv_main',
          'buyers',
          'suppliers',
          'price_eur',
          'base_price_eur',
          'published_on',
          'signed_on',
          'municipalities',
          'link',
          'updated_at',
          'synthetic',
        ].sort(),
      );
      const input = contractById(c.id);
      expect(c.source_id).toBe(input.source_id);
      expect(c.price_eur).toBe(input.price_eur);
      if (c.price_eur !== null) expect(typeof c.price_eur).toBe('number');
      if (c.published_on !== null) expect(c.published_on).toMatch(DATE);
      expect(c.cpv_main).toBe(input.cpvs[0]);
      expect(c.buyers).toEqual(input.buyers.map((p) => ({ ...p, withheld: false, ...taxNumberTold(p.nif) })));
      expect(c.suppliers).toEqual(
        input.suppliers.map((p) => ({ name: p.name, nif: p.nif || null, withheld: false, ...taxNumberTold(p.nif) })),
      );
      const codes = input.municipality_ids.map((id) => BUYERS.find((b) => b.id === id)?.code).sort();
      expect(c.municipalities).toEqual(codes);
    }
  });

  const cases: [string, string, (c: ContractInput) => boolean][] = [
    ['municipality by code', `municipality=${EVORA.code}`, (c) => c.municipality_ids.includes(EVORA.id)],
    [
      'municipality by slug, repeated',
      `municipality=${PORTO.slug}&municipality=${GAIA.code}`,
      (c) => c.municipality_ids.some((m) => m === PORTO.id || m === GAIA.id),
    ],
    ['buyer', `buyer=${COIMBRA.nif}`, (c) => c.buyers[0].nif === COIMBRA.nif],
    ['supplier', `supplier=${SUPPLIERS[2].nif}`, (c) => c.suppliers.some((p) => p.nif === SUPPLIERS[2].nif)],
    ['a person as supplier', `supplier=${PERSON.nif}`, (c) => c.suppliers.some((p) => p.nif === PERSON.nif)],
    ['CPV division', 'cpv=45', (c) => c.cpvs[0].startsWith('45')],
    ['CPV prefix of 5 digits', 'cpv=45233', (c) => c.cpvs[0].startsWith('45233')],
    ['CPV first digit', 'cpv=3', (c) => c.cpvs[0].startsWith('3')],
    [
      'procedure type without accents',
      'procedure_type=consulta%20previa',
      (c) => c.procedure_type === 'Consulta Prévia',
    ],
    ['method', 'method=limited', (c) => c.ocds_method === 'limited'],
    [
      'publication dates',
      'from=2023-06-01&to=2023-12-31',
      (c) => c.published_on !== null && c.published_on >= '2023-06-01' && c.published_on <= '2023-12-31',
    ],
    [
      'only `to`: no undated contract',
      'to=2023-03-31',
      (c) => c.published_on !== null && c.published_on <= '2023-03-31',
    ],
    [
      'amount range',
      'min_amount=100000&max_amount=400000',
      (c) => c.price_eur !== null && c.price_eur >= 100_000 && c.price_eur <= 400_000,
    ],
    [
      'q, accents and case ignored',
      'q=REQUALIFICACAO%20Joao',
      (c) => text(c).includes('requalificacao') && text(c).includes('joao'),
    ],
    ['q, part of a word, in the description', 'q=descri', (c) => text(c).includes('descri')],
    [
      'several filters at once',
      `municipality=lisboa&cpv=4&from=2023-05-01&method=direct&q=lote`,
      (c) =>
        c.municipality_ids.includes(LISBOA.id) &&
        c.cpvs[0].startsWith('4') &&
        (c.published_on ?? '') >= '2023-05-01' &&
        c.ocds_method === 'direct',
    ],
  ];
  for (const [name, query, test] of cases) {
    it(`filters: ${name}`, async () => {
      const expected = expectedContracts(test);
      expect(expected.length, 'the case selects something').toBeGreaterThan(0);
      expect(expected.length, 'the case leaves something out').toBeLessThan(300);
      const items = await all(`/v1/procurement/contracts?${query}`, 5);
      expect(items.map((c) => c.source_id)).toEqual(expected);
    });
  }

  const cursorBoundToFilters =
    'binds the cursor to the filters: 400 invalid-cursor with other filters, fine with another page size';
  it(cursorBoundToFilters, async () => {
    const first = await t.get('/v1/procurement/contracts?municipality=1106&limit=3');
    const cursor = encodeURIComponent(first.json.next_cursor);
    expectProblem(
      await t.get(`/v1/procurement/contracts?municipality=1312&limit=3&cursor=${cursor}`),
      400,
      'invalid-cursor',
    );
    expectProblem(await t.get(`/v1/procurement/announcements?cursor=${cursor}`), 400, 'invalid-cursor');
    expect((await t.get(`/v1/procurement/contracts?municipality=1106&limit=10&cursor=${cursor}`)).status).toBe(200);
  });

  it('refuses bad filters with 422 naming the parameter', async () => {
    const fifty = Array.from({ length: 51 }, (_, i) => `municipality=${BUYERS[i % BUYERS.length].code}`).join('&');
    for (const [query, field] of [
      ['municipality=9999', 'municipality'],
      ['municipality=atlantida', 'municipality'],
      [fifty, 'municipality'],
      ['buyer=12345', 'buyer'],
      ['supplier=PT500051070', 'supplier'],
      ['cpv=4a', 'cpv'],
      ['cpv=123456789', 'cpv'],
      ['method=negotiated', 'method'],
      ['from=2024-02-30', 'from'],
      ['from=2024-05-01&to=2024-04-01', 'from'],
      ['min_amount=5000&max_amount=100', 'min_amount'],
      ['min_amount=-1', 'min_amount'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['colour=blue', 'colour'],
    ]) {
      const res = await t.get(`/v1/procurement/contracts?${query}`);
      expectProblem(res, 422, 'validation-error');
      expect(
        res.json.errors.map((e: { field: string }) => e.field),
        query,
      ).toContain(field);
    }
  });
});

describe('procurement_contract_get', () => {
  it('returns every field of a contract, with CPV labels, competitors and amendments oldest first', async () => {
    const input = fixture.contracts[36]; // two amendments, competitors, a description, two CPVs
    const res = await t.get(`/v1/procurement/contracts/${idOf(input)}`);
    expect(res.status).toBe(200);
    const c = res.json;
    expect(c).toMatchObject({
      id: idOf(input),
      source: 'fixture',
      source_id: input.source_id,
      object: input.object,
      description: input.description,
      price_eur: input.price_eur,
      effective_price_eur: input.effective_price_eur,
      execution_days: input.execution_days,
      legal_basis: input.legal_basis,
      green: input.green,
      announcement_number: input.announcement_number,
      announcement_id: null,
      imported_at: '2025-07-01T10:00:00Z',
    });
    expect(c.cpv.map((x: { code: string }) => x.code)).toEqual(input.cpvs);
    expect(c.cpv[0].label_en).toBeTruthy();
    expect(c.competitors).toEqual(input.competitors.map((p) => ({ ...p, withheld: false, ...taxNumberTold(p.nif) })));
    const amendments = fixture.amendments.filter((a) => a.contract_source_id === input.source_id);
    expect(c.amendments.map((a: { source_id: string }) => a.source_id)).toEqual(amendments.map((a) => a.source_id));
    // Neither gives its previous price: the first's is the contract price, the second's the first's new price.
    expect(amendments.map((a) => a.previous_price_eur)).toEqual([null, null]);
    expect(c.amendments[0].previous_price_eur).toBe(input.price_eur);
    expect(c.amendments[1].previous_price_eur).toBe(amendments[0].new_price_eur);
    expect(c.amendments[1].change_eur).toBe(
      round2((amendments[1].new_price_eur ?? 0) - (amendments[0].new_price_eur ?? 0)),
    );
  });

  it('answers 404 for an unknown contract and 422 for an id that is not a positive integer', async () => {
    expectProblem(await t.get('/v1/procurement/contracts/99999'), 404, 'not-found');
    expectProblem(await t.get('/v1/procurement/contracts/abc'), 422, 'validation-error');
    expectProblem(await t.get('/v1/procurement/contracts/0'), 422, 'validation-error');
  });
});

describe('procurement_aggregate', () => {
  type Group = { key: Record<string, unknown>; count: number; total_eur: number };
  const sum = (cs: ContractInput[]) => round2(cs.reduce((s, c) => s + (c.price_eur ?? 0), 0));
  const inRange = (c: ContractInput, from?: string, to?: string) =>
    from === undefined && to === undefined
      ? true
      : c.published_on !== null && c.published_on >= (from ?? '') && c.published_on <= (to ?? '9999');

  /** Groups computed by brute force: a contract counts once in every group its keys put it in. */
  function expectedGroups(contracts: ContractInput[], keysOf: (c: ContractInput) => unknown[]): Group[] {
    const groups = new Map<string, ContractInput[]>();
    for (const c of contracts) {
      for (const key of new Set(keysOf(c).map((k) => JSON.stringify(k))))
        groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    return [...groups.entries()].map(([key, cs]) => ({ key: JSON.parse(key), count: cs.length, total_eur: sum(cs) }));
  }

  function compare(got: Group[], expected: Group[]) {
    const norm = (gs: Group[]) =>
      gs
        .map((g) => ({ key: g.key, count: g.count, total_eur: round2(g.total_eur) }))
        .sort((a, b) => (JSON.stringify(a.key) < JSON.stringify(b.key) ? -1 : 1));
    expect(norm(got)).toEqual(norm(expected));
  }

  it('counts per year by default, every contract once in totals', async () => {
    const res = await t.get('/v1/procurement/aggregate');
    expect(res.status).toBe(200);
    expect(res.json.group_by).toEqual(['year']);
    compare(
      res.json.groups,
      expectedGroups(fixture.contracts, (c) => [
        { year: c.published_on === null ? null : Number(c.published_on.slice(0, 4)) },
      ]),
    );
    expect(res.json.totals).toEqual({ count: 300, total_eur: sum(fixture.contracts) });
    // Ordered by key, unknown last.
    expect(res.json.groups.map((g: Group) => g.key.year)).toEqual([2023, 2024, 2025, null]);
  });

  it('counts a municipality’s contracts per month over a range that cuts months in two', async () => {
    const [from, to] = ['2023-03-15', '2024-02-10'];
    const res = await t.get(
      `/v1/procurement/aggregate?executed_in=${LISBOA.code}&from=${from}&to=${to}&group_by=month`,
    );
    expect(res.status).toBe(200);
    const contracts = fixture.contracts.filter((c) => c.municipality_ids.includes(LISBOA.id) && inRange(c, from, to));
    compare(
      res.json.groups,
      expectedGroups(contracts, (c) => [{ month: c.published_on?.slice(0, 7) }]),
    );
    expect(res.json.totals).toEqual({ count: contracts.length, total_eur: sum(contracts) });
    const months = res.json.groups.map((g: Group) => g.key.month);
    expect(months).toEqual([...months].sort());
  });

  it('counts a contract with two suppliers for each, and once in the totals', async () => {
    const res = await t.get(`/v1/procurement/aggregate?executed_in=${PORTO.slug}&group_by=supplier`);
    expect(res.status).toBe(200);
    const contracts = fixture.contracts.filter((c) => c.municipality_ids.includes(PORTO.id));
    const expected = expectedGroups(contracts, (c) => c.suppliers.map((p) => ({ supplier: p.nif || null })));
    compare(res.json.groups, expected);
    expect(res.json.totals.count).toBe(contracts.length);
    expect(expected.reduce((n, g) => n + g.count, 0)).toBeGreaterThan(contracts.length);
    const named = res.json.groups.find((g: Group) => g.key.supplier === SUPPLIERS[0].nif);
    expect(named?.labels.supplier).toBe(SUPPLIERS[0].name);
  });

  it('groups by municipality: only the requested ones, a contract in two of them in both, totals once', async () => {
    const res = await t.get(
      `/v1/procurement/aggregate?executed_in=${LISBOA.code}&executed_in=${PORTO.code}&group_by=municipality`,
    );
    const wanted = [LISBOA, PORTO];
    const contracts = fixture.contracts.filter((c) => c.municipality_ids.some((m) => wanted.some((w) => w.id === m)));
    compare(
      res.json.groups,
      expectedGroups(contracts, (c) =>
        wanted.filter((w) => c.municipality_ids.includes(w.id)).map((w) => ({ municipality: w.code })),
      ),
    );
    expect(res.json.totals).toEqual({ count: contracts.length, total_eur: sum(contracts) });
    expect(res.json.groups.map((g: Group & { labels: Record<string, string> }) => g.labels.municipality)).toEqual([
      'Lisboa',
      'Porto',
    ]);
  });

  it('counts a contract executed in several of the requested municipalities once, in groups and totals', async () => {
    const wanted = [BUYERS[7], LISBOA, PORTO]; // the fixture has contracts in 1109 + 1106 and in 1106 + 1312
    const query = wanted.map((m) => `executed_in=${m.code}`).join('&');
    const contracts = fixture.contracts.filter((c) => c.municipality_ids.some((m) => wanted.some((w) => w.id === m)));
    const shared = contracts.filter((c) => c.municipality_ids.filter((m) => wanted.some((w) => w.id === m)).length > 1);
    expect(shared.length).toBeGreaterThan(1);
    for (const [from, to] of [
      [undefined, undefined],
      ['2023-01-01', '2024-12-31'],
      ['2023-02-11', '2024-07-20'],
    ] as const) {
      const range = `${from ? `&from=${from}` : ''}${to ? `&to=${to}` : ''}`;
      const selected = contracts.filter((c) => inRange(c, from, to));
      const res = await t.get(
        `/v1/procurement/aggregate?${query}&group_by=year&group_by=cpv_division&group_by=procedure_type${range}`,
      );
      expect(res.status).toBe(200);
      compare(
        res.json.groups,
        expectedGroups(selected, (c) => [
          {
            year: c.published_on === null ? null : Number(c.published_on.slice(0, 4)),
            cpv_division: c.cpvs[0].slice(0, 2),
            procedure_type: c.procedure_type,
          },
        ]),
      );
      expect(res.json.totals).toEqual({ count: selected.length, total_eur: sum(selected) });
      const byMonth = await t.get(`/v1/procurement/aggregate?${query}&group_by=month${range}`);
      compare(
        byMonth.json.groups,
        expectedGroups(selected, (c) => [{ month: c.published_on?.slice(0, 7) ?? null }]),
      );
    }
  });

  const groupsNationally =
    'groups nationally by municipality (none last), by CPV division with labels, by procedure type and buyer';
  it(groupsNationally, async () => {
    const byMunicipality = await t.get('/v1/procurement/aggregate?group_by=municipality');
    compare(
      byMunicipality.json.groups,
      expectedGroups(fixture.contracts, (c) =>
        c.municipality_ids.length === 0
          ? [{ municipality: null }]
          : c.municipality_ids.map((id) => ({ municipality: BUYERS.find((b) => b.id === id)?.code })),
      ),
    );
    expect(byMunicipality.json.groups.at(-1).key.municipality).toBeNull();
    expect(byMunicipality.json.totals.count).toBe(300);

    const byCpv = await t.get(
      '/v1/procurement/aggregate?group_by=cpv_division&group_by=procedure_type&from=2024-01-01',
    );
    const since = fixture.contracts.filter((c) => inRange(c, '2024-01-01'));
    compare(
      byCpv.json.groups,
      expectedGroups(since, (c) => [{ cpv_division: c.cpvs[0].slice(0, 2), procedure_type: c.procedure_type }]),
    );
    expect(byCpv.json.groups.find((g: Group) => g.key.cpv_division === '45').labels.cpv_division).toMatch(/constru/i);

    const byBuyer = await t.get('/v1/procurement/aggregate?group_by=contracting_entity&group_by=year');
    compare(
      byBuyer.json.groups,
      expectedGroups(fixture.contracts, (c) => [
        {
          contracting_entity: c.buyers[0].nif,
          year: c.published_on === null ? null : Number(c.published_on.slice(0, 4)),
        },
      ]),
    );
  });

  it('refuses unknown dimensions, too many of them, repeats, unknown municipalities and reversed ranges', async () => {
    for (const query of [
      'group_by=district',
      'group_by=year&group_by=month&group_by=supplier&group_by=municipality',
      'group_by=year&group_by=year',
      'executed_in=9999',
      'from=2025-01-01&to=2024-01-01',
      'from=yesterday',
    ]) {
      expectProblem(await t.get(`/v1/procurement/aggregate?${query}`), 422, 'validation-error');
    }
  });
});

describe('procurement_entities and procurement_entity_profile', () => {
  const everyNif = () => [...new Set([...BUYERS.map((b) => b.nif), ...SUPPLIERS.map((s) => s.nif), PERSON.nif])].sort();

  it('lists every entity once, by tax number, over small pages; never the party without a tax number', async () => {
    const items = await all('/v1/procurement/entities', 4);
    expect(items.map((e) => e.nif)).toEqual(everyNif());
    expect(items.some((e) => e.name === UNIDENTIFIED.name)).toBe(false);
  });

  it('filters by words of the name or tax number (accents and case ignored), by kind and by municipality', async () => {
    const construcoes = await all('/v1/procurement/entities?q=CONSTRUCOES%20filhos', 3);
    expect(construcoes.map((e) => e.name)).toEqual([SUPPLIERS[0].name]);
    const byNif = await all(`/v1/procurement/entities?q=${LISBOA.nif.slice(2, 7)}`);
    expect(byNif.map((e) => e.nif)).toContain(LISBOA.nif);
    const municipalities = await all('/v1/procurement/entities?kind=municipality', 3);
    expect(municipalities.map((e) => e.nif)).toEqual(BUYERS.map((b) => b.nif).sort());
    const persons = await all('/v1/procurement/entities?kind=person');
    expect(persons.map((e) => e.nif)).toEqual([PERSON.nif]);
    const evora = await all(`/v1/procurement/entities?municipality=${EVORA.slug}`);
    expect(evora).toMatchObject([
      { nif: EVORA.nif, kind: 'municipality', municipality: EVORA.code, name: `Município de ${EVORA.name}` },
    ]);
    expectProblem(await t.get('/v1/procurement/entities?municipality=nowhere'), 422, 'validation-error');
    expectProblem(await t.get('/v1/procurement/entities?kind=robot'), 422, 'validation-error');
  });

  const entityProfile =
    'profiles an entity: totals, per year, top suppliers by euros, recent contracts — all from its contracts';
  it(entityProfile, async () => {
    const res = await t.get(`/v1/procurement/entities/${LISBOA.nif}`);
    expect(res.status).toBe(200);
    const p = res.json;
    const bought = fixture.contracts.filter((c) => c.buyers[0].nif === LISBOA.nif);
    expect(p).toMatchObject({
      nif: LISBOA.nif,
      kind: 'municipality',
      municipality: LISBOA.code,
      country: 'PT',
      contracts_as_supplier: 0,
      total_as_supplier_eur: 0,
    });
    expect(p.contracts_as_buyer).toBe(bought.length);
    expect(p.total_as_buyer_eur).toBe(round2(bought.reduce((s, c) => s + (c.price_eur ?? 0), 0)));
    for (const year of p.by_year) {
      const inYear = bought.filter((c) =>
        c.published_on === null ? year.year === null : Number(c.published_on.slice(0, 4)) === year.year,
      );
      expect(year).toEqual({
        year: year.year,
        as_buyer_count: inYear.length,
        as_buyer_eur: round2(inYear.reduce((s, c) => s + (c.price_eur ?? 0), 0)),
        as_supplier_count: 0,
        as_supplier_eur: 0,
      });
    }
    expect(p.by_year.reduce((n: number, y: { as_buyer_count: number }) => n + y.as_buyer_count, 0)).toBe(bought.length);

    const perSupplier = new Map<string, { count: number; total: number }>();
    for (const c of bought) {
      for (const s of c.suppliers.filter((x) => x.nif !== '')) {
        const held = perSupplier.get(s.nif) ?? { count: 0, total: 0 };
        perSupplier.set(s.nif, { count: held.count + 1, total: held.total + (c.price_eur ?? 0) });
      }
    }
    const top = [...perSupplier.entries()].sort((a, b) => b[1].total - a[1].total).slice(0, 10);
    expect(p.top_suppliers.map((s: { nif: string }) => s.nif)).toEqual(top.map(([nif]) => nif));
    expect(p.top_suppliers[0].total_eur).toBe(round2(top[0][1].total));
    expect(p.top_buyers).toEqual([]);
    expect(p.recent_contracts.map((c: { source_id: string }) => c.source_id)).toEqual(
      expectedContracts((c) => bought.includes(c)).slice(0, 10),
    );
  });

  it('profiles a supplier with its buyers', async () => {
    const res = await t.get(`/v1/procurement/entities/${SUPPLIERS[5].nif}`);
    const supplied = fixture.contracts.filter((c) => c.suppliers.some((s) => s.nif === SUPPLIERS[5].nif));
    expect(res.json.contracts_as_supplier).toBe(supplied.length);
    expect(res.json.top_suppliers).toEqual([]);
    expect(new Set(res.json.top_buyers.map((b: { nif: string }) => b.nif))).toEqual(
      new Set(supplied.map((c) => c.buyers[0].nif)),
    );
  });

  it('answers 404 for a tax number it does not know and 422 for a Portuguese one mistyped or prefixed', async () => {
    expectProblem(await t.get(`/v1/procurement/entities/${withCheckDigit('59999999')}`), 404, 'not-found');
    for (const nif of ['12345678', '1234567890', 'PT500051070'])
      expectProblem(await t.get(`/v1/procurement/entities/${nif}`), 422, 'validation-error');
  });
});

describe('lookups', () => {
  const lookup = async (what: string, q: string, extra = '') => {
    const res = await t.get(`/v1/procurement/lookup/${what}?q=${encodeURIComponent(q)}${extra}`);
    expect(res.status, res.body).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    return res.json as any[];
  };

  it('finds a municipality despite a typo, accents or case; exact first with score 1', async () => {
    const lisbao = await lookup('municipalities', 'lisbao');
    expect(lisbao[0]).toMatchObject({
      municipality: '1106',
      slug: 'lisboa',
      name: 'Lisboa',
      district_name: 'Lisboa',
      match: 'fuzzy',
      nif: LISBOA.nif,
    });
    for (const q of ['evora', 'ÉVORA', 'Évora', '0705']) {
      const [first] = await lookup('municipalities', q);
      expect(first, q).toMatchObject({ municipality: '0705', name: 'Évora', match: 'exact', score: 1 });
    }
    const [gaia] = await lookup('municipalities', 'vila nova de gaiia');
    expect(gaia).toMatchObject({ municipality: GAIA.code, match: 'fuzzy' });
  });

  it('lists every "Vila…" as a prefix match, best first, up to the limit', async () => {
    const vilas = await lookup('municipalities', 'vila', '&limit=50');
    const prefixes = vilas.filter((e) => e.match === 'prefix');
    expect(prefixes.length).toBeGreaterThanOrEqual(10);
    for (const e of prefixes) expect(fold(e.name).startsWith('vila')).toBe(true);
    const scores = vilas.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(vilas.findIndex((e) => e.match !== 'prefix')).toBeGreaterThanOrEqual(prefixes.length);
    expect(await lookup('municipalities', 'vila', '&limit=3')).toHaveLength(3);
    expect(await lookup('municipalities', 'vila')).toHaveLength(10);
    const [contains] = await lookup('municipalities', 'gaia');
    expect(contains).toMatchObject({ municipality: GAIA.code, match: 'contains' });
  });

  it('finds entities by name despite accents and typos, and by tax number', async () => {
    const [silva] = await lookup('entities', 'construcoes silva');
    expect(silva).toMatchObject({ nif: SUPPLIERS[0].nif, name: SUPPLIERS[0].name, kind: 'company', match: 'prefix' });
    const [typo] = await lookup('entities', 'contrucoes silvo');
    expect(typo).toMatchObject({ nif: SUPPLIERS[0].nif, match: 'fuzzy' });
    const [exact] = await lookup('entities', LISBOA.nif);
    expect(exact).toMatchObject({ nif: LISBOA.nif, kind: 'municipality', match: 'exact', score: 1 });
    const byStart = await lookup('entities', SUPPLIERS[0].nif.slice(0, 6));
    expect(byStart.map((e) => e.nif)).toContain(SUPPLIERS[0].nif);
    expect(byStart.every((e) => e.match === 'prefix')).toBe(true);
    const [agua] = await lookup('entities', 'AGUAS DO MONDEGO');
    expect(agua).toMatchObject({ nif: SUPPLIERS[1].nif, match: 'prefix' });
    expect(await lookup('entities', 'xyzzy quux')).toEqual([]);
  });

  it('refuses a missing or empty q and a limit above 50', async () => {
    for (const path of [
      '/v1/procurement/lookup/municipalities',
      '/v1/procurement/lookup/municipalities?q=',
      '/v1/procurement/lookup/municipalities?q=lisboa&limit=51',
      '/v1/procurement/lookup/entities?q=silva&limit=0',
    ]) {
      expectProblem(await t.get(path), 422, 'validation-error');
    }
  });
});

describe('procurement_announcements', () => {
  type A = (typeof fixture.announcements)[number];
  const ordered = (list: A[]) =>
    list
      .sort(
        newestFirst(
          (a) => a.published_on,
          (a) => fixture.announcements.indexOf(a) + 1,
        ),
      )
      .map((a) => a.source_id);

  it('lists every announcement newest first, is_open against today, over small pages', async () => {
    const items = await all('/v1/procurement/announcements', 6);
    expect(items.map((a) => a.source_id)).toEqual(ordered([...fixture.announcements]));
    for (const a of items) {
      expect(a.is_open).toBe(a.deadline_on !== null && a.deadline_on >= TODAY);
      expect(a.published_on).toMatch(DATE);
      expect(typeof a.base_price_eur).toBe('number');
      expect(a.cpv[0].label_en).toBeTruthy();
    }
  });

  it('open_only: deadlines from today, soonest closing first (ties by id), over small pages', async () => {
    const items = await all('/v1/procurement/announcements?open_only=true', 4);
    const open = fixture.announcements
      .map((a, i) => ({ a, id: i + 1 }))
      .filter(({ a }) => a.deadline_on !== null && a.deadline_on >= TODAY)
      .sort((x, y) =>
        (x.a.deadline_on as string) < (y.a.deadline_on as string)
          ? -1
          : (x.a.deadline_on as string) > (y.a.deadline_on as string)
            ? 1
            : x.id - y.id,
      );
    expect(items.map((a) => a.source_id)).toEqual(open.map(({ a }) => a.source_id));
    expect(items.every((a) => a.is_open)).toBe(true);
    expect((await all('/v1/procurement/announcements?open_only=false')).length).toBe(60);
  });

  const contractFilters =
    'filters by district (named, or through its municipalities), municipality, any CPV, deadlines and words';
  it(contractFilters, async () => {
    const porto = await all('/v1/procurement/announcements?district=porto', 5);
    const inPorto = fixture.announcements.filter(
      (a) =>
        a.district === 'Porto' ||
        a.municipality_ids.some((id) => BUYERS.find((b) => b.id === id)?.district === 'Porto'),
    );
    expect(porto.map((a) => a.source_id)).toEqual(ordered(inPorto));
    expect(inPorto.some((a) => a.municipality_ids.length === 0)).toBe(true);

    const evora = await all(`/v1/procurement/announcements?municipality=${EVORA.code}`);
    expect(evora.map((a) => a.source_id)).toEqual(
      ordered(fixture.announcements.filter((a) => a.municipality_ids.includes(EVORA.id))),
    );

    const cpv = await all('/v1/procurement/announcements?cpv=72', 5);
    expect(cpv.map((a) => a.source_id)).toEqual(
      ordered(fixture.announcements.filter((a) => a.cpvs.some((c) => c.startsWith('72')))),
    );

    const closing = await all(
      `/v1/procurement/announcements?closing_after=${TODAY}&closing_before=2999-01-01&district=Porto&open_only=true`,
    );
    expect(closing.map((a) => a.source_id).sort()).toEqual(
      inPorto
        .filter((a) => a.deadline_on !== null && a.deadline_on >= TODAY)
        .map((a) => a.source_id)
        .sort(),
    );

    const words = await all('/v1/procurement/announcements?q=REFEICOES');
    expect(words.map((a) => a.source_id)).toEqual(
      ordered(fixture.announcements.filter((a) => fold(a.object).includes('refeicoes'))),
    );
  });

  it('refuses an unknown district, a bad CPV prefix, reversed deadlines and a non-boolean open_only', async () => {
    for (const query of [
      'district=Atlantis',
      'cpv=x',
      'closing_after=2025-02-01&closing_before=2025-01-01',
      'open_only=perhaps',
      'municipality=0000',
    ]) {
      expectProblem(await t.get(`/v1/procurement/announcements?${query}`), 422, 'validation-error');
    }
  });
});

describe('procurement_amendments', () => {
  const ordered = (list: Fixture['amendments']) =>
    list
      .sort(
        newestFirst(
          (a) => a.date,
          (a) => fixture.amendments.indexOf(a) + 1,
        ),
      )
      .map((a) => a.source_id);

  it('lists every amendment newest first, with derived previous prices', async () => {
    const items = await all('/v1/procurement/amendments', 4);
    expect(items.map((a) => a.source_id)).toEqual(ordered([...fixture.amendments]));
    for (const a of items) {
      const input = fixture.amendments.find((x) => x.source_id === a.source_id) as Fixture['amendments'][number];
      const contract = fixture.contracts.find((c) => c.source_id === input.contract_source_id) as ContractInput;
      expect(a.contract_id).toBe(idOf(contract));
      const earlier = fixture.amendments.filter(
        (x) => x.contract_source_id === input.contract_source_id && (x.date ?? '') < (input.date ?? ''),
      );
      const previous = input.previous_price_eur ?? earlier.at(-1)?.new_price_eur ?? contract.price_eur;
      expect(a.previous_price_eur, a.source_id).toBe(previous);
      expect(a.change_eur).toBe(round2((input.new_price_eur ?? 0) - (previous ?? 0)));
      expect(a.date).toMatch(DATE);
    }
  });

  it('filters by contract, municipality and dates', async () => {
    const contract = fixture.contracts[36];
    const ofContract = await all(`/v1/procurement/amendments?contract=${idOf(contract)}`);
    expect(ofContract.map((a) => a.source_id)).toEqual(
      ordered(fixture.amendments.filter((a) => a.contract_source_id === contract.source_id)),
    );
    const lisboa = await all(`/v1/procurement/amendments?municipality=lisboa&from=2025-01-01&to=2025-06-15`, 2);
    const expected = fixture.amendments.filter((a) => {
      const c = fixture.contracts.find((x) => x.source_id === a.contract_source_id) as ContractInput;
      return c.municipality_ids.includes(LISBOA.id) && (a.date ?? '') >= '2025-01-01' && (a.date ?? '') <= '2025-06-15';
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(lisboa.map((a) => a.source_id)).toEqual(ordered(expected));
  });

  it('refuses an unknown contract and reversed dates', async () => {
    expectProblem(await t.get('/v1/procurement/amendments?contract=99999'), 422, 'validation-error');
    expectProblem(await t.get('/v1/procurement/amendments?from=2025-06-01&to=2025-01-01'), 422, 'validation-error');
  });
});

describe('access', () => {
  it('is refused without the procurement scope or domain', async () => {
    expectProblem(
      await t.get('/v1/procurement/contracts', { key: t.keys.signalsOnlyScope }),
      403,
      'insufficient-scope',
    );
    expectProblem(
      await t.get('/v1/procurement/lookup/municipalities?q=porto', { key: t.keys.indicatorsOnly }),
      403,
      'domain-not-in-plan',
    );
  });
});
