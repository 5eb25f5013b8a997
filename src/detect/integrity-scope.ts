/**
 * What an integrity run judges again (docs/signals.md, "What is judged again"), from the journal entries since the
 * last run:
 *  - a contract new since the last run, on every type, and the contracts whose flags it can move, on those types
 *    only (integrity-reach.ts: its buyers' year, the awards of its buyer and supplier around its day);
 *  - every contract of each buyer of a contract held before whose record changed, on every type: the buyer checks
 *    compare a contract with the buyer's others, and what the changed one said before is not kept; so too of each
 *    buyer the change took the contract from (its journal entry names them), whose flags may have summed it;
 *  - a contract whose amendment or notice changed, on every type: no check reads another contract's amendments or
 *    notices (beyond the corpus standing, below);
 *  - where a source's standing moved (integrity/standing.ts), the contracts of a supplier or tenderer that crossed a
 *    fence and those of a notice group whose fence moved, on that type only.
 * A contract is new when its id is above every contract id the journal had named by the last run (ids only grow). A
 * run whose new contracts are more than a tenth of those held before (a first load, a bulk import) judges their
 * buyers whole instead: one read of a buyer's contracts then costs less than the reach of each. A run with no
 * journal entry since the last reads nothing else.
 */
import type { CheckContext } from '../integrity/check.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS } from '../integrity/checks/excessive-unsuccessful-bids.js';
import { HETEROGENEOUS_SUPPLIER } from '../integrity/checks/heterogeneous-supplier.js';
import { groupKey, SHORT_PERIOD_VS_COMPARABLE } from '../integrity/checks/short-period-vs-comparable.js';
import { periodGroup, type Standing, standingMoves, standingOf } from '../integrity/standing.js';
import type { ContractRecord } from '../store/procurement-records.js';
import type { DetectionStore } from './detection-store.js';
import { reachOfNew } from './integrity-reach.js';
import { PROCUREMENT_KINDS } from './procurement-detector.js';

export const INTEGRITY_WATERMARK = 'detect:integrity';
const standingKey = (source: string) => `${INTEGRITY_WATERMARK}:standing:${source}`;
/** The highest contract id the journal had named when the last run read it. */
const KNOWN_CONTRACTS = `${INTEGRITY_WATERMARK}:contracts`;
/** New contracts beyond this share of those held before are judged with their whole buyers (see above). */
const NEW_SHARE = 0.1;
const READ = 5000;
const CHUNK = 1000;

export interface Buyer {
  source: string;
  nif: string;
}

export interface IntegrityScope {
  /** The last journal entry read: the run's watermark. */
  last: number;
  /** Journal entries read. */
  entries: number;
  buyers: Buyer[];
  /** Contracts judged on every type without their buyer's whole list: new ones, those with no one buyer. */
  lone: number[];
  /** Contracts to judge on some types only, by id. */
  partial: Map<number, Set<string>>;
  /** What the reach read (a check context's memo), for judging the lone and partial contracts. */
  reads: ReadonlyMap<string, Promise<unknown>>;
  /** The standing of every source touched, kept for the next run. */
  standings: Map<string, Standing>;
  /** The highest contract id the journal has named, kept for the next run. */
  known: number;
}

export async function readScope(
  store: DetectionStore,
  ctx: CheckContext,
  after: number,
): Promise<IntegrityScope | null> {
  const read = await readEntries(store, after);
  if (read.last === after) return null;
  const { ids } = read;
  const sources = new Set<string>();
  const touched = await touchedContracts(store, ids, sources);
  const held = await knownContracts(store);
  let known = held ?? 0;
  for (const id of ids.contracts) if (id > known) known = id;
  const fresh = [...ids.contracts].filter((id) => held !== null && id > held);
  const reaching = held !== null && fresh.length <= held * NEW_SHARE ? new Set(fresh) : new Set<number>();

  const buyers = new Map<string, Buyer>();
  const lone: number[] = [];
  for (const part of chunks([...new Set([...ids.contracts, ...touched])].sort((a, b) => a - b))) {
    for (const c of await store.contractBuyers(part)) {
      sources.add(c.source);
      const nifs = c.buyers.filter((nif): nif is string => nif !== null);
      const whole = ids.contracts.has(c.id) && !reaching.has(c.id);
      if (!whole || nifs.length === 0) lone.push(c.id);
      // Each buyer of a joint contract: its total of the year holds the contract (supplier concentration).
      if (whole) for (const nif of nifs) buyers.set(`${c.source} ${nif}`, { source: c.source, nif });
      for (const nif of read.departed.get(c.id) ?? []) buyers.set(`${c.source} ${nif}`, { source: c.source, nif });
    }
  }
  const partial = new Map<number, Set<string>>();
  const newContracts: ContractRecord[] = [];
  for (const part of chunks([...reaching])) newContracts.push(...(await store.getContracts(part)));
  const reach = await reachOfNew(ctx, newContracts, (id, type) => addTypes(partial, id, [type]));
  for (const b of reach.whole) buyers.set(`${b.source} ${b.nif}`, b);
  const standings = new Map<string, Standing>();
  for (const source of [...sources].sort()) {
    const now = await standingOf(ctx, source);
    standings.set(source, now);
    await addMoves(store, source, standingMoves(await previousStanding(store, source), now), partial);
  }
  return {
    last: read.last,
    entries: read.entries,
    buyers: [...buyers.values()],
    lone,
    partial,
    reads: reach.reads,
    standings,
    known,
  };
}

