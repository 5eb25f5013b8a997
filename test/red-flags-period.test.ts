/**
 * The submission-period flags (docs/integrity.md): R003 (Cardinal's 15 days) and PT-R003-FENCE (the lower fence of
 * comparable procedures' periods), on hand-made contracts and notices — flagged, not flagged and not assessable —
 * and the buyer-and-period answer procurement_entity_red_flags, whose counts must be what each contract's own
 * procurement_red_flags answer says, on REST, A2A and MCP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../src/core/operation.js';
import type { AnnouncementInput, ContractInput, EntityInput, Party } from '../src/store/procurement-records.js';
import { BUYERS, contractInput, IMPORTED_AT, SUPPLIERS, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { answerData, type CallAnswer, CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

const [buyer, otherBuyer, bigBuyer, noticeBuyer, demoBuyer] = BUYERS;
const [a, b, c] = SUPPLIERS;
const party = (m: (typeof BUYERS)[number]): Party => ({ nif: m.nif, name: `Município de ${m.name}` });

const SERVICES = ['Aquisição de serviços'];
const GOODS = ['Aquisição de bens móveis'];
const WORKS = ['Empreitadas de obras públicas'];
const OPEN = 'Concurso público';
const URGENT = 'Concurso público urgente';
const RESTRICTED = 'Concurso limitado por prévia qualificação';
const NEGOTIATED = 'Procedimento de negociação';

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function notice(
  sourceId: string,
  published: string,
  days: number | null,
  procedure: string,
  types: string[],
): AnnouncementInput {
  return {
    source: 'base',
    source_id: sourceId,
    imported_at: IMPORTED_AT,
    published_on: published,
    deadline_on: days === null ? null : addDays(published, days),
    buyer: party(noticeBuyer),
    object: `Anúncio ${sourceId}`,
    cpvs: ['79341000'],
    base_price_eur: 100_000,
    contract_types: types,
    procedure_type: procedure,
    municipality_ids: [noticeBuyer.id],
    district: null,
    link: null,
  };
}

/** An open-procedure contract of `buyer` with every field the other checks read, none of them flagged. */
function contract(sourceId: string, published: string, changes: Partial<ContractInput> = {}): ContractInput {
  return contractInput(sourceId, {
    procedure_type: OPEN,
    contract_types: SERVICES,
    buyers: [party(buyer)],
    suppliers: [a],
    competitors: [a, b, c],
    base_price_eur: 100_000,
    price_eur: 90_000,
    effective_price_eur: 95_000,
    published_on: published,
    awarded_on: published,
    signed_on: published,
    closed_on: addDays(published, 90),
    execution_days: 90,
    municipality_ids: [buyer.id],
    ...changes,
  });
}

/**
 * Comparable notices with no contract of their own (the corpus). Group A, open tenders for services in 2024:
 * 20 periods here, and the five of the contracts below (14, 15, 16, 21, 30 days) — 25 periods whose type-8
 * quartiles are Q1 = 30 and Q3 = 36 (numpy's `median_unbiased`, R's type 8), lower fence 30 − 1.5 × 6 = 21 days.
 */
const GROUP_A = [29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 38, 39, 40, 41];
/** Group C, restricted works tenders: 20 periods here and the contract's 10: Q1 24.6667, Q3 67.3333, fence < 0. */
const GROUP_C = Array.from({ length: 20 }, (_, i) => 10 + 4 * i);
const corpus: AnnouncementInput[] = [
  ...GROUP_A.map((d, i) => notice(`bg-a-${i}`, addDays('2024-01-08', 14 * i), d, OPEN, SERVICES)),
  // Open tenders for services of 2023, all of 3 days: another year, so not comparable (they would pull the fence
  // under the 2024 contracts' periods if they were).
  ...Array.from({ length: 25 }, (_, i) => notice(`bg-a2023-${i}`, addDays('2023-02-01', 10 * i), 3, OPEN, SERVICES)),
  // Group B, urgent tenders for goods: four here and the contract's, five in all, under the 20 the fence needs.
  ...[5, 6, 7, 9].map((d, i) => notice(`bg-b-${i}`, addDays('2024-02-05', 30 * i), d, URGENT, GOODS)),
  ...GROUP_C.map((d, i) => notice(`bg-c-${i}`, addDays('2024-01-15', 15 * i), d, RESTRICTED, WORKS)),
  // Group D, negotiations for services: every period 30 days, so Q1 = Q3 = 30 and the fence is 30 itself.
  ...Array.from({ length: 20 }, (_, i) => notice(`bg-d-${i}`, addDays('2024-01-10', 15 * i), 30, NEGOTIATED, SERVICES)),
];

