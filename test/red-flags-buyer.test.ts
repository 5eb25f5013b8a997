/**
 * The integrity checks that compare a contract with its buyer's other contracts (docs/integrity.md): supplier
 * concentration (PT-CONCENTRATION), repeated direct awards (PT-ART113, CCP art. 113.º n.º 2) and possible splitting
 * (PT-ART22-SPLIT). Hand-made contracts, each buyer and supplier its own scenario, built to be flagged, not flagged
 * or not assessable; a Madeira and an Azores buyer judged by their regional ceilings. The data held run from
 * 2021-06-01 to 2025-06-30 (two edge contracts): a window reaching before that cannot be summed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../src/core/operation.js';
import { runDetection } from '../src/detect/run-detection.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { ContractInput, Party } from '../src/store/procurement-records.js';
import type { MunicipalityRecord } from '../src/store/records.js';
import type { Store } from '../src/store/store.js';
import { contractInput, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { answerData, type CallAnswer, CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

const ALL = readMunicipalities();
const town = (code: string) => ALL.find((m) => m.code === code) as MunicipalityRecord;
const [ALJUSTREL, ALMODOVAR, ALVITO, BARRANCOS, BEJA, CASTRO_VERDE, CUBA] = [
  '0201',
  '0202',
  '0203',
  '0204',
  '0205',
  '0206',
  '0207',
].map(town);
const FUNCHAL = town('3103'); // Madeira: ceilings × 1,35 (27 000 € for goods and services)
const VILA_DO_PORTO = town('4101'); // Azores: 75 000 € for goods and services
const supplier = (n: number): Party => ({
  nif: withCheckDigit(`519000${String(n).padStart(2, '0')}`),
  name: `Fornecedor ${n}, Lda.`,
});
const S = Array.from({ length: 20 }, (_, n) => supplier(n + 10));
/** A body of the State, no municipality: nothing in its records ties it to a region ("Portugal" alone). */
const STATE_BODY = {
  buyers: [{ nif: withCheckDigit('60009999'), name: 'Instituto Nacional de Exemplo, I.P.' }],
  execution_places_text: 'Portugal',
  municipality_ids: [],
};
/** The same body's contract executed on the mainland and in the Azores: the regime cannot be told. */
const TWO_REGIONS = {
  ...STATE_BODY,
  execution_places_text: 'Portugal, Beja, Cuba; Portugal, Região Autónoma dos Açores, Vila do Porto',
};
const WORKS_BY_VALUE = 'Artigo 19.º, alínea d) do Código dos Contratos Públicos';

const AD = { procedure_type: 'Ajuste Direto Regime Geral', ocds_method: 'direct' as const };
const CP = { procedure_type: 'Consulta Prévia', ocds_method: 'limited' as const };
const OPEN = { procedure_type: 'Concurso público', ocds_method: 'open' as const, legal_basis: null };
const BY_VALUE = 'Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos';
const CP_BY_VALUE = 'Artigo 20.º, n.º 1, alínea c) do Código dos Contratos Públicos';
const MADEIRA_BY_VALUE = `${BY_VALUE} e artigo 4.º, nº 1 do DLR nº 34/2008/M, de 14.08`;
const AZORES_BY_VALUE = 'Artigo 20.º, alínea a) do Decreto Legislativo Regional n.º 27/2015/A, de 29.12';
const MATERIAL = 'Artigo 24.º, n.º 1, alínea e), subalínea ii) do Código dos Contratos Públicos';

/** An ajuste direto by value of a buyer to a supplier, signed on `signed` and published five days later. */
function contract(
  id: string,
  buyer: MunicipalityRecord,
  to: Party,
  price: number | null,
  signed: string,
  changes: Partial<ContractInput> = {},
): ContractInput {
  const published = new Date(Date.parse(`${signed}T00:00:00Z`) + 5 * 86_400_000).toISOString().slice(0, 10);
  return contractInput(id, {
    ...AD,
    legal_basis: BY_VALUE,
    buyers: [{ nif: buyer.nif, name: `Município de ${buyer.name}` }],
    suppliers: [to],
    price_eur: price,
    published_on: published,
    signed_on: signed,
    execution_days: 90,
    execution_places_text: `Portugal, ${buyer.district}, ${buyer.name}`,
    municipality_ids: [buyer.id],
    ...changes,
  });
}

