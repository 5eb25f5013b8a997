/**
 * A detection run after an import judges again only what the import can move (docs/signals.md, "Integrity"): the
 * new contracts, the contracts whose flags they can change, the buyers of changed contracts, the contracts an
 * amendment or a notice changed. What it writes must be what detection from scratch writes over the same data. So:
 * one store gets the generated contracts, is detected, then gets more of them (with an amendment and a changed old
 * contract) and is detected again; a second store gets all of it at once and is detected from scratch; every signal
 * of the two must be the same, fingerprint for fingerprint. On both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProcurement, type ProcurementChunk } from '../src/demo/procurement/generate.js';
import { SCHEME_SHAPE } from '../src/demo/procurement/integrity-patterns.js';
import { schemeSlot } from '../src/demo/procurement/schemes.js';
import { reachOfNew } from '../src/detect/integrity-reach.js';
import { runDetection } from '../src/detect/run-detection.js';
import { readCpvs } from '../src/ingest/cpv.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { integrityCorpus } from '../src/integrity/corpus.js';
import { Regions } from '../src/lib/regions.js';
import type { ContractInput } from '../src/store/procurement-records.js';
import type { InstantPosition } from '../src/store/signal-queries.js';
import type { Store } from '../src/store/store.js';
import { freshStore } from './helpers/procurement-store.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const TODAY = new Date('2026-11-01T00:00:00Z');
const SEED = 7;
const CONTRACTS = 3_000;
/** The last contracts generated, held back as an ordinary day's new contracts. */
const LATEST = 100;
const MUNICIPALITIES = readMunicipalities();
const OPTIONS = { seed: SEED, today: TODAY, municipalities: MUNICIPALITIES, cpvs: readCpvs() };

/** The generated data, in one batch. */
function generated(): ProcurementChunk {
  const all: ProcurementChunk = { entities: [], contracts: [], announcements: [], amendments: [] };
  for (const chunk of generateProcurement({ ...OPTIONS, contracts: CONTRACTS })) {
    all.entities.push(...chunk.entities);
    all.contracts.push(...chunk.contracts);
    all.announcements.push(...chunk.announcements);
    all.amendments.push(...chunk.amendments);
  }
  return all;
}

/** The first contract (generator index) of every captive parish's scheme (docs/integrity.md, "On the demo data"). */
function captives(): number[] {
  return [...Array(CONTRACTS).keys()].filter((k) => {
    const slot = schemeSlot(SEED, MUNICIPALITIES.length, k);
    return slot?.kind === 'captive' && slot.part === 0;
  });
}

/**
 * The contracts the first detection does not see (by generator index): one part of every split and repeated-awards
 * scheme — the second half of a split, the first of three repeated awards — and the first captive parish's first
 * call-off, so that each arrives beside contracts whose flags it moves; and the latest contracts.
 */
function heldBack(): Set<number> {
  const part = { split: 1, repeated: 0 };
  const out = new Set<number>([captives()[0]]);
  for (let k = 0; k < CONTRACTS; k++) {
    const slot = schemeSlot(SEED, MUNICIPALITIES.length, k);
    if (slot && slot.kind !== 'captive' && slot.part === part[slot.kind]) out.add(k);
  }
  for (let k = CONTRACTS - LATEST; k < CONTRACTS; k++) out.add(k);
  return out;
}

/** The data without the contracts held back (and their amendments), then those contracts and amendments. */
function split(all: ProcurementChunk): [ProcurementChunk, ProcurementChunk] {
  const back = heldBack();
  const later = new Set(all.contracts.filter((_, k) => back.has(k)).map((c) => c.source_id));
  const first = {
    ...all,
    contracts: all.contracts.filter((c) => !later.has(c.source_id)),
    amendments: all.amendments.filter((a) => !later.has(a.contract_source_id)),
  };
  const then = {
    entities: [],
    announcements: [],
    contracts: all.contracts.filter((c) => later.has(c.source_id)),
    amendments: all.amendments.filter((a) => later.has(a.contract_source_id)),
  };
  return [first, then];
}

/**
 * What changes after the first detection besides the generated contracts: an old contract's price corrected at the
 * source (its buyer is then judged again whole); another made joint with a captive parish, at forty times its price
 * (the parish's year total holds it now: the parish is judged again whole too); a new contract of another captive
 * parish's year, from the supplier of its other contract that year, large enough to take the captive supplier under
 * the share (its flags go) and that supplier over it (its other contract flags);
 * a third captive parish's call-offs but one moved to a council at the source (the buyer corrected: the parish's last
 * call-off is no longer a captive's, though no contract of the parish's changed);
 * an amendment to a third old contract.
 */
