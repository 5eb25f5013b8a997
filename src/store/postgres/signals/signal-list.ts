/**
 * The signal list: last_seen_at descending, then id descending; one source per municipality, else per type, else
 * the family or the whole list (instant-keyset.ts). Other filters are checked on the rows a source yields.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import type { InstantPosition, SignalFilter } from '../../signal-queries.js';
import type { Params, Sql } from '../db.js';
import { type InstantQuery, readInstantIds, unique } from './instant-keyset.js';

type Dimension = 'municipality' | 'type' | 'family' | undefined;

export async function listSignalIds(sql: Sql, filter: SignalFilter, page: KeysetPage<InstantPosition>): Promise<number[]> {
  return readInstantIds(sql, signalQuery(filter, page));
}

export function signalQuery(filter: SignalFilter, page: KeysetPage<InstantPosition>): InstantQuery {
  let dimension: Dimension;
  let sources: InstantQuery['sources'];
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    dimension = 'municipality';
    sources = unique(filter.municipalityIds).map((id) => (p: Params) => [`s.municipality_id = ${p.add(id)}`]);
  } else if (filter.types && filter.types.length > 0) {
    dimension = 'type';
    sources = unique(filter.types).map((type) => (p: Params) => [`s.type = ${p.add(type)}`]);
  } else if (filter.family !== undefined) {
    dimension = 'family';
    sources = [(p) => [`s.family = ${p.add(filter.family)}`]];
  } else {
    sources = [() => []];
  }
  const residual = (p: Params) => {
    const conditions: string[] = [];
    if (filter.types && filter.types.length > 0 && dimension !== 'type') conditions.push(`s.type = ANY(${p.add(filter.types)}::text[])`);
    if (filter.family !== undefined && dimension !== 'family') conditions.push(`s.family = ${p.add(filter.family)}`);
    if (filter.minConfidence !== undefined && filter.minConfidence > 0) conditions.push(`s.confidence >= ${p.add(filter.minConfidence)}`);
    if (filter.valueTier !== undefined) conditions.push(`s.value_tier = ${p.add(filter.valueTier)}`);
    return conditions;
  };
  return { table: 'signals', alias: 's', column: 'last_seen_at', sources, residual, since: filter.since, page };
}