/** Source id → the contract, and the state each type named must answer for it. */
const CASES: { c: ContractInput; expect?: Record<string, string> }[] = [
  // The edges of the data held.
  { c: contract('edge-first', BARRANCOS, S[15], 50_000, '2021-05-27', OPEN) },
  { c: contract('edge-last', BARRANCOS, S[15], 50_000, '2025-06-25', OPEN) },

  // Supplier concentration — Aljustrel, 2024: supplier 0 has 6 of 10 priced contracts, 70 000 € of 90 000 €.
  ...['01', '02', '03', '04'].map((m) => ({
    c: contract(`conc-s0-${m}`, ALJUSTREL, S[0], 12_000, `2024-${m}-10`, OPEN),
  })),
  {
    c: contract('conc-s0', ALJUSTREL, S[0], 12_000, '2024-05-10', OPEN),
    expect: { supplier_concentration: 'flagged' },
  },
  // No publication date: counted in its signing year.
  { c: contract('conc-s0-undated', ALJUSTREL, S[0], 10_000, '2024-06-10', { ...OPEN, published_on: null }) },
  {
    c: contract('conc-s1', ALJUSTREL, S[1], 5_000, '2024-02-12', OPEN),
    expect: { supplier_concentration: 'not_flagged' },
  },
  ...[2, 3, 4].map((n) => ({ c: contract(`conc-s${n}`, ALJUSTREL, S[n], 5_000, '2024-03-12', OPEN) })),
  { c: contract('conc-unpriced', ALJUSTREL, S[1], null, '2024-04-12', OPEN) },
  { c: contract('conc-other-year', ALJUSTREL, S[1], 500_000, '2023-04-12', OPEN) },
  // Almodôvar has three contracts in 2024: too few; and one to a person the portal withheld.
  {
    c: contract('few-1', ALMODOVAR, S[0], 9_000, '2024-02-01', OPEN),
    expect: { supplier_concentration: 'not_assessable' },
  },
  { c: contract('few-2', ALMODOVAR, S[1], 9_000, '2024-03-01', OPEN) },
  {
    c: contract('withheld', ALMODOVAR, { nif: '', name: 'RGPD - Maria Silva' }, 9_000, '2024-04-01'),
    expect: {
      supplier_concentration: 'not_assessable',
      repeated_direct_awards: 'not_assessable',
      possible_splitting: 'not_assessable',
    },
  },

  // Art. 113.º n.º 2 — Alvito: supplier 5 had 12 000 € (2023) + 9 000 € by consulta prévia (2024) before this award.
  { c: contract('r113-a1', ALVITO, S[5], 12_000, '2023-03-01') },
  { c: contract('r113-a2', ALVITO, S[5], 9_000, '2024-02-01', { ...CP, legal_basis: CP_BY_VALUE }) },
  { c: contract('r113-a3', ALVITO, S[5], 5_000, '2024-05-01'), expect: { repeated_direct_awards: 'flagged' } },
  // Supplier 6 had 8 000 €: under the 20 000 €, and the data reach back to 2022-01-01.
  { c: contract('r113-b1', ALVITO, S[6], 8_000, '2023-04-01') },
  { c: contract('r113-b2', ALVITO, S[6], 5_000, '2024-05-01'), expect: { repeated_direct_awards: 'not_flagged' } },
  {
    c: contract('r113-material', ALVITO, S[6], 50_000, '2024-06-01', { legal_basis: MATERIAL }),
    expect: { repeated_direct_awards: 'not_flagged', possible_splitting: 'not_flagged' },
  },
  {
    c: contract('r113-no-basis', ALVITO, S[6], 5_000, '2024-07-01', { legal_basis: null }),
    expect: { repeated_direct_awards: 'not_assessable', possible_splitting: 'not_assessable' },
  },
  {
    c: contract('r113-open', ALVITO, S[6], 90_000, '2024-08-01', OPEN),
    expect: { repeated_direct_awards: 'not_flagged', possible_splitting: 'not_flagged' },
  },
  // Beja, 2023: the window opens on 2021-01-01, before the data held (2021-06-01); 5 000 € held, under the ceiling.
  { c: contract('r113-old1', BEJA, S[7], 5_000, '2022-05-01') },
  { c: contract('r113-old2', BEJA, S[7], 4_000, '2023-06-01'), expect: { repeated_direct_awards: 'not_assessable' } },
  // Madeira (Funchal): 22 000 € before, under the regional 27 000 € (the national 20 000 € would flag it).
  { c: contract('r113-mad1', FUNCHAL, S[8], 12_000, '2023-05-01', { legal_basis: MADEIRA_BY_VALUE }) },
  { c: contract('r113-mad2', FUNCHAL, S[8], 10_000, '2023-09-01', { legal_basis: MADEIRA_BY_VALUE }) },
  {
    c: contract('r113-mad3', FUNCHAL, S[8], 3_000, '2024-05-01', { legal_basis: MADEIRA_BY_VALUE }),
    expect: { repeated_direct_awards: 'not_flagged' },
  },
  // Azores (Vila do Porto): 80 000 € before, over the regional 75 000 €.
  { c: contract('r113-az1', VILA_DO_PORTO, S[9], 40_000, '2023-02-01', { legal_basis: AZORES_BY_VALUE }) },
  { c: contract('r113-az2', VILA_DO_PORTO, S[9], 40_000, '2023-10-01', { legal_basis: AZORES_BY_VALUE }) },
  {
    c: contract('r113-az3', VILA_DO_PORTO, S[9], 10_000, '2024-03-01', { legal_basis: AZORES_BY_VALUE }),
    expect: { repeated_direct_awards: 'flagged' },
  },

  // Splitting — Castro Verde, cleaning (CPV class 9091): 12 000 € and 9 000 € nineteen days apart: 21 000 €.
  {
    c: contract('split-a1', CASTRO_VERDE, S[10], 12_000, '2024-03-01', { cpvs: ['90910000'] }),
    expect: { possible_splitting: 'flagged' },
  },
  {
    c: contract('split-a2', CASTRO_VERDE, S[10], 9_000, '2024-03-20', { cpvs: ['90911000'] }),
    expect: { possible_splitting: 'flagged' },
  },
  // The same amounts 106 days apart: no window of 60 days holds both.
  {
    c: contract('split-b1', CASTRO_VERDE, S[11], 12_000, '2024-03-01', { cpvs: ['90910000'] }),
    expect: { possible_splitting: 'not_flagged' },
  },
  {
    c: contract('split-b2', CASTRO_VERDE, S[11], 9_000, '2024-06-15', { cpvs: ['90910000'] }),
    expect: { possible_splitting: 'not_flagged' },
  },
  // Cuba, July 2021: the window opens on 2021-05-02, before the data held.
  {
    c: contract('split-early', CUBA, S[12], 5_000, '2021-07-01'),
    expect: { possible_splitting: 'not_assessable' },
  },
  // Madeira: 12 000 € + 10 000 € under the regional 27 000 €.
  {
    c: contract('split-mad1', FUNCHAL, S[13], 12_000, '2024-03-01', { legal_basis: MADEIRA_BY_VALUE }),
    expect: { possible_splitting: 'not_flagged' },
  },
  { c: contract('split-mad2', FUNCHAL, S[13], 10_000, '2024-03-15', { legal_basis: MADEIRA_BY_VALUE }) },
  // Azores: 40 000 € + 36 000 € over the regional 75 000 €.
  {
    c: contract('split-az1', VILA_DO_PORTO, S[14], 40_000, '2024-04-01', { legal_basis: AZORES_BY_VALUE }),
    expect: { possible_splitting: 'flagged' },
  },
  { c: contract('split-az2', VILA_DO_PORTO, S[14], 36_000, '2024-04-10', { legal_basis: AZORES_BY_VALUE }) },

  // A body of the State: two ajustes diretos of 19 800 € on one day, the general law's 20 000 € presumed.
  {
    c: contract('split-state1', CUBA, S[16], 19_800, '2024-01-23', STATE_BODY),
    expect: { possible_splitting: 'flagged' },
  },
  { c: contract('split-state2', CUBA, S[16], 19_800, '2024-01-23', STATE_BODY) },
  // The same, executed on the mainland and in the Azores: under the highest ceiling (75 000 €), over the general
  // law's — the regime decides, and it cannot be told.
  {
    c: contract('split-two-regions1', CUBA, S[17], 19_800, '2024-01-23', TWO_REGIONS),
    expect: { possible_splitting: 'not_assessable' },
  },
  { c: contract('split-two-regions2', CUBA, S[17], 19_800, '2024-01-23', TWO_REGIONS) },
  // Art. 113.º n.º 2 for the same body: 12 000 € + 9 000 € before, over the presumed 20 000 €.
  { c: contract('r113-state1', CUBA, S[18], 12_000, '2023-03-01', STATE_BODY) },
  { c: contract('r113-state2', CUBA, S[18], 9_000, '2023-09-01', STATE_BODY) },
  {
    c: contract('r113-state3', CUBA, S[18], 5_000, '2024-03-01', STATE_BODY),
    expect: { repeated_direct_awards: 'flagged' },
  },
  // Art. 113.º n.º 2, Cuba: 12 000 € in August, then 9 000 € and 5 000 € on one day — which came first is unknown.
  { c: contract('r113-same-day0', CUBA, S[3], 12_000, '2024-08-01') },
  {
    c: contract('r113-same-day1', CUBA, S[3], 9_000, '2024-09-02'),
    expect: { repeated_direct_awards: 'not_flagged' }, // 12 000 € + 5 000 € at most: under 20 000 € either way
  },
  {
    c: contract('r113-same-day2', CUBA, S[3], 5_000, '2024-09-02'),
    expect: { repeated_direct_awards: 'not_assessable' }, // 12 000 €, or 21 000 € if the 9 000 € came first
  },
  { c: contract('r113-two-regions1', CUBA, S[17], 21_000, '2023-05-02', TWO_REGIONS) },
  {
    c: contract('r113-two-regions2', CUBA, S[17], 4_000, '2024-05-02', TWO_REGIONS),
    expect: { repeated_direct_awards: 'not_assessable' },
  },
  // Works chosen under art. 19.º d), one of them typed a concession: the works ceiling (30 000 €) for both.
  {
    c: contract('split-works1', ALVITO, S[19], 27_418.42, '2024-02-23', {
      legal_basis: WORKS_BY_VALUE,
      contract_types: ['Empreitadas de obras públicas'],
      cpvs: ['45232150'],
    }),
    expect: { possible_splitting: 'flagged' },
  },
  {
    c: contract('split-works2', ALVITO, S[19], 12_900, '2024-02-02', {
      legal_basis: WORKS_BY_VALUE,
      contract_types: ['Concessão de obras públicas'],
      cpvs: ['45232150'],
    }),
    expect: { possible_splitting: 'flagged' },
  },
];
const TYPES = ['supplier_concentration', 'repeated_direct_awards', 'possible_splitting'];

