/**
 * The statistics of the whole corpus that the corpus checks (R048 heterogeneous supplier, R025 excessive unsuccessful
 * bids, PT-R003-FENCE's comparable notices) and the data-reach test of the buyer checks judge one contract against:
 * per supplier or tenderer, what it did across a source, the notices' periods, and the quartiles and fences over all
 * of them (docs/integrity.md, "Against the whole corpus").
 *
 * A GROUP BY over every contract of a source is too dear for each request, and its answer only changes when the
 * procurement records do: each statistic is computed on first use and held in this process for the store's
 * procurement version (Store.procurementVersion, which every write of contracts, notices or amendments moves), then
 * dropped for the next version. Not the data version: signals, cases and alert matches move that on every pipeline
 * cycle, and the first red flags after each would wait for the GROUP BYs again (5 s at a million contracts). The
 * GROUP BYs' rows are also kept in the database for that version (Store.keepCorpusStatistic), so that a process
 * started afresh, or another instance, reads them back rather than grouping again.
 */
import { RecentlyUsed } from '../lib/recently-used.js';
import type { NoticePeriodCount, SupplierVarietyRecord, TendererBidsRecord } from '../store/procurement-queries.js';
import type { Store } from '../store/store.js';
import { type Fences, fences, quantile } from './quartiles.js';

export type CorpusStore = Pick<
  Store,
  | 'procurementVersion'
  | 'supplierVarieties'
  | 'tendererBids'
  | 'noticePeriods'
  | 'procurementSources'
  | 'keptCorpusStatistic'
  | 'keepCorpusStatistic'
>;

export interface SupplierVariety {
  readonly processes: number;
  /** Distinct CPV prefixes (of the digits asked for) over its contracts. */
  readonly cpvPrefixes: number;
}

export interface SupplierVarietyCorpus {
  /** By tax number: every supplier of the source, however few its processes. */
  readonly bySupplier: ReadonlyMap<string, SupplierVariety>;
  /** Over the varieties of the suppliers with at least the minimum of processes; null when none has. */
  readonly fences: Fences | null;
}

export interface TendererBids {
  readonly bids: number;
  readonly wins: number;
}

export interface TendererBidsCorpus {
  /** By tax number: every tenderer of the source. */
  readonly byTenderer: ReadonlyMap<string, TendererBids>;
  /** Over every tenderer's share of unsuccessful bids, (bids − wins) ÷ bids; null when there is no tenderer. */
  readonly fences: Fences | null;
  /** The percentile asked for of every tenderer's number of bids: a tenderer with as many or more is a top tenderer. */
  readonly topBids: number | null;
}

/** The first and last publication dates of a source's contracts (null when it holds none with a date). */
export interface SourceSpan {
  readonly first: string | null;
  readonly last: string | null;
}

/** What a check reads of the corpus of its contract's source; each computed once per procurement version. */
export interface IntegrityCorpus {
  supplierVariety(source: string, digits: number, minimumProcesses: number): Promise<SupplierVarietyCorpus>;
  tendererBids(source: string, topPercentile: number): Promise<TendererBidsCorpus>;
  /**
   * The submission periods (days) of a source's notices published in a year, ascending, by comparable group
   * (`group` names a notice's group; a notice for which it gives null compares with nothing).
   */
  noticePeriods(
    source: string,
    year: string,
    group: (row: NoticePeriodCount) => string | null,
  ): Promise<ReadonlyMap<string, readonly number[]>>;
  /** Whether the data held reach a date: the span of the source's contracts' publication dates. */
  span(source: string): Promise<SourceSpan>;
  /**
   * What `read` gives for a buyer's year at a source, kept for the procurement version among the most recently used (a
   * year's sums, weighing `weight(value)` contracts, at most HELD_BUYER_CONTRACTS in all): the answers about one
   * buyer's contracts, which a reader asks for one after another, then read it once.
   */
  buyerYear<T>(key: string, read: () => Promise<T>, weight: (value: T) => number): Promise<T>;
}

/** The contracts that the buyer years held weigh at most, together (a year's sums hold one small entry each). */
const HELD_BUYER_CONTRACTS = 200_000;

export const unsuccessfulShare = (t: TendererBids): number => (t.bids - t.wins) / t.bids;

interface Held {
  version: number;
  statistics: Map<string, Promise<unknown>>;
  buyerYears: RecentlyUsed;
}

/** What one store, or stores sharing (shareCorpus), hold: the statistics of the newest version seen. */
interface Holder {
  entry?: Held;
}

/**
 * Per store, a holder of the statistics computed for the newest procurement version seen, by what they were asked
 * with. Stores of one database in one process can share a holder (shareCorpus).
 */
const holders = new WeakMap<CorpusStore, Holder>();

function holderOf(store: CorpusStore): Holder {
  let holder = holders.get(store);
  if (!holder) {
    holder = {};
    holders.set(store, holder);
  }
  return holder;
}

/**
 * Makes `other`, a store of the same database as `store`, hold its statistics with those of `store` (what `other`
 * held alone is let go): what one computes, the other reuses. `serve` gives its pipeline a store of its own, whose
 * detection computes them after every import; the served store then answers the next red flags with them rather
 * than with the GROUP BYs again (a few seconds at a million contracts, the event loop held on SQLite).
 */
