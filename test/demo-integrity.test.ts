/**
 * The demo data exercises every integrity type at the rates docs/integrity.md ("On the demo data") gives: every
 * contract of the demo store is assessed as procurement_red_flags assesses it, and each type's flagged contracts are
 * counted against what the generator's rates (src/demo/procurement/integrity-patterns.ts, the one place they are
 * written) make of the contracts they apply to. A type that never flags, or flags more than four binomial standard
 * deviations away from its rate, fails: a pattern the generator stopped making, or one it makes at another rate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_SEED } from '../src/demo/demo-defaults.js';
import { lateMinimum } from '../src/demo/procurement/contract-patterns.js';
import {
  DIRECT_BASE_AT_PRICE,
  ONE_BIDDER_SHARE,
  PATTERN_RATES,
  SCHEME_SHAPE,
  SCHEMES,
  type SchemeKind,
} from '../src/demo/procurement/integrity-patterns.js';
import { CONTRACT_TYPE, PROCEDURES } from '../src/demo/procurement/procedures.js';
import { schemeFlags, schemeSlot } from '../src/demo/procurement/schemes.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { assessContract } from '../src/integrity/assess-contract.js';
import { preloadBuyerContracts } from '../src/integrity/buyer-contracts.js';
import type { CheckContext } from '../src/integrity/check.js';
import { integrityCorpus } from '../src/integrity/corpus.js';
import { preloadNotices } from '../src/integrity/notice-period.js';
import { Regions } from '../src/lib/regions.js';
import type { DatePosition } from '../src/store/procurement-queries.js';
import type { AmendmentRecord, ContractDetailRecord, ContractRecord } from '../src/store/procurement-records.js';
import { copyDemoStore } from './helpers/test-app.js';

type State = 'flagged' | 'not_flagged' | 'not_assessable';

interface Assessed {
  contract: ContractDetailRecord;
  /** The contract's index in the generator (source id `demo-c-<k + 1>`). */
  k: number;
  state: Record<string, State>;
}

const MUNICIPALITIES = readMunicipalities();
const DAY_MS = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

let assessed: Assessed[];
/** The first day of the month the demo was generated in (its contracts' import time): nothing closes on or after it. */
let anchor: number;

beforeAll(async () => {
  const { store } = copyDemoStore();
  try {
    const contracts: ContractRecord[] = [];
    let after: DatePosition | undefined;
    for (;;) {
      const page = await store.listContracts({ source: 'demo' }, { after, limit: 5_000 });
      contracts.push(...page);
      const last = page.at(-1);
      if (page.length < 5_000 || !last) break;
      after = { date: last.published_on, id: last.id };
    }
    const amendments = new Map<number, AmendmentRecord[]>();
    for (const a of await store.contractAmendments(contracts.map((c) => c.id)))
      amendments.set(a.contract_id, [...(amendments.get(a.contract_id) ?? []), a]);
    const byBuyer = new Map<string, ContractRecord[]>();
    for (const c of contracts) byBuyer.set(c.buyers[0].nif ?? '', [...(byBuyer.get(c.buyers[0].nif ?? '') ?? []), c]);
    // As procurement_entity_red_flags assesses a buyer's contracts: its notices and contracts read once.
    const corpus = integrityCorpus(store);
    const regions = new Regions(MUNICIPALITIES);
    assessed = [];
    for (const [buyer, ofBuyer] of byBuyer) {
      const ctx: CheckContext = { store, corpus, regions, memo: new Map() };
      await preloadNotices(ctx, ofBuyer);
      await preloadBuyerContracts(ctx, 'demo', buyer);
      for (const c of ofBuyer) {
        const contract = { ...c, amendments: amendments.get(c.id) ?? [] };
        const state = Object.fromEntries((await assessContract(contract, ctx)).map((a) => [a.type, a.state]));
        assessed.push({ contract, k: Number(c.source_id.replace('demo-c-', '')) - 1, state });
      }
    }
    anchor = dayOf(contracts[0].imported_at.slice(0, 10));
  } finally {
    await store.close();
  }
}, 180_000);

const flagged = (type: string) => assessed.filter((a) => a.state[type] === 'flagged').length;

/**
 * `observed` against the sum of the rates a pattern applies with (one per contract it applies to): within four
 * standard deviations of that binomial sum (and its one contract of rounding), and above nothing.
 */
function expectRate(type: string, observed: number, rates: readonly number[]) {
  const mean = rates.reduce((s, p) => s + p, 0);
  const sd = Math.sqrt(rates.reduce((s, p) => s + p * (1 - p), 0));
  const said = `${type}: ${observed} flagged, ${mean.toFixed(1)} ± ${(4 * sd).toFixed(1)} expected`;
  expect(observed, said).toBeGreaterThan(0);
  expect(Math.abs(observed - mean), said).toBeLessThanOrEqual(4 * sd + 1);
}

const isWorks = (c: ContractRecord) => c.contract_types[0] === CONTRACT_TYPE.works;
const isCompetitive = (c: ContractRecord) =>
  c.ocds_method === 'open' || c.ocds_method === 'selective' || c.ocds_method === 'limited';