interface Case {
  id: string;
  published: string;
  notice?: AnnouncementInput;
  changes?: Partial<ContractInput>;
  r003: string;
  fence: string;
}

/** The buyer's contracts: what each must answer for R003 and PT-R003-FENCE. */
const CASES: Case[] = [
  {
    id: 'a-14',
    published: '2024-03-15',
    notice: notice('n-a-14', '2024-02-01', 14, OPEN, SERVICES),
    r003: 'flagged',
    fence: 'flagged',
  },
  // Cardinal flags under 15 days (`duration < threshold`): 15 itself is not short for R003.
  {
    id: 'a-15',
    published: '2024-04-20',
    notice: notice('n-a-15', '2024-03-01', 15, OPEN, SERVICES),
    r003: 'not_flagged',
    fence: 'flagged',
  },
  {
    id: 'a-16',
    published: '2024-06-20',
    notice: notice('n-a-16', '2024-05-02', 16, OPEN, SERVICES),
    r003: 'not_flagged',
    fence: 'flagged',
  },
  // Exactly on the fence: flagged, as Cardinal's fence comparisons are inclusive.
  {
    id: 'a-21',
    published: '2024-09-10',
    notice: notice('n-a-21', '2024-07-10', 21, OPEN, SERVICES),
    r003: 'not_flagged',
    fence: 'flagged',
  },
  {
    id: 'a-30',
    published: '2024-08-01',
    notice: notice('n-a-30', '2024-06-03', 30, OPEN, SERVICES),
    r003: 'not_flagged',
    fence: 'not_flagged',
  },
  {
    id: 'b-8',
    published: '2024-07-25',
    notice: notice('n-b-8', '2024-07-01', 8, URGENT, GOODS),
    changes: { procedure_type: URGENT, contract_types: GOODS },
    r003: 'flagged',
    fence: 'not_assessable',
  },
  {
    id: 'c-10',
    published: '2024-10-15',
    notice: notice('n-c-10', '2024-09-02', 10, RESTRICTED, WORKS),
    changes: { procedure_type: RESTRICTED, ocds_method: 'selective', contract_types: WORKS },
    r003: 'flagged',
    fence: 'not_flagged',
  },
  {
    id: 'd-30',
    published: '2024-11-20',
    notice: notice('n-d-30', '2024-10-01', 30, NEGOTIATED, SERVICES),
    changes: { procedure_type: NEGOTIATED, ocds_method: 'limited' },
    r003: 'not_flagged',
    fence: 'not_flagged',
  },
  { id: 'no-notice', published: '2024-01-10', r003: 'not_assessable', fence: 'not_assessable' },
  {
    id: 'direct-award',
    published: '2023-11-05',
    changes: { procedure_type: 'Ajuste Direto Regime Geral', ocds_method: 'direct', competitors: [] },
    r003: 'not_assessable',
    fence: 'not_assessable',
  },
  {
    id: 'notice-not-held',
    published: '2024-02-20',
    changes: { announcement_number: 'n-missing' },
    r003: 'not_assessable',
    fence: 'not_assessable',
  },
  {
    id: 'no-deadline',
    published: '2024-05-15',
    notice: notice('n-no-deadline', '2024-04-01', null, OPEN, SERVICES),
    r003: 'not_assessable',
    fence: 'not_assessable',
  },
  {
    id: 'deadline-before',
    published: '2024-06-01',
    notice: notice('n-before', '2024-05-10', -9, OPEN, SERVICES),
    r003: 'not_assessable',
    fence: 'not_assessable',
  },
  // The shape of the real copy in data/real/: no notice, competitors, base price, effective price or closing date.
  {
    id: 'real-copy-shape',
    published: '2023-12-01',
    changes: { competitors: [], base_price_eur: null, effective_price_eur: null, closed_on: null },
    r003: 'not_assessable',
    fence: 'not_assessable',
  },
];

/** Another buyer's short-period contract: never in `buyer`'s answer. */
const OTHERS = [
  contract('other-5', '2022-05-05', {
    buyers: [party(otherBuyer)],
    announcement_number: 'n-other-5',
  }),
];
const OTHER_NOTICE = notice('n-other-5', '2022-04-01', 5, OPEN, SERVICES);