export function shareCorpus(store: CorpusStore, other: CorpusStore): void {
  holders.set(other, holderOf(store));
}

/**
 * The corpus of `store` for one request: the procurement version is read once, on the first statistic asked for, and a
 * statistic already computed for that version (or a newer one another request saw) is reused.
 */
export function integrityCorpus(store: CorpusStore): IntegrityCorpus {
  let version: Promise<number> | undefined;
  async function entryOf() {
    version ??= store.procurementVersion();
    const current = await version;
    const holder = holderOf(store);
    if (!holder.entry || holder.entry.version < current) {
      holder.entry = { version: current, statistics: new Map(), buyerYears: new RecentlyUsed(HELD_BUYER_CONTRACTS) };
    }
    return holder.entry;
  }
  async function once<T>(key: string, compute: (rows: KeptRows) => Promise<T>): Promise<T> {
    const entry = await entryOf();
    let value = entry.statistics.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute((rowsKey, read) => keptRows(store, entry.version, rowsKey, read));
      entry.statistics.set(key, value);
      // A failed computation is forgotten, so that the next request tries again.
      value.catch(() => {
        if (entry.statistics.get(key) === value) entry.statistics.delete(key);
      });
    }
    return value;
  }
  return {
    supplierVariety: (source, digits, minimumProcesses) =>
      once(`variety:${source}:${digits}:${minimumProcesses}`, async (kept) =>
        supplierVarietyCorpus(
          await kept(`varieties:${source}:${digits}`, () => store.supplierVarieties(source, digits)),
          minimumProcesses,
        ),
      ),
    tendererBids: (source, topPercentile) =>
      once(`bids:${source}:${topPercentile}`, async (kept) =>
        tendererBidsCorpus(await kept(`bids:${source}`, () => store.tendererBids(source)), topPercentile),
      ),
    // One grouping per source and year: the check that asks always groups the same way.
    noticePeriods: (source, year, group) =>
      once(`periods:${source}:${year}`, async (kept) =>
        periodsByGroup(await kept(`periods:${source}:${year}`, () => yearPeriods(store, source, year)), group),
      ),
    span: (source) => once(`span:${source}`, () => sourceSpan(store, source)),
    buyerYear: async (key, read, weight) => (await entryOf()).buyerYears.get(key, read, weight),
  };
}

/**
 * A corpus query's rows (JSON, as the store gives them) under `key`: those kept for this procurement version, by
 * this process or another, else what `read` gives, kept for the next.
 */
type KeptRows = <T>(key: string, read: () => Promise<T>) => Promise<T>;

async function keptRows<T>(store: CorpusStore, version: number, key: string, read: () => Promise<T>): Promise<T> {
  const kept = await store.keptCorpusStatistic(key, version);
  if (kept !== undefined) return kept as T;
  const rows = await read();
  // Keeping them only spares the next process its GROUP BY: a request that could not write them (the database
  // locked by another process's import, a read-only user) still gets its answer.
  await store.keepCorpusStatistic(key, version, rows).catch(() => undefined);
  return rows;
}

function yearPeriods(store: CorpusStore, source: string, year: string): Promise<NoticePeriodCount[]> {
  return store.noticePeriods({ source, from: `${year}-01-01`, to: `${year}-12-31` });
}

/** Each group's periods (days, one per notice), ascending; a row `group` names null is left out. */
export function periodsByGroup(
  rows: readonly NoticePeriodCount[],
  group: (row: NoticePeriodCount) => string | null,
): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const row of rows) {
    const key = group(row);
    if (key === null) continue;
    const days = groups.get(key) ?? [];
    for (let i = 0; i < row.count; i++) days.push(row.days);
    groups.set(key, days);
  }
  for (const days of groups.values()) days.sort((x, y) => x - y);
  return groups;
}

async function sourceSpan(store: CorpusStore, source: string): Promise<SourceSpan> {
  const held = (await store.procurementSources()).find((s) => s.source === source && s.records === 'contracts');
  return { first: held?.first_date ?? null, last: held?.last_date ?? null };
}

function supplierVarietyCorpus(
  rows: readonly SupplierVarietyRecord[],
  minimumProcesses: number,
): SupplierVarietyCorpus {
  const bySupplier = new Map<string, SupplierVariety>();
  const varieties: number[] = [];
  for (const row of rows) {
    bySupplier.set(row.nif, { processes: row.processes, cpvPrefixes: row.cpv_prefixes });
    // Cardinal: a supplier of few processes is expected to vary little, so only those with the minimum make the fence.
    if (row.processes >= minimumProcesses) varieties.push(row.cpv_prefixes);
  }
  return { bySupplier, fences: fences(varieties) };
}

function tendererBidsCorpus(rows: readonly TendererBidsRecord[], topPercentile: number): TendererBidsCorpus {
  const byTenderer = new Map<string, TendererBids>();
  for (const row of rows) byTenderer.set(row.nif, { bids: row.bids, wins: row.wins });
  const tenderers = [...byTenderer.values()];
  const bids = tenderers.map((t) => t.bids).sort((a, b) => a - b);
  return {
    byTenderer,
    fences: fences(tenderers.map(unsuccessfulShare)),
    topBids: bids.length === 0 ? null : quantile(bids, topPercentile / 100),
  };
}
