/**
 * Where a source's corpus stands for the three checks that judge a contract against it (docs/integrity.md,
 * "Signals"): the suppliers R048 flags, the tenderers R025 flags, and the fence of every group of comparable
 * notices (PT-R003-FENCE). Detection keeps the standing of its last run: a contract whose own record did not change
 * is judged again only where the standing moved (a supplier or tenderer that crossed a fence, a group whose fence
 * moved), not every contract of the source on every run.
 */

import type { CheckContext } from './check.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS, isExcessiveTenderer } from './checks/excessive-unsuccessful-bids.js';
import { HETEROGENEOUS_SUPPLIER, isHeterogeneous } from './checks/heterogeneous-supplier.js';
import { comparableFence, comparableGroup, SHORT_PERIOD_VS_COMPARABLE } from './checks/short-period-vs-comparable.js';
import { periodsByGroup } from './corpus.js';
import { threshold } from './methodology.js';
import { roundStat } from './quartiles.js';

/** The types judged against the source's corpus: their verdicts move with the standing. */
export const CORPUS_TYPE_KEYS: ReadonlySet<string> = new Set(
  [HETEROGENEOUS_SUPPLIER, EXCESSIVE_UNSUCCESSFUL_BIDS, SHORT_PERIOD_VS_COMPARABLE].map((t) => t.key),
);

export interface Standing {
  /** Tax numbers of the suppliers R048 flags, ascending. */
  heterogeneous: string[];
  /** Tax numbers of the tenderers R025 flags, ascending. */
  excessive: string[];
  /** By `<year> <group key>`: the fence and Q1 a period is judged against, for the groups with enough notices. */
  period_fences: Record<string, [lower_fence: number, q1: number]>;
}

/** A comparable group (the check's `groupKey`) of one year: a key of `period_fences`. */
export const periodGroup = (year: string, group: string): string => `${year} ${group}`;

export async function standingOf(ctx: CheckContext, source: string): Promise<Standing> {
  const digits = threshold(HETEROGENEOUS_SUPPLIER, 'cpv_digits');
  const minimum = threshold(HETEROGENEOUS_SUPPLIER, 'minimum_contracting_processes');
  const variety = await ctx.corpus.supplierVariety(source, digits, minimum);
  const heterogeneous = [...variety.bySupplier]
    .filter(([, own]) => isHeterogeneous(own, variety, minimum))
    .map(([nif]) => nif);
  const percentile = threshold(EXCESSIVE_UNSUCCESSFUL_BIDS, 'top_tenderer_percentile');
  const bids = await ctx.corpus.tendererBids(source, percentile);
  const excessive = [...bids.byTenderer].filter(([, own]) => isExcessiveTenderer(own, bids)).map(([nif]) => nif);
  return {
    heterogeneous: heterogeneous.sort(),
    excessive: excessive.sort(),
    period_fences: await periodFences(ctx, source),
  };
}

async function periodFences(ctx: CheckContext, source: string): Promise<Standing['period_fences']> {
  // Every year at once, each group named by its year as well, grouped as the check groups a year's notices.
  const rows = await ctx.store.noticePeriods({ source, from: '0000-01-01', to: '9999-12-31' });
  const groups = periodsByGroup(rows, (row) => {
    const group = comparableGroup(row);
    return group === null ? null : periodGroup(row.year, group);
  });
  const needed = threshold(SHORT_PERIOD_VS_COMPARABLE, 'min_comparables');
  const out: Standing['period_fences'] = {};
  for (const [key, days] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (days.length < needed) continue;
    const fence = comparableFence(days);
    out[key] = [roundStat(fence.lower_fence), roundStat(fence.q1)];
  }
  return out;
}

/** What moved from one standing to the next: the tax numbers that crossed a fence, the groups whose fence moved. */
export function standingMoves(before: Standing | null, now: Standing) {
  const crossed = (a: readonly string[], b: readonly string[]) => {
    const x = new Set(a);
    const y = new Set(b);
    return [...new Set([...a, ...b])].filter((n) => x.has(n) !== y.has(n));
  };
  const was = before?.period_fences ?? {};
  const groups = [...new Set([...Object.keys(was), ...Object.keys(now.period_fences)])].filter(
    (k) => JSON.stringify(was[k] ?? null) !== JSON.stringify(now.period_fences[k] ?? null),
  );
  return {
    suppliers: crossed(before?.heterogeneous ?? [], now.heterogeneous),
    tenderers: crossed(before?.excessive ?? [], now.excessive),
    groups,
  };
}
