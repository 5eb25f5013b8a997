/**
 * The integrity detector (docs/signals.md, "Integrity"): after the procurement detectors, it judges again what the
 * journal entries since its watermark can have changed (integrity-scope.ts) with the integrity checks
 * (src/integrity/), and writes one `integrity` signal per flagged contract and type, withdrawing those no longer
 * flagged. Signals are written a batch at a time; the watermark and the corpus standing only once all are written,
 * so a run that stops half-way is done again whole by the next, which writes nothing twice.
 */
import { INTEGRITY_TYPES } from '../integrity/assess-contract.js';
import { type Assessed, assessContracts } from '../integrity/assess-contracts.js';
import { holdBuyerContracts } from '../integrity/buyer-contracts.js';
import type { CheckContext } from '../integrity/check.js';
import { integrityCorpus } from '../integrity/corpus.js';
import { Regions } from '../lib/regions.js';
import { INTEGRITY } from '../signals/catalogue.js';
import type { ContractRecord } from '../store/procurement-records.js';
import { type Candidate, type DetectionContext, settle } from './detection-context.js';
import { type DetectionStore, existingSignals } from './detection-store.js';
import { citedBy, flaggedOtherwise } from './integrity-apart.js';
import { type Buyer, chunks, INTEGRITY_WATERMARK, keepScope, readScope } from './integrity-scope.js';
import { integrityCases, integritySignal, integritySignalKey } from './integrity-signal.js';
import { addWrites, type DetectorSummary, emptySummary } from './procurement-detector.js';

const TYPES = new Map(INTEGRITY_TYPES.map((t) => [t.key, t]));
const NONE: ReadonlySet<string> = new Set();
/** Contracts assessed per batch of reads (their amendments and notices). */
const ASSESS = 500;
/** Buyers whose contracts are read together. */
const BUYERS_READ = 200;

export interface IntegritySummary extends DetectorSummary {
  /** Contracts judged (on every type, or on the types whose corpus standing moved). */
  contracts: number;
  /** Seconds the integrity detector took (the benchmark reports it apart from the rest of detection). */
  seconds: number;
}

export async function detectIntegrity(
  store: DetectionStore,
  ctx: DetectionContext,
  options: { now: string; batchSize?: number },
): Promise<IntegritySummary> {
  const started = performance.now();
  const summary: IntegritySummary = { ...emptySummary(), contracts: 0, seconds: 0 };
  const after = Number((await store.getWatermark(INTEGRITY_WATERMARK)) ?? 0);
  // As the procurement detectors: past the entries of other kinds, up to the journal's end before reading.
  const end = await store.lastChangeSeq();
  const base: CheckContext = {
    store,
    corpus: integrityCorpus(store),
    regions: new Regions(await store.listMunicipalities()),
  };
  const scope = await readScope(store, base, after);
  if (!scope) {
    if (end > after) await store.setWatermark(INTEGRITY_WATERMARK, String(end));
    summary.seconds = Math.round(performance.now() - started) / 1000;
    return summary;
  }
  summary.entries = scope.entries;
  // A store with no integrity signal yet (detection from scratch) has none to withdraw: no lookups then.
  const heldAny = (await store.listSignals({ family: INTEGRITY }, { limit: 1 })).length > 0;
  const writer = new SignalBatches(store, options.now, options.batchSize ?? 2000, summary, heldAny);
  const judged = new Set<number>();
  const emit = async (
    assessed: readonly Assessed[],
    cited: ReadonlyMap<number, ContractRecord>,
    flaggedBefore?: ReadonlyMap<number, ReadonlySet<string>>,
  ) => {
    for (const a of assessed) {
      const id = a.contract.id;
      judged.add(id);
      writer.add(id, candidates(a, ctx, cited, writer.mayHold(id), flaggedBefore?.get(id)));
    }
    summary.contracts += assessed.length;
    await writer.flushIfFull();
  };

  for (const group of buyerGroups(scope.buyers)) {
    // Many buyers' contracts in a few reads, rather than a read per buyer (most buyers have few contracts).
    const theirs = await contractsOfBuyers(store, group);
    for (const buyer of group) {
      // A memo per buyer: its contracts are held while it is judged, then let go.
      const check: CheckContext = { ...base, memo: new Map() };
      const contracts = theirs.get(buyer.nif) ?? [];
      holdBuyerContracts(check, buyer.source, buyer.nif, contracts);
      const cited = new Map(contracts.map((c) => [c.id, c]));
      // What the store cannot hold needs no withdrawing: only the flagged are asked for then (`candidates`).
      const flaggedOnly = (c: ContractRecord) => !writer.mayHold(c.id);
      for (const part of chunks(contracts, ASSESS)) {
        await emit(await assessContracts(part, check, undefined, flaggedOnly), cited);
      }
    }
  }
  for (const part of chunks(
    scope.lone.filter((id) => !judged.has(id)),
    ASSESS,
  )) {
    const assessed = await assessContracts(await store.getContracts(part), { ...base, memo: new Map(scope.reads) });
    await emit(assessed, await citedBy(store, assessed));
  }
  const partial = [...scope.partial.keys()].filter((id) => !judged.has(id));
  for (const part of chunks(partial, ASSESS)) {
    const check = { ...base, memo: new Map(scope.reads) };
    const assessed = await assessContracts(await store.getContracts(part), check, (c) => scope.partial.get(c.id));
    await emit(assessed, await citedBy(store, assessed), await flaggedOtherwise(store, assessed, ctx));
  }
  await writer.flush({ name: INTEGRITY_WATERMARK, value: String(Math.max(scope.last, end)) });
  await keepScope(store, scope);
  summary.seconds = Math.round(performance.now() - started) / 1000;
  return summary;
}