/** A real council's contracts as the demo makes them (source `demo`): none flagged for the short period. */
const GENERATED = ['2024-03-04', '2024-05-06'].map((day, i) =>
  contract(`demo-${i}`, day, { source: 'demo', buyers: [party(demoBuyer)], municipality_ids: [demoBuyer.id] }),
);

/** 1 001 contracts of one buyer, one a day from 2021-01-01: one more than an answer assesses. */
const BIG = Array.from({ length: 1001 }, (_, i) =>
  contract(`big-${i}`, addDays('2021-01-01', i), { buyers: [party(bigBuyer)], municipality_ids: [bigBuyer.id] }),
);

let t: TestApp;
let key: string;
const idOf = new Map<string, number>();
const sourceIdOf = new Map<number, string>();
const op = (name: string) => t.app.registry.get(name) as AnyOperation;

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  const municipal = (m: (typeof BUYERS)[number]): EntityInput => ({
    nif: m.nif,
    name: `Município de ${m.name}`,
    kind: 'municipality',
    country: 'PT',
    municipality_id: m.id,
  });
  const entities = [
    ...[buyer, otherBuyer, bigBuyer, noticeBuyer, demoBuyer].map(municipal),
    ...[a, b, c].map((p): EntityInput => ({ ...p, kind: 'company', country: 'PT', municipality_id: null })),
  ];
  const contracts = [
    ...CASES.map((k) =>
      contract(k.id, k.published, { announcement_number: k.notice?.source_id ?? null, ...k.changes }),
    ),
    ...OTHERS,
    ...GENERATED,
    ...BIG,
  ];
  const announcements = [...corpus, ...CASES.flatMap((k) => k.notice ?? []), OTHER_NOTICE];
  await store.writeProcurement({ entities, contracts, announcements, amendments: [] });
  await store.refreshProcurementRollups();
  let after: { date: string | null; id: number } | undefined;
  for (;;) {
    const page = await store.listContracts({}, { after, limit: 500 });
    for (const row of page) {
      idOf.set(row.source_id, row.id);
      sourceIdOf.set(row.id, row.source_id);
    }
    const last = page.at(-1);
    if (!last || page.length < 500) break;
    after = { date: last.published_on, id: last.id };
  }
  expect(idOf.size).toBe(contracts.length);
  t = await startTestApp({ store, dbPath });
  key = (await t.keyOnPlan('red_flags_period', { domains: ['procurement'] })).key;
}, 120_000);
afterAll(() => t?.close());

const flagsOf = async (id: string) => {
  const res = await t.get(`/v1/procurement/contracts/${idOf.get(id)}/red-flags`, { key });
  expect(res.status, id).toBe(200);
  return res.json;
};
const assessment = (answer: any, type: string) => answer.assessments.find((x: any) => x.type === type);