let t: TestApp;
let store: Store;
let key: string;
const idOf = new Map<string, number>();

beforeAll(async () => {
  const fresh = await freshStore();
  store = fresh.store;
  await store.writeProcurement({ contracts: CASES.map((k) => k.c), announcements: [], amendments: [] });
  for (const row of await store.listContracts({}, { limit: 1000 })) idOf.set(row.source_id, row.id);
  expect(idOf.size).toBe(CASES.length);
  t = await startTestApp({ store, dbPath: fresh.dbPath });
  key = (await t.keyOnPlan('red_flags', { domains: ['procurement'] })).key;
}, 120_000);
afterAll(() => t?.close());

async function flags(sourceId: string): Promise<Record<string, any>> {
  const res = await t.get(`/v1/procurement/contracts/${idOf.get(sourceId)}/red-flags`, { key });
  expect(res.status, sourceId).toBe(200);
  return Object.fromEntries(res.json.assessments.map((x: any) => [x.type, x]));
}
const ids = (...sourceIds: string[]) => sourceIds.map((s) => idOf.get(s));

describe('the checks that compare a contract with its buyer’s other contracts', () => {
  it('answer each hand-made contract as it was built to be', async () => {
    for (const k of CASES.filter((x) => x.expect)) {
      const got = await flags(k.c.source_id);
      for (const type of TYPES) expect(got[type], `${k.c.source_id}: ${type}`).toBeDefined();
      // A Portuguese reason writes its days in words ("1 de maio de 2024"), never an ISO date mid-sentence.
      for (const type of TYPES) expect(got[type].reason_pt, `${k.c.source_id}: ${type}`).not.toMatch(/\d{4}-\d\d-\d\d/);
      for (const [type, state] of Object.entries(k.expect ?? {}))
        expect(`${type}: ${got[type].state} — ${got[type].reason}`, k.c.source_id).toMatch(
          new RegExp(`^${type}: ${state} `),
        );
    }
  });

  it('supplier concentration: the share, the counts, the year of an undated contract, the cites', async () => {
    const { supplier_concentration: flagged } = await flags('conc-s0');
    expect(flagged).toMatchObject({
      code: 'PT-CONCENTRATION',
      state: 'flagged',
      values: { year: 2024, supplier_total_eur: 70_000, buyer_total_eur: 90_000, supplier_share: 0.7778 },
      thresholds: { max_supplier_share: 0.5, min_buyer_contracts: 10 },
      legal_basis: null,
      corpus: { buyer_contracts: 10, buyer_contracts_without_price: 1, supplier_contracts: 6 },
    });
    expect(flagged.reason).toMatch(/6 of the 10 priced contracts .* €70,000 of €90,000, 77.8 %/);
    const others = ids('conc-s0-01', 'conc-s0-02', 'conc-s0-03', 'conc-s0-04', 'conc-s0-undated');
    expect(flagged.cites[0]).toBe(idOf.get('conc-s0'));
    expect([...flagged.cites.slice(1)].sort()).toEqual([...others].sort());
    const { supplier_concentration: small } = await flags('conc-s1');
    expect(small.values.supplier_share).toBe(0.0556);
    const { supplier_concentration: few } = await flags('few-1');
    expect(few.reason).toMatch(/^Too few contracts to judge a share: .* 3 priced contracts in 2024/);
    const { supplier_concentration: withheld } = await flags('withheld');
    expect(withheld.reason).toMatch(/withheld the supplier's identity/);
  });

  it('art. 113.º n.º 2: the earlier awards by value (ajuste direto and consulta prévia) summed, cited', async () => {
    const { repeated_direct_awards: flagged } = await flags('r113-a3');
    expect(flagged).toMatchObject({
      code: 'PT-ART113',
      state: 'flagged',
      values: {
        procedure: 'ajuste_direto',
        regime: 'national',
        ceiling_eur: 20_000,
        window_from: '2022-01-01',
        awarded_on: '2024-05-01',
        earlier_awards: 2,
        earlier_sum_eur: 21_000,
      },
      legal_basis: 'CCP art. 113.º n.º 2 (as amended by DL 111-B/2017)',
      legal_basis_pt: 'CCP art. 113.º n.º 2 (na redação do DL 111-B/2017)',
    });
    expect(flagged.cites).toEqual(ids('r113-a3', 'r113-a1', 'r113-a2'));
    // The buyer follows a phrase here: its article in lower case, as in the middle of any sentence.
    expect(flagged.reason_pt).toMatch(/^Nos dados do serviço, o Município de Alvito tinha adjudicado a Fornecedor /);
    // Days as a Portuguese sentence writes them; `values` keeps them as dates.
    expect(flagged.reason_pt).toContain(' de 1 de janeiro de 2022 até antes de 1 de maio de 2024: ');
    expect(flagged.caveat_en).toMatch(/n\.º 3 .* n\.º 4 .* n\.º 5/);
    const { repeated_direct_awards: under } = await flags('r113-b2');
    expect(under.values).toMatchObject({ earlier_awards: 1, earlier_sum_eur: 8_000 });
    expect(under.reason).toMatch(/under the €20,000 ceiling of the ajuste direto/);
    // A first award says none was made before, in words: never "0 contracts".
    const { repeated_direct_awards: first } = await flags('split-a1');
    expect(first.values).toMatchObject({ earlier_awards: 0, earlier_sum_eur: 0 });
    expect(first.reason).toMatch(/had awarded .+ no contract for goods and services by ajuste direto .+ \(€0\), under/);
    expect(first.reason_pt).toMatch(/não tinha adjudicado a .+ nenhum contrato de bens e serviços .+ \(0 €\), abaixo/);
    const { repeated_direct_awards: old } = await flags('r113-old2');
    expect(old.reason).toMatch(/do not reach back to 2021-01-01/);
    expect(old.values.earlier_sum_eur).toBe(5_000);
    const { repeated_direct_awards: material } = await flags('r113-material');
    expect(material.reason).toMatch(/^Does not apply: the procedure was not chosen by value/);
    const { repeated_direct_awards: open } = await flags('r113-open');
    // The procedure type is quoted as the portal writes it, never read as an English noun ("a Concurso público").
    expect(open.reason).toBe(
      'Does not apply: the procedure "Concurso público" is neither an ajuste direto nor a consulta prévia.',
    );
    expect(open.reason_pt).toBe(
      'Não se aplica: um procedimento «Concurso público» não é um ajuste direto nem uma consulta prévia.',
    );
    const { repeated_direct_awards: sameDay } = await flags('r113-same-day2');
    expect(sameDay.reason).toMatch(/with 1 award of the same day, whose order the data do not give/);
    expect(sameDay.corpus).toMatchObject({ same_day_awards: 1 });
    const { repeated_direct_awards: noBasis } = await flags('r113-no-basis');
    expect(noBasis.reason).toMatch(/no legal basis/);
  });

  it('art. 113.º n.º 2 in Madeira and the Azores: the regional ceiling', async () => {
    const { repeated_direct_awards: madeira } = await flags('r113-mad3');
    expect(madeira.values).toMatchObject({ regime: 'madeira', ceiling_eur: 27_000, earlier_sum_eur: 22_000 });
    const { repeated_direct_awards: azores } = await flags('r113-az3');
    expect(azores.values).toMatchObject({ regime: 'azores', ceiling_eur: 75_000, earlier_sum_eur: 80_000 });
    expect(azores.reason).toMatch(/Azores regional regime/);
  });

  it('possible splitting: the window, the CPV class, the sum, the contracts cited; regional ceilings', async () => {
    const { possible_splitting: flagged } = await flags('split-a2');
    expect(flagged).toMatchObject({
      code: 'PT-ART22-SPLIT',
      state: 'flagged',
      values: {
        procedure: 'ajuste_direto',
        cpv_class: '9091',
        regime: 'national',
        ceiling_eur: 20_000,
        window_from: '2024-03-01',
        window_to: '2024-03-20',
        contracts_in_window: 2,
        window_sum_eur: 21_000,
      },
      thresholds: { window_days: 60, cpv_digits: 4, min_contracts: 2 },
    });
    expect(flagged.cites).toEqual(ids('split-a2', 'split-a1'));
    expect(flagged.legal_basis).toMatch(/art\. 22\.º .*unconfirmed/);
    const { possible_splitting: apart } = await flags('split-b1');
    expect(apart.reason).toMatch(/^No other such award lies in a window with it/);
    const { possible_splitting: early } = await flags('split-early');
    expect(early.reason).toMatch(/do not reach 2021-05-02/);
    const { possible_splitting: madeira } = await flags('split-mad1');
    expect(madeira.values).toMatchObject({ regime: 'madeira', ceiling_eur: 27_000, window_sum_eur: 22_000 });
    const { possible_splitting: azores } = await flags('split-az1');
    expect(azores.values).toMatchObject({ regime: 'azores', ceiling_eur: 75_000, window_sum_eur: 76_000 });
  });

  const PRESUMED =
    "a buyer no record ties to a region is held to the general law's ceiling, presumed and said so; one whose " +
    'places lie in two regions to the highest';
  it(PRESUMED, async () => {
    const { possible_splitting: state } = await flags('split-state1');
    expect(state.values).toMatchObject({
      regime: 'national',
      regime_told_by: 'presumed',
      ceiling_eur: 20_000,
      window_sum_eur: 39_600,
    });
    expect(state.reason).toMatch(/presumed \(nothing in the record ties the buyer to the Azores or Madeira\)/);
    const { repeated_direct_awards: r113 } = await flags('r113-state3');
    expect(r113.values).toMatchObject({ regime: 'national', regime_told_by: 'presumed', earlier_sum_eur: 21_000 });
    const { possible_splitting: two } = await flags('split-two-regions1');
    expect(two.values).toMatchObject({ regime: 'unknown', regime_told_by: null, ceiling_eur: 75_000 });
    expect(two.reason).toMatch(/highest ceiling of the three regimes.*under the general law's ceilings 2 of them/);
    const { repeated_direct_awards: twoR113 } = await flags('r113-two-regions2');
    expect(twoR113.reason).toMatch(/under the general law's €20,000 it would reach it/);
    const { possible_splitting: municipal } = await flags('split-a2');
    expect(municipal.values.regime_told_by).toBe('region');

    // As signals: the presumed regime costs its confidence 0.20, beside the 0.10 of a contract placed nowhere.
    await runDetection(store, { now: new Date('2025-07-01T12:00:00Z') });
    const signals = await store.listSignals({ types: ['possible_splitting'] }, { limit: 100 });
    const confidence = (id: string) =>
      signals.find((x) => x.key === `integrity:possible_splitting:base:${id}`)?.confidence;
    expect(confidence('split-state1')).toBeCloseTo((confidence('split-a2') as number) - 0.2 - 0.1, 5);
  });

  it('the kind of contract is the article the procedure was chosen under: art. 19.º, public works', async () => {
    const { possible_splitting: works } = await flags('split-works2');
    expect(works.values).toMatchObject({ ceiling_eur: 30_000, contracts_in_window: 2, window_sum_eur: 40_318.42 });
    expect(works.reason).toMatch(/ajuste direto for public works/);
    expect(works.cites).toEqual(ids('split-works2', 'split-works1'));
  });

  const ONCE = "a buyer's answer, which reads the buyer's contracts once, counts what each contract's own answer says";
  it(ONCE, async () => {
    for (const nif of new Set(CASES.flatMap((k) => k.c.buyers.map((b) => b.nif as string)))) {
      const res = await t.get(`/v1/procurement/entities/${nif}/red-flags`, { key });
      expect(res.status, res.body).toBe(200);
      const counts: Record<string, Record<string, number>> = {};
      const flagged: Record<number, string[]> = {};
      for (const k of CASES.filter((x) => x.c.buyers.some((b) => b.nif === nif))) {
        for (const a of Object.values(await flags(k.c.source_id))) {
          counts[a.type] ??= { flagged: 0, not_flagged: 0, not_assessable: 0 };
          counts[a.type][a.state] += 1;
          const id = idOf.get(k.c.source_id) as number;
          if (a.state === 'flagged') flagged[id] = [...(flagged[id] ?? []), a.type];
        }
      }
      expect(Object.fromEntries(res.json.by_type.map((x: any) => [x.type, x.counts])), nif).toEqual(counts);
      const listed = Object.fromEntries(res.json.flagged_contracts.map((x: any) => [x.id, x.flagged_types]));
      expect(listed, nif).toEqual(flagged);
    }
  });

  it('answer the same on REST, A2A and MCP', async () => {
    const op = t.app.registry.get('procurement_red_flags') as AnyOperation;
    const bodies = [];
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op, { id: idOf.get('r113-a3') as number }, key);
      expect(answer?.kind, channel).toBeUndefined();
      bodies.push(answerData(answer as CallAnswer));
    }
    const mine = (b: any) => b.assessments.filter((a: any) => TYPES.includes(a.type));
    expect(mine(bodies[0]).map((a: any) => a.state)).toEqual(['not_assessable', 'flagged', 'not_flagged']);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });
});

describe('the reasons and caveats in Portuguese', () => {
  it('say in Portuguese what the English says, on REST, A2A and MCP', async () => {
    const op = t.app.registry.get('procurement_red_flags') as AnyOperation;
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op, { id: idOf.get('conc-s0') as number }, key);
      const body = answerData(answer as CallAnswer) as any;
      const byType = Object.fromEntries(body.assessments.map((x: any) => [x.type, x]));
      const flagged = byType.supplier_concentration;
      expect(flagged.reason, channel).toMatch(/6 of the 10 priced contracts .* €70,000 of €90,000, 77.8 %/);
      expect(flagged.reason_pt, channel).toBe(
        'Fornecedor 10, Lda. tem 6 dos 10 contratos com preço do Município de Aljustrel em 2024: ' +
          '70 000 € de 90 000 €, 77,8 % do valor, acima do limiar de 50 %.',
      );
      expect(flagged.caveat_pt, channel).toMatch(/^Uma parte elevada pode ter causas simples/);
      for (const a of body.assessments) {
        expect(a.reason_pt, `${channel} ${a.type}`).toMatch(/\S/);
        expect(a.reason_pt, `${channel} ${a.type}`).not.toBe(a.reason);
        expect(a.caveat_pt === null, `${channel} ${a.type}`).toBe(a.caveat_en === null);
      }
    }
    const { supplier_concentration: withheld } = await flags('withheld');
    expect(withheld.reason_pt).toBe(
      'O portal ocultou a identidade do adjudicatário (RGPD): não se podem distinguir os seus outros contratos.',
    );
  });
});

describe('a buyer’s year, held from one answer to the next', () => {
  it('is read again once the data change: a contract added to the year moves the share', async () => {
    const { supplier_concentration: before } = await flags('conc-s0');
    expect(before).toMatchObject({ state: 'flagged', values: { buyer_total_eur: 90_000, supplier_share: 0.7778 } });
    const late = contract('conc-late', ALJUSTREL, S[5], 100_000, '2024-09-01', OPEN);
    await t.store.writeProcurement({ contracts: [late], announcements: [], amendments: [] });
    t.clock.advance(2_000); // answers follow the data version, checked at most once a second
    const { supplier_concentration: after } = await flags('conc-s0');
    expect(after).toMatchObject({
      state: 'not_flagged',
      values: { supplier_total_eur: 70_000, buyer_total_eur: 190_000, supplier_share: 0.3684 },
      corpus: { buyer_contracts: 11, supplier_contracts: 6 },
    });
  });
});