/**
 * The procurement journal entries after `after`, by kind of record: what changed, the buyers changed contracts no
 * longer have (by contract id), and the last entry read.
 */
async function readEntries(store: DetectionStore, after: number) {
  const ids = { contracts: new Set<number>(), amendments: [] as number[], announcements: [] as number[] };
  const departed = new Map<number, string[]>();
  let last = after;
  let entries = 0;
  for (;;) {
    const page = await store.readChanges(last, READ, PROCUREMENT_KINDS);
    if (page.length === 0) break;
    entries += page.length;
    for (const e of page) {
      if (e.kind === 'contract') {
        ids.contracts.add(e.id);
        if (e.key) departed.set(e.id, [...(departed.get(e.id) ?? []), ...e.key.split(' ')]);
      } else if (e.kind === 'amendment') ids.amendments.push(e.id);
      else if (e.kind === 'announcement') ids.announcements.push(e.id);
    }
    last = page[page.length - 1].seq;
  }
  return { ids, departed, last, entries };
}

/** The contracts whose amendment or notice changed (the notices' sources added to `sources`). */
async function touchedContracts(
  store: DetectionStore,
  ids: { amendments: readonly number[]; announcements: readonly number[] },
  sources: Set<string>,
): Promise<Set<number>> {
  const touched = new Set<number>();
  for (const part of chunks(ids.amendments)) {
    for (const m of await store.getAmendments(part)) touched.add(m.contract_id);
  }
  for (const part of chunks(ids.announcements)) {
    for (const n of await store.getAnnouncements(part)) sources.add(n.source);
    for (const c of await store.noticeContracts({ announcementIds: part })) touched.add(c.contract_id);
  }
  return touched;
}

function addTypes(partial: Map<number, Set<string>>, id: number, types: Iterable<string>): void {
  const held = partial.get(id);
  if (held) for (const t of types) held.add(t);
  else partial.set(id, new Set(types));
}

async function addMoves(
  store: DetectionStore,
  source: string,
  moves: ReturnType<typeof standingMoves>,
  partial: Map<number, Set<string>>,
): Promise<void> {
  const add = (id: number, type: string) => addTypes(partial, id, [type]);
  for (const part of chunks(moves.suppliers)) {
    for (const id of await store.contractIdsByParty(source, 'supplier', part)) add(id, HETEROGENEOUS_SUPPLIER.key);
  }
  for (const part of chunks(moves.tenderers)) {
    for (const id of await store.contractIdsByParty(source, 'competitor', part))
      add(id, EXCESSIVE_UNSUCCESSFUL_BIDS.key);
  }
  const moved = new Set(moves.groups);
  for (const year of new Set(moves.groups.map((g) => g.slice(0, 4)))) {
    for (const n of await store.noticeContracts({ source, year })) {
      if (n.procedure_type !== null && moved.has(periodGroup(year, groupKey(n.procedure_type, n.contract_types))))
        add(n.contract_id, SHORT_PERIOD_VS_COMPARABLE.key);
    }
  }
}

async function previousStanding(store: DetectionStore, source: string): Promise<Standing | null> {
  const kept = await store.getWatermark(standingKey(source));
  return kept ? (JSON.parse(kept) as Standing) : null;
}

async function knownContracts(store: DetectionStore): Promise<number | null> {
  const kept = await store.getWatermark(KNOWN_CONTRACTS);
  return kept === null ? null : Number(kept);
}

/**
 * Keeps each source's standing and the highest contract id named for the next run (after the signals they led to
 * are written).
 */
export async function keepScope(store: DetectionStore, scope: IntegrityScope): Promise<void> {
  for (const [source, standing] of scope.standings)
    await store.setWatermark(standingKey(source), JSON.stringify(standing));
  await store.setWatermark(KNOWN_CONTRACTS, String(scope.known));
}

export function* chunks<T>(items: readonly T[], size = CHUNK): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
