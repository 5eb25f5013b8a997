/**
 * Integrity signals (docs/signals.md, "Integrity"): detection writes one `integrity` signal per flagged contract and
 * type, in the contract's case, with its evidence and a confidence that says how much rests beyond the record;
 * withdraws it when the contract no longer flags; judges a buyer's old contracts again when a new one of the buyer
 * changes them; reads nothing more when nothing changed; and alert rules select the family, the types and a
 * confidence floor, leaving out the signal withdrawn before they ran; a flag about one party (R048, R025) names it;
 * the legal basis is cited in the summary's language. Hand-made contracts (the legal basis: the demo's), on both
 * stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { integritySignal } from '../src/detect/integrity-signal.js';
import { Places } from '../src/detect/places.js';
import { runDetection } from '../src/detect/run-detection.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS } from '../src/integrity/checks/excessive-unsuccessful-bids.js';
import type { ContractDetailRecord, ContractInput, Party } from '../src/store/procurement-records.js';
import type { MunicipalityRecord } from '../src/store/records.js';
import type { SignalInput, SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { contractInput, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const BEJA = readMunicipalities().find((m) => m.code === '0205') as MunicipalityRecord;
const party = (n: number, name: string): Party => ({
  nif: withCheckDigit(`5190001${String(n).padStart(1, '0')}`),
  name,
});
const BIG = party(1, 'Grande Fornecedor, Lda.');
const OTHERS = Array.from({ length: 8 }, (_, i) => party(i + 2, `Fornecedor ${i + 2}, Lda.`));

function contract(id: string, to: Party, price: number, signed: string, changes: Partial<ContractInput> = {}) {
  return contractInput(id, {
    contract_types: ['Aquisição de bens móveis'],
    cpvs: ['30192000'],
    buyers: [{ nif: BEJA.nif, name: `Município de ${BEJA.name}` }],
    suppliers: [to],
    base_price_eur: price * 2,
    price_eur: price,
    published_on: signed,
    signed_on: signed,
    execution_days: 3650,
    execution_places_text: `Portugal, ${BEJA.district}, ${BEJA.name}`,
    municipality_ids: [BEJA.id],
    link: `https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=${id}`,
    ...changes,
  });
}

// One open tender with a single bid at its base price; ten small contracts of 2024 with as many suppliers (no
// supplier holds half the year's value), one of them BIG's.
const SINGLE = contract('single', OTHERS[2], 50_000, '2024-02-01', {
  competitors: [OTHERS[2]],
  base_price_eur: 50_000,
});
const YEAR = [
  contract('big-1', BIG, 10_000, '2024-03-01'),
  ...OTHERS.map((s, i) => contract(`small-${i}`, s, 10_000, `2024-04-${String(i + 10)}`)),
];

let t: TestApp;
let store: Store;
let key: string;

async function integrity(): Promise<Map<string, SignalRecord>> {
  const rows = await store.listSignals({ family: 'integrity' }, { limit: 1000 });
  return new Map(rows.map((s) => [s.key, s]));
}
const detect = () => runDetection(store, { now: NOW });

beforeAll(async () => {
  ({ store } = await freshStore());
  await store.writeProcurement({ contracts: [SINGLE, ...YEAR], announcements: [], amendments: [] });
  t = await startTestApp({ store });
  key = (await t.keyOnPlan('integrity_signals', { domains: ['signals', 'procurement'] })).key;
}, 120_000);
afterAll(() => t?.close());

describe('integrity signals from detection', () => {
  it('one signal per flagged contract and type, in its case, with evidence and why it matters', async () => {
    const summary = await detect();
    expect(summary.integrity.contracts).toBe(1 + YEAR.length);
    const signals = await integrity();
    expect([...signals.keys()].sort()).toEqual(
      ['integrity:price_at_base_price:base:single', 'integrity:single_bid:base:single'].sort(),
    );
    const single = signals.get('integrity:single_bid:base:single') as SignalRecord;
    expect(single).toMatchObject({
      family: 'integrity',
      type: 'single_bid',
      municipality_id: BEJA.id,
      status: 'active',
      amount_eur: 50_000,
      // The portal's competitor list may be incomplete: BASE's 0.95 less 0.1.
      confidence: 0.85,
    });
    expect(single.summary_pt).toContain('não uma acusação');
    // About the contract: its buyer and its supplier named.
    expect(single.title_pt).toBe(`Proposta única: Contrato single (Município de ${BEJA.name})`);
    expect(single.summary_pt).toContain(`«Contrato single» do Município de ${BEJA.name} com ${OTHERS[2].name}, de`);
    expect(single.summary_en).toContain('One competitor in an open procedure.');
    expect(single.evidence[0]).toMatchObject({ source_type: 'procurement_contract', source_url: SINGLE.link });
    // Why it matters, the next step and the article are the type's: stored once, given to each signal as it is read.
    expect(single.why_it_matters_pt).toBeNull();
    const atBase = signals.get('integrity:price_at_base_price:base:single') as SignalRecord;
    const served = await t.get(`/v1/signals/${atBase.id}`, { key });
    expect(served.status, served.body).toBe(200);
    expect(served.json.why_it_matters_pt).toMatch(/preço base é o máximo/);
    expect(served.json.why_it_matters_en).toMatch(/most the buyer is willing to pay/);
    expect(served.json.next_step_pt).toMatch(/^Confirmar o preço base/);
    expect(served.json.evidence.map((e: { source_type: string }) => e.source_type)).toEqual([
      'procurement_contract',
      'document',
    ]);
    expect(served.json.evidence[1]).toMatchObject({
      source_title: 'CCP art. 47.º n.º 1; art. 70.º n.º 2 d)',
      excerpt_pt: expect.stringMatching(/^O preço base é o preço máximo/),
    });
    // The contract-level flag rests on the record alone: full confidence.
    expect(signals.get('integrity:price_at_base_price:base:single')?.confidence).toBe(0.95);
    // Both in the contract's case, which the first flag of the catalogue opened.
    expect(single.case_id).not.toBeNull();
    expect(signals.get('integrity:price_at_base_price:base:single')?.case_id).toBe(single.case_id);
    const kase = await store.getCase(single.case_id as number);
    expect(kase).toMatchObject({ family: 'integrity', source_count: 2 });
  });

  it('is served by signals_list with family=integrity and a synthetic flag of false for real data', async () => {
    const res = await t.get('/v1/signals?family=integrity', { key });
    expect(res.status, res.body).toBe(200);
    expect(res.json.items.map((s: any) => s.type).sort()).toEqual(['price_at_base_price', 'single_bid']);
    expect(res.json.items.every((s: any) => s.synthetic === false)).toBe(true);
  });

  it('reads nothing more when nothing changed', async () => {
    const again = await detect();
    expect(again.integrity.contracts).toBe(0);
    expect(again.signals).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
  });

  const AGAIN =
    "judges the buyer's old contracts again when a new one changes them, and withdraws what no longer flags";
  it(AGAIN, async () => {
    // BIG wins a second contract of 2024 large enough to hold more than half the year's value; the single bid
    // is corrected to three competitors.
    const second = contract('big-2', BIG, 200_000, '2024-06-01');
    const corrected = { ...SINGLE, competitors: [OTHERS[2], OTHERS[3], OTHERS[4]] };
    await store.writeProcurement({ contracts: [second, corrected], announcements: [], amendments: [] });
    const summary = await detect();
    // Every contract of the buyer, not only the two written.
    expect(summary.integrity.contracts).toBe(2 + YEAR.length);
    const signals = await integrity();
    expect(signals.get('integrity:single_bid:base:single')?.status).toBe('withdrawn');
    // The old contract of BIG flags now, though its own record did not change.
    expect(signals.get('integrity:supplier_concentration:base:big-1')).toMatchObject({
      status: 'active',
      type: 'supplier_concentration',
    });
    expect(signals.get('integrity:supplier_concentration:base:big-2')?.status).toBe('active');
    expect(signals.has('integrity:supplier_concentration:base:small-0')).toBe(false);
  });

  it('alert rules select the integrity family, its types and a confidence floor, not a withdrawn signal', async () => {
    const account = (
      await store.createAccount({ name: 'Redação', plan_code: 'premium', beta: false, now: NOW.toISOString() })
    ).id;
    const rule = async (name: string, o: object) =>
      (await createAlertRule(store, { account, name, type: 'signal_type', ...o }, NOW)).id;
    const family = await rule('Integridade', { signalFamilies: ['integrity'] });
    const confident = await rule('Integridade, confiança ≥ 0,9', {
      signalFamilies: ['integrity'],
      minConfidence: 0.9,
    });
    const concentration = await rule('Concentração', { signalTypes: ['supplier_concentration'] });
    await runAlertMatching(store, { now: NOW });
    const matched = async (ruleId: number) =>
      (await store.listAlertMatches({ accountId: account, ruleId, since: '2000-01-01T00:00:00Z' }, { limit: 100 }))
        .map((m) => m.item_key)
        .sort();
    // The integrity signals that stand when the matcher reads them: not single_bid, withdrawn before it ran.
    const all = [...(await integrity()).values()];
    const live = all.filter((s) => s.status === 'active');
    const withdrawn = all.find((s) => s.key === 'integrity:single_bid:base:single') as SignalRecord;
    expect(withdrawn.status).toBe('withdrawn');
    expect(live.length).toBeGreaterThan(0);
    expect(await matched(family)).not.toContain(`signal:${withdrawn.id}`);
    expect(await matched(family)).toEqual(live.map((s) => `signal:${s.id}`).sort());
    expect(await matched(confident)).toEqual(
      live
        .filter((s) => s.confidence >= 0.9)
        .map((s) => `signal:${s.id}`)
        .sort(),
    );
    expect((await matched(confident)).length).toBeLessThan((await matched(family)).length);
    expect(await matched(concentration)).toEqual(
      live
        .filter((s) => s.type === 'supplier_concentration')
        .map((s) => `signal:${s.id}`)
        .sort(),
    );
  });
});

describe('a flag about one party of the contract', () => {
  it("R025's signal names the losing tenderer it is about, not the winner or the buyer alone", async () => {
    const [{ id }] = await store
      .listContracts({ source: 'base' }, { limit: 1000 })
      .then((all) => all.filter((c) => c.source_id === 'single'));
    const c = (await store.getContract(id)) as ContractDetailRecord;
    const loser = party(9, 'Concorrente Preterido, S.A.');
    const contract = { ...c, competitors: [...c.competitors, { ...loser, withheld: false }] };
    const t = EXCESSIVE_UNSUCCESSFUL_BIDS;
    const signal = integritySignal(
      contract,
      t,
      {
        ...{ type: t.key, code: t.code, version: t.version, label_pt: t.label_pt, label_en: t.label_en },
        ...{ state: 'flagged', reason: '', reason_pt: '', values: { tenderer_nif: loser.nif }, thresholds: {} },
        ...{ legal_basis: null, legal_basis_pt: null, caveat_en: null, caveat_pt: null, cites: [id], corpus: null },
      },
      {
        ctx: { today: '2026-03-01', places: new Places(await store.listMunicipalities()) },
        cited: new Map(),
        case: { key: 'k', type: t.key, family: 'integrity', relationship: 'origin' },
      },
    );
    const named = `${loser.name} (NIF ${loser.nif})`;
    expect(signal.title_pt).toBe(
      `Excesso de propostas sem sucesso: ${loser.name} — Contrato single (Município de ${BEJA.name})`,
    );
    expect(signal.summary_pt).toContain(`assinalado a ${named}, concorrente preterido no contrato «Contrato single»`);
    expect(signal.summary_en).toContain(`Flagged for the losing tenderer ${named};`);
    // A rule watching the tenderer's tax number sees the flag about it.
    expect(signal.subject.nifs).toContain(loser.nif);
  });
});

describe('where the corpus moved', () => {
  // Nine suppliers of 20 contracting processes each: eight of one or two CPV divisions, and S9 of two, so R048's
  // upper fence is 3.5 divisions (type-8 quartiles of 1,1,1,1,1,2,2,2,2: Q1 1, Q3 2). S9 has one contract with
  // Beja's council and the rest with another buyer; then that other buyer gives S9 seven more contracts in seven
  // other divisions: S9 spans nine, crosses the fence (which stays at 3.5), and its old contract with Beja flags,
  // though nothing of Beja's changed.
  const OTHER_BUYER = { nif: withCheckDigit('60099002'), name: 'Serviços Municipalizados de Teste' };
  const S = Array.from({ length: 9 }, (_, i) => party(i, `Fornecedor S${i + 1}, Lda.`));
  const divisions = (i: number) => (i < 5 ? ['30192000'] : ['30192000', '45000000']);
  let corpusStore: Store;

  beforeAll(async () => {
    ({ store: corpusStore } = await freshStore());
    const contracts: ContractInput[] = [];
    S.forEach((s, i) => {
      for (let n = 0; n < 20; n++) {
        const cpv = divisions(i)[n % divisions(i).length];
        const buyer = i === 8 && n === 0 ? { nif: BEJA.nif, name: `Município de ${BEJA.name}` } : OTHER_BUYER;
        contracts.push(
          contract(`s${i + 1}-${n}`, s, 1_000 + n, `2024-0${1 + (n % 9)}-10`, { cpvs: [cpv], buyers: [buyer] }),
        );
      }
    });
    await corpusStore.writeProcurement({ contracts, announcements: [], amendments: [] });
    await runDetection(corpusStore, { now: NOW });
  }, 120_000);

  const CROSSED =
    "judges again the contracts of a supplier that crossed R048's fence, though their buyer did not change";
  it(CROSSED, async () => {
    const r048 = async () =>
      (await corpusStore.listSignals({ types: ['heterogeneous_supplier'] }, { limit: 1000 })).filter(
        (s) => s.status === 'active',
      );
    expect(await r048()).toEqual([]);
    const more = ['50000000', '60000000', '70000000', '71000000', '72000000', '79000000', '80000000'].map((cpv, n) =>
      contract(`s9-more-${n}`, S[8], 2_000, '2024-10-01', { cpvs: [cpv], buyers: [OTHER_BUYER] }),
    );
    await corpusStore.writeProcurement({ contracts: more, announcements: [], amendments: [] });
    await runDetection(corpusStore, { now: NOW });
    const flagged = (await r048()).map((s) => s.key);
    // Every contract of S9 (27), the one with Beja's council among them; no other supplier's.
    expect(flagged).toContain('integrity:heterogeneous_supplier:base:s9-0');
    expect(flagged).toHaveLength(27);
    expect(flagged.every((k) => k.includes(':s9-'))).toBe(true);
    // The flag is about the supplier, not Beja's council that bought from it: the signal names it first.
    const [atBeja] = await corpusStore.getSignalsByKeys(['integrity:heterogeneous_supplier:base:s9-0']);
    const s9 = `${S[8].name} (NIF ${S[8].nif})`;
    expect(atBeja.title_pt).toBe(`Fornecedor heterogéneo: ${S[8].name} — Contrato s9-0 (Município de ${BEJA.name})`);
    expect(atBeja.summary_pt).toContain(`assinalado a ${s9}, adjudicatário do contrato «Contrato s9-0» do Município`);
    expect(atBeja.summary_en).toContain(`Flagged for the supplier ${s9};`);
  });
});

describe('the legal basis a signal cites', () => {
  // The demo store's detection flags every integrity type (test/demo-integrity.test.ts), these two included.
  const PT = {
    repeated_direct_awards: 'Base legal: CCP art. 113.º n.º 2 (na redação do DL 111-B/2017).',
    possible_splitting:
      'Base legal: CCP art. 17.º n.º 1 e art. 22.º (redação em vigor por confirmar); DL 197/99 art. 16.º n.º 2.',
  };
  const EN = {
    repeated_direct_awards: 'Legal basis: CCP art. 113.º n.º 2 (as amended by DL 111-B/2017).',
    possible_splitting:
      'Legal basis: CCP art. 17.º n.º 1 and art. 22.º (wording in force unconfirmed); DL 197/99 art. 16.º n.º 2.',
  };

  it('is in Portuguese words in summary_pt, in English words in summary_en', async () => {
    const demo = copyDemoStore().store;
    try {
      const signals = await demo.listSignals({ family: 'integrity' }, { limit: 100_000 });
      for (const [type, ending] of Object.entries(PT)) {
        const ofType = signals.filter((s) => s.type === type);
        expect(ofType.length, type).toBeGreaterThan(0);
        for (const s of ofType) {
          expect(s.summary_pt?.endsWith(ending), `${s.key}: ${s.summary_pt}`).toBe(true);
          expect(s.summary_en?.endsWith(EN[type as keyof typeof EN]), `${s.key}: ${s.summary_en}`).toBe(true);
        }
      }
      for (const s of signals) expect(s.summary_pt, s.key).not.toMatch(/ and |as amended|unconfirmed|Legal basis/);
      // The code and a label that cites a law share one pair of parentheses: never "(… (…))" nor "(…) (…)".
      for (const s of signals) {
        const pt = s.summary_pt?.slice(0, s.summary_pt.indexOf(' assinalado'));
        const en = s.summary_en?.slice(0, s.summary_en.indexOf(': '));
        expect(pt, s.key).not.toMatch(/\(.*\(|\) \(/);
        expect(en, s.key).not.toMatch(/\(.*\(|\) \(/);
      }
      for (const s of signals.filter((x) => x.type === 'repeated_direct_awards')) {
        expect(s.summary_pt, s.key).toMatch(
          /^Indicador PT-ART113 \(Convites repetidos à mesma entidade, CCP art\. 113\.º n\.º 2\) assinalado no /,
        );
        expect(s.summary_en, s.key).toMatch(
          /^Repeated direct awards to one supplier \(PT-ART113, CCP art\. 113\.º n\.º 2\): In the data held, /,
        );
      }
    } finally {
      await demo.close();
    }
  });
});

describe('the texts of an integrity type, held once', () => {
  const LAW = 'CCP art. 47.º n.º 1; art. 70.º n.º 2 d)';
  const own = (key: string, texts: boolean, evidence: SignalInput['evidence']): SignalInput => ({
    key,
    origin: 'import',
    case: null,
    type: 'price_at_base_price',
    family: 'integrity',
    municipality_id: null,
    title_pt: key,
    title_en: key,
    summary_pt: key,
    summary_en: key,
    why_it_matters_pt: texts ? 'Texto próprio.' : null,
    why_it_matters_en: texts ? 'Own text.' : null,
    next_step_pt: texts ? 'Passo próprio.' : null,
    stage: 'contracted',
    status: 'active',
    value_tier: null,
    confidence: 0.5,
    deadline_date: null,
    event_date: '2024-01-02',
    amount_eur: null,
    location_text: null,
    actionability: 'monitor',
    evidence,
    subject: { cpv: [], nifs: [], indicator: null, indicator_value: null },
  });
  const law = {
    source_type: 'document' as const,
    source_url: null,
    source_title: LAW,
    source_date: null,
    excerpt_pt: 'O preço base é o preço máximo (cópia guardada).',
    confidence: null,
  };

  it('keeps the texts and the article a signal carries, and gives the type texts to a signal with none', async () => {
    const { store: bare } = await freshStore();
    await bare.writeSignals({
      signals: [own('integrity:own:texts', true, [law]), own('integrity:own:none', false, [])],
      now: NOW.toISOString().slice(0, 19).concat('Z'),
    });
    const app = await startTestApp({ store: bare });
    try {
      const reader = (await app.keyOnPlan('integrity_texts', { domains: ['signals'] })).key;
      const list = await app.get('/v1/signals?family=integrity', { key: reader });
      const idOf = (k: string) => list.json.items.find((s: { title_pt: string }) => s.title_pt === k).id;
      const withTexts = (await app.get(`/v1/signals/${idOf('integrity:own:texts')}`, { key: reader })).json;
      expect(withTexts).toMatchObject({
        why_it_matters_pt: 'Texto próprio.',
        why_it_matters_en: 'Own text.',
        next_step_pt: 'Passo próprio.',
      });
      // Its own copy of the article, not a second one.
      expect(withTexts.evidence).toEqual([law]);
      const bareSignal = (await app.get(`/v1/signals/${idOf('integrity:own:none')}`, { key: reader })).json;
      expect(bareSignal.why_it_matters_pt).toMatch(/preço base é o máximo/);
      expect(bareSignal.next_step_pt).toMatch(/^Confirmar o preço base/);
      expect(bareSignal.evidence).toHaveLength(1);
      expect(bareSignal.evidence[0]).toMatchObject({ source_type: 'document', source_title: LAW });
    } finally {
      await app.close();
    }
  });
});
