/**
 * What an integrity run judges again (docs/integrity.md, "Signals"), from the journal entries since the last run:
 *  - every contract of a buyer one of whose contracts changed (its record, an amendment, its notice), on every type:
 *    the buyer checks compare a contract with the buyer's others, so a new contract can change an old one's flag;
 *  - a changed contract with no one buyer to group it by, on every type;
 *  - where a source's standing moved (integrity/standing.ts), the contracts of a supplier or tenderer that crossed a
 *    fence and those of a notice group whose fence moved, on that type only.
 * A run with no journal entry since the last reads nothing else.
 */
import type { CheckContext } from '../integrity/check.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS } from '../integrity/checks/excessive-unsuccessful-bids.js';
import { HETEROGENEOUS_SUPPLIER } from '../integrity/checks/heterogeneous-supplier.js';
import { groupKey, SHORT_PERIOD_VS_COMPARABLE } from '../integrity/checks/short-period-vs-comparable.js';
import { periodGroup, type Standing, standingMoves, standingOf } from '../integrity/standing.js';
import type { DetectionStore } from './detection-store.js';
import { PROCUREMENT_KINDS } from './procurement-detector.js';

export const INTEGRITY_WATERMARK = 'detect:integrity';
const standingKey = (source: string) => `${INTEGRITY_WATERMARK}:standing:${source}`;
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
  /** Changed contracts with no one buyer with a tax number. */
  lone: number[];
  /** Contracts to judge on some types only, by id. */
  partial: Map<number, Set<string>>;
  /** The standing of every source touched, kept for the next run. */
  standings: Map<string, Standing>;
}

export async function readScope(
  store: DetectionStore,
  ctx: CheckContext,
  after: number,
): Promise<IntegrityScope | null> {
  const ids = { contracts: new Set<number>(), amendments: [] as number[], announcements: [] as number[] };
  let last = after;
  let read = 0;
  for (;;) {
    const entries = await store.readChanges(last, READ, PROCUREMENT_KINDS);
    if (entries.length === 0) break;
    read += entries.length;
    for (const e of entries) {
      if (e.kind === 'contract') ids.contracts.add(e.id);
      else if (e.kind === 'amendment') ids.amendments.push(e.id);
      else if (e.kind === 'announcement') ids.announcements.push(e.id);
    }
    last = entries[entries.length - 1].seq;
  }
  if (last === after) return null;
  const sources = new Set<string>();
  for (const part of chunks(ids.amendments)) {
    for (const m of await store.getAmendments(part)) ids.contracts.add(m.contract_id);
  }
  for (const part of chunks(ids.announcements)) {
    for (const n of await store.getAnnouncements(part)) sources.add(n.source);
    for (const c of await store.noticeContracts({ announcementIds: part })) ids.contracts.add(c.contract_id);
  }
  const buyers = new Map<string, Buyer>();
  const lone: number[] = [];
  for (const part of chunks([...ids.contracts].sort((a, b) => a - b))) {
    for (const c of await store.contractBuyers(part)) {
      sources.add(c.source);
      const nif = c.buyers.length === 1 ? c.buyers[0] : null;
      if (nif === null) {
        lone.push(c.id);
        continue;
      }
      buyers.set(`${c.source} ${nif}`, { source: c.source, nif });
    }
  }
  const partial = new Map<number, Set<string>>();
  const standings = new Map<string, Standing>();
  for (const source of [...sources].sort()) {
    const now = await standingOf(ctx, source);
    standings.set(source, now);
    await addMoves(store, source, standingMoves(await previousStanding(store, source), now), partial);
  }
  return { last, entries: read, buyers: [...buyers.values()], lone, partial, standings };
}

async function addMoves(
  store: DetectionStore,
  source: string,
  moves: ReturnType<typeof standingMoves>,
  partial: Map<number, Set<string>>,
): Promise<void> {
  const add = (id: number, type: string) => {
    const types = partial.get(id) ?? new Set<string>();
    types.add(type);
    partial.set(id, types);
  };
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

/** Keeps each source's standing for the next run (after the signals it led to are written). */
export async function keepStandings(store: DetectionStore, standings: ReadonlyMap<string, Standing>): Promise<void> {
  for (const [source, standing] of standings) await store.setWatermark(standingKey(source), JSON.stringify(standing));
}

export function* chunks<T>(items: readonly T[], size = CHUNK): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