/** Buyers of one source at a time, BUYERS_READ together. */
function* buyerGroups(buyers: readonly Buyer[]): Generator<Buyer[]> {
  const bySource = new Map<string, Buyer[]>();
  for (const b of buyers) bySource.set(b.source, [...(bySource.get(b.source) ?? []), b]);
  for (const list of bySource.values()) yield* chunks(list, BUYERS_READ);
}

/** Every contract of these buyers (of one source) at the source, by buyer; a joint contract under each. */
async function contractsOfBuyers(store: DetectionStore, buyers: readonly Buyer[]) {
  const source = buyers[0].source;
  const wanted = new Set(buyers.map((b) => b.nif));
  const ids = await store.contractIdsByParty(
    source,
    'buyer',
    buyers.map((b) => b.nif),
  );
  const byBuyer = new Map<string, ContractRecord[]>();
  for (const part of chunks(ids)) {
    for (const c of await store.getContracts(part)) {
      for (const b of c.buyers) {
        if (b.nif === null || !wanted.has(b.nif)) continue;
        const list = byBuyer.get(b.nif);
        if (list) list.push(c);
        else byBuyer.set(b.nif, [c]);
      }
    }
  }
  return byBuyer;
}

/**
 * One candidate per type judged: the signal when flagged, else nothing (a stored one is then withdrawn). `before`: the
 * types it stands flagged on among those not judged now. `mayHold`: whether the store may hold a signal of the
 * contract to withdraw; when it cannot (detection from scratch), the types not flagged give no candidate at all, and
 * a contract flagged on none costs neither keys nor its case (most contracts, at a million).
 */
function candidates(
  a: Assessed,
  ctx: DetectionContext,
  cited: ReadonlyMap<number, ContractRecord>,
  mayHold: boolean,
  before: ReadonlySet<string> = NONE,
): Candidate[] {
  const now = a.assessments.filter((x) => x.state === 'flagged').map((x) => x.type);
  if (now.length === 0 && !mayHold) return [];
  // In the catalogue's order, as integrityCases takes them (the assessments come in it).
  const flagged = before.size === 0 ? now : [...TYPES.keys()].filter((t) => now.includes(t) || before.has(t));
  const caseOf = integrityCases(a.contract, flagged, ctx);
  const out: Candidate[] = [];
  for (const x of a.assessments) {
    if (x.state !== 'flagged' && !mayHold) continue;
    const type = TYPES.get(x.type);
    if (!type) throw new Error(`Unknown integrity type ${x.type}`);
    const ref = caseOf(x.type);
    out.push({
      key: integritySignalKey(x.type, a.contract),
      signal: x.state === 'flagged' ? integritySignal(a.contract, type, x, { ctx, cited, case: ref }) : null,
      case: ref,
    });
  }
  return out;
}

/**
 * Candidates gathered and written a batch at a time (`size` signals, or `size` contracts' worth of candidates), each
 * batch settled against the signals already stored. Only a candidate that flags nothing needs the stored signal (to
 * withdraw it); when the store held no integrity signal as the run began, only one of a contract this run flagged
 * (a joint contract is judged under each of its buyers) can have one. Kept by contract id: a set of a million
 * signal keys, each hashed again for every unflagged type of every contract, took 15 s at a million contracts.
 */
class SignalBatches {
  #pending: { contract: number; candidate: Candidate }[] = [];
  #signals = 0;
  readonly #flagged = new Set<number>();

  constructor(
    private readonly store: DetectionStore,
    private readonly now: string,
    private readonly size: number,
    private readonly summary: IntegritySummary,
    private readonly heldAny: boolean,
  ) {}

  /**
   * Whether the store may hold an integrity signal of this contract: any, when it held one as the run began; else
   * only one this run wrote in a batch already written (a joint contract is judged under each of its buyers).
   */
  mayHold(contract: number): boolean {
    return this.heldAny || this.#flagged.has(contract);
  }

  add(contract: number, candidates: readonly Candidate[]): void {
    for (const candidate of candidates) {
      this.#pending.push({ contract, candidate });
      if (candidate.signal) this.#signals++;
    }
  }

  async flushIfFull(): Promise<void> {
    if (this.#signals >= this.size || this.#pending.length >= this.size * TYPES.size) await this.flush();
  }

  async flush(watermark?: { name: string; value: string }): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#signals = 0;
    const unflagged = batch.filter(({ contract, candidate }) => candidate.signal === null && this.mayHold(contract));
    const existing = await existingSignals(
      this.store,
      unflagged.map(({ candidate }) => candidate.key),
    );
    const signals = settle(
      batch.map(({ candidate }) => candidate),
      existing,
    );
    if (!this.heldAny) for (const { contract, candidate } of batch) if (candidate.signal) this.#flagged.add(contract);
    if (signals.length === 0 && !watermark) return;
    addWrites(this.summary, await this.store.writeSignals({ signals, now: this.now, watermark }));
    this.summary.batches++;
  }
}