const isTender = (c: ContractRecord) => c.procedure_type === PROCEDURES.cpub.label;
const first = MUNICIPALITIES.length;
const inScheme = (a: Assessed) => schemeSlot(DEFAULT_DEMO_SEED, first, a.k) !== null;

describe('the demo data exercises every integrity type at its documented rate', () => {
  it('R003: every urgent tender (by design), and the notices of goods and services tenders cut short', () => {
    const rates = assessed.flatMap(({ contract: c }) =>
      c.procedure_type === PROCEDURES.cpub_urgent.label
        ? [1]
        : isTender(c) && !isWorks(c)
          ? [PATTERN_RATES.shortPeriod]
          : [],
    );
    expectRate('short_submission_period', flagged('short_submission_period'), rates);
  });

  it('PT-R003-FENCE: the tenders cut short, works included, where 20 comparable notices make a fence', () => {
    const type = 'short_submission_period_vs_comparable';
    const rates = assessed
      .filter((a) => isTender(a.contract) && a.state[type] !== 'not_assessable')
      .map(() => PATTERN_RATES.shortPeriod);
    expectRate(type, flagged(type), rates);
  });

  it('R018: the open and restricted procedures that drew one bidder, at the base model’s shares', () => {
    const rates = assessed.flatMap(({ contract: c }) => {
      if ((c.ocds_method !== 'open' && c.ocds_method !== 'selective') || c.suppliers.length !== 1) return [];
      if (c.procedure_type === PROCEDURES.fa259.label) return [ONE_BIDDER_SHARE.callOff];
      return [isWorks(c) ? ONE_BIDDER_SHARE.works : ONE_BIDDER_SHARE.other];
    });
    expectRate('single_bid', flagged('single_bid'), rates);
  });

  it('PT-PRICE-BASE: direct awards at their base price (by design), and competitive awards with no saving', () => {
    const rates = assessed.flatMap(({ contract: c }) =>
      c.ocds_method === 'direct' ? [DIRECT_BASE_AT_PRICE] : isCompetitive(c) ? [PATTERN_RATES.noSaving] : [],
    );
    expectRate('price_at_base_price', flagged('price_at_base_price'), rates);
  });

  it('PT-COST-OVERRUN: closed contracts whose effective price overruns theirs', () => {
    const rates = assessed.filter((a) => a.contract.closed_on !== null).map(() => PATTERN_RATES.overrun);
    expectRate('cost_overrun', flagged('cost_overrun'), rates);
  });

  it('PT-DELAY: closed contracts closed late, where a late closing still falls before the month', () => {
    const fits = (c: ContractRecord) =>
      dayOf(c.signed_on as string) + (c.execution_days as number) + lateMinimum(c.execution_days as number) <
      anchor - 1;
    const rates = assessed
      .filter((a) => a.contract.closed_on !== null && fits(a.contract))
      .map(() => PATTERN_RATES.late);
    expectRate('delay', flagged('delay'), rates);
  });

  it('R025: competitive works a cover bidder lost, against the fence of the regular tenderers', () => {
    const rates = assessed
      .filter(
        ({ contract: c }) => isCompetitive(c) && isWorks(c) && c.suppliers.length === 1 && c.competitors.length > 1,
      )
      .map(() => PATTERN_RATES.coverBid);
    expectRate('excessive_unsuccessful_bids', flagged('excessive_unsuccessful_bids'), rates);
  });

  it('R048: the ajustes diretos for goods a general trader won', () => {
    const rates = assessed
      .filter(
        (a) =>
          a.contract.procedure_type === PROCEDURES.ad.label &&
          a.contract.contract_types[0] === CONTRACT_TYPE.goods &&
          a.contract.suppliers.length === 1 &&
          !inScheme(a),
      )
      .map(() => PATTERN_RATES.generalist);
    expectRate('heterogeneous_supplier', flagged('heterogeneous_supplier'), rates);
  });

  const SCHEME_TYPE: Record<SchemeKind, string> = {
    split: 'possible_splitting',
    repeated: 'repeated_direct_awards',
    captive: 'supplier_concentration',
  };
  for (const kind of Object.keys(SCHEME_TYPE) as SchemeKind[]) {
    it(`${SCHEME_TYPE[kind]}: the ${kind} schemes, at their rate per block of contracts`, () => {
      const type = SCHEME_TYPE[kind];
      const blocks = Math.floor((assessed.length - first) / SCHEMES.block);
      const parts = assessed.filter((a) => {
        const slot = schemeSlot(DEFAULT_DEMO_SEED, first, a.k);
        return slot?.kind === kind && schemeFlags(kind, slot.part) && a.k < first + blocks * SCHEMES.block;
      });
      const made = parts.filter((a) => a.state[type] === 'flagged').length;
      // Each scheme flags its parts: a block is a scheme of this kind with its rate.
      expect(made, `${type}: ${made} of the ${parts.length} scheme contracts flagged`).toBeGreaterThanOrEqual(
        0.95 * parts.length,
      );
      const perScheme = SCHEME_SHAPE[kind].flagged;
      expectRate(
        `${type} (schemes)`,
        made / perScheme,
        Array.from({ length: blocks }, () => SCHEMES[kind]),
      );
      expect(flagged(type)).toBeGreaterThanOrEqual(made);
    });
  }
});