describe('R003 and PT-R003-FENCE on one contract', () => {
  it('answers each hand-made contract in the state it was built for', async () => {
    for (const k of CASES) {
      const answer = await flagsOf(k.id);
      expect(assessment(answer, 'short_submission_period').state, `${k.id}: R003`).toBe(k.r003);
      expect(assessment(answer, 'short_submission_period_vs_comparable').state, `${k.id}: fence`).toBe(k.fence);
    }
  });

  it("R003 compares the notice's days with Cardinal's 15, and says it is not a legal minimum", async () => {
    const short = assessment(await flagsOf('a-14'), 'short_submission_period');
    expect(short).toMatchObject({
      code: 'R003',
      version: 1,
      values: {
        announcement_id: expect.any(Number),
        published_on: '2024-02-01',
        deadline_on: '2024-02-15',
        period_days: 14,
      },
      thresholds: { min_period_days: 15 },
      legal_basis: null,
      cites: [idOf.get('a-14')],
    });
    expect(short.reason).toBe('The notice gave 14 days to submit proposals, under 15.');
    expect(short.caveat_en).toMatch(/not the law/);
    expect(short.caveat_en).toMatch(/art\. 135\.º\/136\.º/);
  });

  it('the fence is that of the same procedure type, contract types and year, with its statistics', async () => {
    const fence = assessment(await flagsOf('a-16'), 'short_submission_period_vs_comparable');
    expect(fence).toMatchObject({
      code: 'PT-R003-FENCE',
      state: 'flagged',
      values: { period_days: 16, procedure_type: OPEN, contract_types: 'Aquisição de serviços', year: '2024' },
      thresholds: { fence_iqr_multiplier: 1.5, min_comparables: 20 },
      // 25 notices of 2024 (the 2023 ones left out): Q1 30, Q3 36, fence 21.
      corpus: { comparables: 25, q1: 30, q3: 36, lower_fence: 21 },
    });
    expect(fence.reason).toMatch(/^16 days: at or below the lower fence of the 25 notices of a Concurso público/);
    const typical = assessment(await flagsOf('a-30'), 'short_submission_period_vs_comparable');
    expect(typical.reason).toMatch(/^30 days: above the lower fence/);
    expect(typical.corpus).toEqual(fence.corpus);
  });

  it('does not flag when the fence is not above 0, nor the common period when Q1 = Q3', async () => {
    const wide = assessment(await flagsOf('c-10'), 'short_submission_period_vs_comparable');
    expect(wide.corpus).toEqual({ comparables: 21, q1: 24.6667, q3: 67.3333, lower_fence: -39.3333 });
    expect(wide.reason).toMatch(/is not above 0: no period is short for them/);
    const common = assessment(await flagsOf('d-30'), 'short_submission_period_vs_comparable');
    expect(common.corpus).toEqual({ comparables: 21, q1: 30, q3: 30, lower_fence: 30 });
    expect(common.reason).toMatch(/the common period \(Q1 = Q3\)/);
  });

  it('says which field or which corpus is missing when not assessable', async () => {
    const reasons = async (id: string) => {
      const answer = await flagsOf(id);
      return [
        assessment(answer, 'short_submission_period').reason,
        assessment(answer, 'short_submission_period_vs_comparable').reason,
      ];
    };
    expect((await reasons('b-8'))[1]).toMatch(
      /^Only 5 notices of a Concurso público urgente .* the comparison needs 20\.$/,
    );
    expect((await reasons('no-notice'))[0]).toBe(
      'The record names no procurement notice. The submission period is unknown.',
    );
    expect((await reasons('direct-award'))[1]).toMatch(/names no procurement notice \(a direct procedure has none\)/);
    expect((await reasons('notice-not-held'))[0]).toMatch(/names notice n-missing, which the service does not hold/);
    expect((await reasons('no-deadline'))[0]).toMatch(/gives no proposal deadline/);
    expect((await reasons('deadline-before'))[1]).toMatch(/before its publication .*contradict each other/);
    const blank = assessment(await flagsOf('no-notice'), 'short_submission_period');
    expect(blank.values).toEqual({ announcement_id: null, published_on: null, deadline_on: null, period_days: null });
  });
});

