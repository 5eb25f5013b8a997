/**
 * The signal list: last_seen_at descending, then id descending. The source a page reads (instant-keyset.ts):
 *
 *   municipalities → signals_by_municipality, one range per municipality, merged
 *   types          → signals_by_type, one range per type, merged
 *   family         → signals_by_family
 *   otherwise      → signals_by_seen
 *
 * Every other filter (minimum confidence, value tier, and types or family when a narrower source applies) is
 * checked on the rows the source yields.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import type { InstantPosition, SignalFilter } from '../../signal-queries.js';
import type { OrderedSource } from '../procurement/keyset.js';
import { jsonList, type Params, type Sql } from '../procurement/sql.js';
import { type InstantQuery, indexSource, readInstantIds, unique } from './instant-keyset.js';

type Dimension = 'municipality' | 'type' | 'family' | undefined;

export function listSignalIds(sql: Sql, filter: SignalFilter, page: KeysetPage<InstantPosition>): number[] {
  const { sources, query } = signalQuery(filter, page);
  return readInstantIds(sql, sources, query);
}

/** The sources and the query of a page; exported for the tests that EXPLAIN them. */
export function signalQuery(filter: SignalFilter, page: KeysetPage<InstantPosition>): { sources: OrderedSource[]; query: InstantQuery } {
  const { dimension, sources } = signalSources(filter);
  const residual: string[] = [];
  const params: Params = {};
  if (filter.types && filter.types.length > 0 && dimension !== 'type') {
    residual.push('s.type IN (SELECT value FROM json_each(@types))');
    params.types = jsonList(filter.types);
  }
  if (filter.family !== undefined && dimension !== 'family') {
    residual.push('s.family = @family');
    params.family = filter.family;
  }
  if (filter.minConfidence !== undefined && filter.minConfidence > 0) {
    residual.push('s.confidence >= @minConfidence');
    params.minConfidence = filter.minConfidence;
  }
  if (filter.valueTier !== undefined) {
    residual.push('s.value_tier = @valueTier');
    params.valueTier = filter.valueTier;
  }
  return { sources, query: { alias: 's', column: 'last_seen_at', residual, params, since: filter.since, page } };
}

function signalSources(filter: SignalFilter): { dimension: Dimension; sources: OrderedSource[] } {
  const source = (index: string, where: string[] = [], params: Params = {}) =>
    indexSource('signals', 's', index, 'last_seen_at', where, params);
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    return {
      dimension: 'municipality',
      sources: unique(filter.municipalityIds).map((id, i) =>
        source('signals_by_municipality', [`s.municipality_id = @m${i}`], { [`m${i}`]: id }),
      ),
    };
  }
  if (filter.types && filter.types.length > 0) {
    return {
      dimension: 'type',
      sources: unique(filter.types).map((type, i) => source('signals_by_type', [`s.type = @t${i}`], { [`t${i}`]: type })),
    };
  }
  if (filter.family !== undefined) {
    return { dimension: 'family', sources: [source('signals_by_family', ['s.family = @family'], { family: filter.family })] };
  }
  return { dimension: undefined, sources: [source('signals_by_seen')] };
}