function corrections(all: ProcurementChunk): Pick<ProcurementChunk, 'contracts' | 'amendments'> & {
  added: ContractInput[];
} {
  const parishes = captives();
  if (parishes.length < 3) throw new Error(`fewer than three captive parishes in ${CONTRACTS} contracts`);
  const [captive, other] = parishes.map((k) => all.contracts[k + 1]);
  const year = (c: ContractInput) => c.published_on?.slice(0, 4);
  const priced = all.contracts.filter((c) => c.price_eur !== null && c.buyers.length === 1);
  const sameYear = priced.find((c) => year(c) === year(captive) && c.buyers[0].nif !== captive.buyers[0].nif);
  if (!sameYear) throw new Error(`no contract of ${year(captive)} beside the captive parish's`);
  const times = (c: ContractInput, n: number) => (c.price_eur as number) * n;
  // The other parish's contract of the year from another supplier: the new one makes that supplier the captor.
  const second = parishes[1];
  const rival = all.contracts
    .slice(second, second + SCHEME_SHAPE.captive.contracts)
    .find((c) => c.suppliers[0]?.nif !== other.suppliers[0]?.nif && year(c) === year(other));
  if (!rival) throw new Error("no contract of the captive parish's year from another supplier");
  const amended = priced[20];
  const third = parishes[2];
  if (third + SCHEME_SHAPE.captive.contracts > CONTRACTS - LATEST) throw new Error('the third captive parish is new');
  const council = priced[30].buyers[0];
  const moved = all.contracts
    .slice(third, third + SCHEME_SHAPE.captive.flagged - 1)
    .map((c) => ({ ...c, buyers: [council] }));
  return {
    contracts: [
      ...moved,
      { ...priced[10], price_eur: times(priced[10], 40) },
      { ...sameYear, buyers: [...sameYear.buyers, captive.buyers[0]], price_eur: times(sameYear, 40) },
    ],
    added: [{ ...rival, source_id: 'test-new-large', price_eur: times(other, 200) }],
    amendments: [
      {
        source: amended.source,
        source_id: `${amended.source_id}-test-amendment`,
        imported_at: amended.imported_at,
        contract_source_id: amended.source_id,
        date: '2026-10-15',
        reason: 'Trabalhos complementares',
        previous_price_eur: amended.price_eur,
        new_price_eur: times(amended, 1.5),
        link: null,
      },
    ],
  };
}

/**
 * Every standing signal (withdrawn ones are history) by key: all it serves but ids and instants, and its case's key
 * and its relationship there (which of a contract's flags opens its case depends on all of them).
 */
async function signalsOf(store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const cases = new Map<number, { key: string; links: Map<number, string> }>();
  let after: InstantPosition | undefined;
  for (;;) {
    const page = await store.listSignals({}, { after, limit: 500 });
    for (const s of page) {
      if (s.status !== 'active') continue;
      const { id, case_id, first_seen_at: _f, last_seen_at: _l, updated_at: _u, ...served } = s;
      let linked = case_id === null ? undefined : cases.get(case_id);
      if (case_id !== null && !linked) {
        const found = await store.getCase(case_id);
        linked = {
          key: found?.key ?? '',
          links: new Map(found?.linked_signals.map((l) => [l.signal_id, l.relationship])),
        };
        cases.set(case_id, linked);
      }
      const inCase = linked ? `${linked.key} ${linked.links.get(id)}` : null;
      // The contract's own id, in the link to its red flags, differs between the stores (the order of writing).
      out.set(s.key, JSON.stringify({ ...served, inCase }).replace(/contracts\/\d+\//g, 'contracts/#/'));
    }
    const last = page.at(-1);
    if (page.length < 500 || !last) return out;
    after = { at: last.last_seen_at, id: last.id };
  }
}

describe('integrity detection after an import', () => {
  let incremental: Store;
  let scratch: Store;
  let judged: number;
  let firstJudged: number;

  beforeAll(async () => {
    incremental = (await freshStore()).store;
    scratch = (await freshStore()).store;
    const all = generated();
    const [first, then] = split(all);
    const fixes = corrections(all);
    await incremental.writeProcurement(first);
    firstJudged = (await runDetection(incremental, { now: NOW })).integrity.contracts;
    await incremental.writeProcurement({ ...then, contracts: [...then.contracts, ...fixes.added, ...fixes.contracts] });
    await incremental.writeProcurement({
      entities: [],
      contracts: [],
      announcements: [],
      amendments: fixes.amendments,
    });
    judged = (await runDetection(incremental, { now: NOW })).integrity.contracts;

    await scratch.writeProcurement(all);
    const changed = [...fixes.added, ...fixes.contracts];
    await scratch.writeProcurement({ entities: [], contracts: changed, announcements: [], amendments: [] });
    await scratch.writeProcurement({ entities: [], contracts: [], announcements: [], amendments: fixes.amendments });
    await runDetection(scratch, { now: NOW });
  }, 240_000);

  afterAll(async () => {
    await incremental?.close();
    await scratch?.close();
  });

  it('writes what detection from scratch writes over the same data, signal for signal', async () => {
    const [a, b] = [await signalsOf(incremental), await signalsOf(scratch)];
    expect([...a.keys()].filter((k) => k.startsWith('integrity:')).length).toBeGreaterThan(100);
    const differing = [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
    expect(differing).toEqual([]);
  });

  it('judges again far fewer contracts than it holds', () => {
    expect(firstJudged).toBe(CONTRACTS - heldBack().size);
    expect(judged).toBeGreaterThan(heldBack().size);
    expect(judged).toBeLessThan(CONTRACTS / 2);
  });

  it('hands the checks what the reach read, unless it weighs more than it may hold; reaches the same', async () => {
    const latest = await incremental.listContracts({}, { limit: LATEST });
    const reach = async (held?: { pairContracts: number; yearContracts: number }) => {
      const ctx = {
        store: incremental,
        corpus: integrityCorpus(incremental),
        regions: new Regions(MUNICIPALITIES),
      };
      const added: string[] = [];
      const found = await reachOfNew(ctx, latest, (id, type) => added.push(`${id} ${type}`), held);
      return { added: added.sort(), reads: found.reads, whole: found.whole };
    };
    const holding = await reach();
    const letGo = await reach({ pairContracts: 0, yearContracts: 0 });
    expect(holding.added.length).toBeGreaterThan(LATEST);
    expect(letGo.added).toEqual(holding.added);
    expect(letGo.whole).toEqual(holding.whole);
    const keys = [...holding.reads.keys()];
    expect(keys.some((k) => k.startsWith('pair:'))).toBe(true);
    expect(keys.some((k) => k.startsWith('buyer-year:'))).toBe(true);
    expect(letGo.reads.size).toBe(0);
  });
});