describe('procurement_entity_red_flags: a buyer and a period', () => {
  /** What the contracts' own answers say: per type and state, and the types flagged on each, newest first. */
  async function expected(ids: string[]) {
    const counts: Record<string, Record<string, number>> = {};
    const flagged: { id: number; flagged_types: string[] }[] = [];
    for (const id of ids) {
      const answer = await flagsOf(id);
      for (const x of answer.assessments) {
        counts[x.type] ??= { flagged: 0, not_flagged: 0, not_assessable: 0 };
        counts[x.type][x.state] += 1;
      }
      const types = answer.assessments.filter((x: any) => x.state === 'flagged').map((x: any) => x.type);
      if (types.length > 0) flagged.push({ id: answer.contract_id, flagged_types: types });
    }
    return { counts, flagged };
  }
  const byPublication = (ids: string[]) =>
    [...ids].sort((x, y) => {
      const [px, py] = [x, y].map((id) => CASES.find((k) => k.id === id)?.published ?? '');
      return px < py ? 1 : px > py ? -1 : (idOf.get(y) ?? 0) - (idOf.get(x) ?? 0);
    });

  it("counts per type and state what each contract's own answer says, and lists the flagged ones", async () => {
    const res = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags`, { key });
    expect(res.status, res.body).toBe(200);
    const ids = byPublication(CASES.map((k) => k.id));
    const want = await expected(ids);
    expect(res.json).toMatchObject({
      nif: buyer.nif,
      name: `Município de ${buyer.name}`,
      from: null,
      to: null,
      contracts_assessed: CASES.length,
      truncated: false,
      contracts_flagged: want.flagged.length,
    });
    const counts = Object.fromEntries(res.json.by_type.map((x: any) => [x.type, x.counts]));
    expect(counts).toEqual(want.counts);
    expect(counts.short_submission_period).toEqual({ flagged: 3, not_flagged: 5, not_assessable: 6 });
    expect(counts.short_submission_period_vs_comparable).toEqual({ flagged: 4, not_flagged: 3, not_assessable: 7 });
    expect(res.json.flagged_contracts.map((x: any) => ({ id: x.id, flagged_types: x.flagged_types }))).toEqual(
      want.flagged,
    );
    expect(res.json.flagged_contracts[0]).toMatchObject({
      source: 'base',
      synthetic: false,
      object: `Contrato ${sourceIdOf.get(want.flagged[0].id)}`,
      price_eur: 90_000,
    });
    // Another buyer's contracts are not this buyer's.
    expect(res.json.flagged_contracts.map((x: any) => x.id)).not.toContain(idOf.get('other-5'));
  });

  it('respects from and to (publication dates, inclusive)', async () => {
    const res = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags?from=2024-04-20&to=2024-08-01`, { key });
    expect(res.status, res.body).toBe(200);
    const inside = CASES.filter((k) => k.published >= '2024-04-20' && k.published <= '2024-08-01').map((k) => k.id);
    expect(inside.sort()).toEqual(['a-15', 'a-16', 'a-30', 'b-8', 'deadline-before', 'no-deadline']);
    const want = await expected(byPublication(inside));
    expect(res.json).toMatchObject({ from: '2024-04-20', to: '2024-08-01', contracts_assessed: 6, truncated: false });
    expect(Object.fromEntries(res.json.by_type.map((x: any) => [x.type, x.counts]))).toEqual(want.counts);
    expect(res.json.flagged_contracts.map((x: any) => x.id)).toEqual(want.flagged.map((x) => x.id));
    // The short-period types these contracts were built for (the corpus types may flag others: want covers them).
    const shortPeriod = res.json.flagged_contracts
      .filter((x: any) => x.flagged_types.some((type: string) => type.startsWith('short_submission_period')))
      .map((x: any) => sourceIdOf.get(x.id));
    expect(shortPeriod).toEqual(['b-8', 'a-16', 'a-15']);
    const onlyFrom = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags?from=2024-10-15`, { key });
    expect(onlyFrom.json.contracts_assessed).toBe(2); // c-10 and d-30
    const onlyTo = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags?to=2023-12-01`, { key });
    expect(onlyTo.json.contracts_assessed).toBe(2); // direct-award and real-copy-shape
    const swapped = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags?from=2024-02-01&to=2024-01-01`, {
      key,
    });
    expect(swapped.status).toBe(422);
    expect(swapped.json.errors.map((e: any) => e.field)).toContain('from');
  });

  it('says when the counts are of generated contracts, on every channel, flagged or not', async () => {
    const real = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags`, { key });
    expect(real.json.synthetic).toBe(false);
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op('procurement_entity_red_flags'), { nif: demoBuyer.nif }, key);
      expect(answer?.kind, channel).toBeUndefined();
      const body = answerData(answer as CallAnswer);
      expect(body, channel).toMatchObject({ contracts_assessed: 2, synthetic: true });
      // Counted, and nothing in flagged_contracts to say it: the answer itself must.
      expect(body.by_type.find((x: any) => x.type === 'short_submission_period').counts.not_assessable).toBe(2);
    }
    // A period that holds none: the entity is named in generated contracts alone, and its zeros say so too.
    const none = await t.get(`/v1/procurement/entities/${demoBuyer.nif}/red-flags?from=2025-01-01`, { key });
    expect(none.json).toMatchObject({ contracts_assessed: 0, synthetic: true });
  });

  it('tells a supplier its zeros are no clean bill, in English and in Portuguese, the same facts', async () => {
    const supplied = CASES.length + OTHERS.length + GENERATED.length + BIG.length; // `a` supplies every contract
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op('procurement_entity_red_flags'), { nif: a.nif }, key);
      expect(answer?.kind, channel).toBeUndefined();
      const body = answerData(answer as CallAnswer);
      expect(body, channel).toMatchObject({ contracts_assessed: 0, contracts_flagged: 0 });
      expect(body.note, channel).toBe(
        `${a.name} is a buyer in no contract held, so none was assessed here: the checks run on a buyer's ` +
          `contracts. It is a supplier in ${supplied} contracts (procurement_contracts with supplier=${a.nif}; ` +
          `GET /v1/procurement/contracts?supplier=${a.nif} lists them); the flags about it as a supplier (R048, ` +
          "heterogeneous supplier) are in each of those contracts' red flags (procurement_red_flags with the " +
          "contract's id; GET /v1/procurement/contracts/{id}/red-flags).",
      );
      expect(body.note_pt, channel).toBe(
        `${a.name} não é entidade adjudicante em nenhum contrato do serviço, pelo que nenhum foi avaliado aqui: as ` +
          `verificações correm sobre os contratos de quem adjudica. É adjudicatário em ${supplied} contratos ` +
          `(procurement_contracts com supplier=${a.nif}; GET /v1/procurement/contracts?supplier=${a.nif} ` +
          'lista-os); os indícios sobre ele como adjudicatário (R048, fornecedor heterogéneo) estão na avaliação de ' +
          'integridade de cada um desses contratos (procurement_red_flags com o id do contrato; ' +
          'GET /v1/procurement/contracts/{id}/red-flags).',
      );
    }
    // The addresses the note names answer: a contract `a` supplies, then that contract's red flags.
    const note: string = (await t.get(`/v1/procurement/entities/${a.nif}/red-flags`, { key })).json.note;
    const [, contractsPath, flagsPath] = /GET (\S+?) lists them.*GET (\S+?)\)\.$/.exec(note) ?? [];
    const listed = await t.get(`${contractsPath}&limit=1`, { key });
    expect(listed.status, listed.body).toBe(200);
    expect(listed.json.items[0].suppliers.map((p: any) => p.nif)).toContain(a.nif);
    const flags = await t.get(flagsPath.replace('{id}', String(listed.json.items[0].id)), { key });
    expect(flags.json).toMatchObject({ contract_id: listed.json.items[0].id, assessments: expect.any(Array) });
    // A buyer has nothing to be told, in either language.
    const council = await t.get(`/v1/procurement/entities/${buyer.nif}/red-flags`, { key });
    expect(council.json).toMatchObject({ note: null, note_pt: null });
  });

  it('assesses the newest 1 000 contracts of the period and says when it held more', async () => {
    const all = await t.get(`/v1/procurement/entities/${bigBuyer.nif}/red-flags`, { key });
    expect(all.status, all.body).toBe(200);
    expect(all.json).toMatchObject({ contracts_assessed: 1000, truncated: true });
    for (const x of all.json.by_type) {
      expect(x.counts.flagged + x.counts.not_flagged + x.counts.not_assessable, x.type).toBe(1000);
    }
    // Without the oldest (2021-01-01), the period holds exactly 1 000: all assessed.
    const rest = await t.get(`/v1/procurement/entities/${bigBuyer.nif}/red-flags?from=2021-01-02`, { key });
    expect(rest.json).toMatchObject({ contracts_assessed: 1000, truncated: false });
    expect(rest.json.by_type).toEqual(all.json.by_type);
  });

  it('answers the same on REST, A2A and MCP, and an unknown entity as not found on each', async () => {
    const entityOp = op('procurement_entity_red_flags');
    const input = { nif: buyer.nif, from: '2024-01-01', to: '2024-12-31' };
    const bodies = [];
    const unknown = withCheckDigit('50999999');
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, entityOp, input, key);
      expect(answer?.kind, `${channel}: ${answer?.body}`).toBeUndefined();
      bodies.push(answerData(answer as CallAnswer));
      const gone = await callOn(t, channel, entityOp, { nif: unknown }, key);
      expect(gone?.kind, channel).toBe('not-found');
      expect(gone?.formProblem, channel).toBeUndefined();
      if (channel === 'rest') expect(gone?.status).toBe(404);
    }
    expect(bodies[0].contracts_assessed).toBeGreaterThan(0);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it("a contract's flags answer the same on the three channels", async () => {
    const bodies = [];
    for (const channel of CHANNEL_NAMES) {
      const answer = await callOn(t, channel, op('procurement_red_flags'), { id: idOf.get('a-16') as number }, key);
      expect(answer?.kind, channel).toBeUndefined();
      bodies.push(answerData(answer as CallAnswer));
    }
    expect(assessment(bodies[0], 'short_submission_period_vs_comparable').state).toBe('flagged');
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });
});
