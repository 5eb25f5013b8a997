/**
 * The signal list: last_seen_at descending, then id descending. The source a page reads (instant-keyset.ts):
 *
 *   municipalities → signals_by_municipality, one range per municipality, merged
 *   types          → signals_by_type, one range per type, merged
 *   family         → signals_by_family
 *   otherwise      → signals_by_seen
 *
 * Every other filter (minimum confidence, value tier, and types or family when a narrower source applies) is
 * checked on the rows the source yields. With `updatedSince`, the change order instead (../changes/changed-since.ts),
 * every filter checked on its rows.
 */
import type { ChangedQuery } from '../changes/changed-since.js';
import type { KeysetPage } from '../procurement-queries.js';
import type { InstantPosition, SignalFilter } from '../signal-queries.js';
import type { Params } from '../sql/params.js';
import type { Dialect } from '../sql/port.js';
import { type InstantQuery, type InstantSource, unique } from './instant-keyset.js';

type Dimension = 'municipality' | 'type' | 'family' | undefined;

export function signalQuery(dialect: Dialect, filter: SignalFilter, page: KeysetPage<InstantPosition>): InstantQuery {
  const { dimension, sources } = signalSources(filter);
  const residual = (p: Params) => signalConditions(dialect, filter, dimension, p);
  return { table: 'signals', alias: 's', column: 'last_seen_at', sources, residual, since: filter.since, page };
}

/** A page in change order. */
export function changedSignalQuery(
  dialect: Dialect,
  filter: SignalFilter,
  since: string,
  page: KeysetPage<InstantPosition>,
): ChangedQuery {
  const where = (p: Params) => {
    const conditions = signalConditions(dialect, filter, undefined, p);
    if (filter.municipalityIds && filter.municipalityIds.length > 0)
      conditions.push(dialect.inList('s.municipality_id', p.add(unique(filter.municipalityIds))));
    if (filter.since !== undefined) conditions.push(`s.last_seen_at >= ${p.add(filter.since)}`);
    return conditions;
  };
  return { table: 'signals', alias: 's', index: 'signals_by_update', where, since, page };
}

/** The filters besides the municipality and `since`, but for the one the source applies. */
function signalConditions(dialect: Dialect, filter: SignalFilter, applied: Dimension, p: Params): string[] {
  const conditions: string[] = [];
  if (filter.types && filter.types.length > 0 && applied !== 'type')
    conditions.push(dialect.inList('s.type', p.add(filter.types)));
  if (filter.family !== undefined && applied !== 'family') conditions.push(`s.family = ${p.add(filter.family)}`);
  if (filter.minConfidence !== undefined && filter.minConfidence > 0)
    conditions.push(`s.confidence >= ${p.add(filter.minConfidence)}`);
  if (filter.valueTier !== undefined) conditions.push(`s.value_tier = ${p.add(filter.valueTier)}`);
  return conditions;
}

function signalSources(filter: SignalFilter): { dimension: Dimension; sources: InstantSource[] } {
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    return {
      dimension: 'municipality',
      sources: unique(filter.municipalityIds).map((id) => ({
        index: 'signals_by_municipality',
        where: (p) => [`s.municipality_id = ${p.add(id)}`],
      })),
    };
  }
  if (filter.types && filter.types.length > 0) {
    return {
      dimension: 'type',
      sources: unique(filter.types).map((type) => ({
        index: 'signals_by_type',
        where: (p) => [`s.type = ${p.add(type)}`],
      })),
    };
  }
  if (filter.family !== undefined) {
    return {
      dimension: 'family',
      sources: [{ index: 'signals_by_family', where: (p) => [`s.family = ${p.add(filter.family)}`] }],
    };
  }
  return { dimension: undefined, sources: [{ index: 'signals_by_seen', where: () => [] }] };
}
