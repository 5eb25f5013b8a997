/**
 * Computed cases: the list (last_seen_at descending, then id descending) and a case with its history and links.
 * Cases are listed once computed; the list's indexes are partial on that (see the migration), and when episodic
 * cases are hidden the page reads the indexes that hold only cases with more than one signal:
 *
 *   municipalities → cases_[linked_]by_municipality, one range per municipality, merged
 *   family         → cases_[linked_]by_family
 *   otherwise      → cases_[linked_]by_seen
 */
import type { KeysetPage } from '../../procurement-queries.js';
import { toCase } from '../../shared/case-rows.js';
import type { CaseFilter, InstantPosition } from '../../signal-queries.js';
import type { CaseDetailRecord, CaseRecord } from '../../signal-records.js';
import type { OrderedSource } from '../procurement/keyset.js';
import { jsonList, type Params, type Row, type Sql } from '../procurement/sql.js';
import { loadCaseEvents } from './case-rows.js';
import { type InstantQuery, indexSource, readInstantIds, unique } from './instant-keyset.js';

export function listCases(sql: Sql, filter: CaseFilter, page: KeysetPage<InstantPosition>): CaseRecord[] {
  const { sources, query } = caseQuery(filter, page);
  return loadCases(sql, readInstantIds(sql, sources, query));
}

/** The sources and the query of a page; exported for the tests that EXPLAIN them. */
export function caseQuery(filter: CaseFilter, page: KeysetPage<InstantPosition>): { sources: OrderedSource[]; query: InstantQuery } {
  // A partial index is used only when the query states its condition: each source repeats it.
  const prefix = filter.includeEpisodic ? 'cases_by_' : 'cases_linked_by_';
  const listed = filter.includeEpisodic ? ['c.computed = 1'] : ['c.computed = 1', 'c.source_count > 1'];
  const source = (index: string, where: string[] = [], params: Params = {}) =>
    indexSource('cases', 'c', `${prefix}${index}`, 'last_seen_at', [...listed, ...where], params);
  const residual: string[] = [];
  const params: Params = {};
  let sources: OrderedSource[];
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    sources = unique(filter.municipalityIds).map((id, i) => source('municipality', [`c.municipality_id = @m${i}`], { [`m${i}`]: id }));
    if (filter.family !== undefined) {
      residual.push('c.family = @family');
      params.family = filter.family;
    }
  } else if (filter.family !== undefined) {
    sources = [source('family', ['c.family = @family'], { family: filter.family })];
  } else {
    sources = [source('seen')];
  }
  return { sources, query: { alias: 'c', column: 'last_seen_at', residual, params, page } };
}

/** The computed cases with these ids, in the order of `ids`. */
function loadCases(sql: Sql, ids: readonly number[]): CaseRecord[] {
  if (ids.length === 0) return [];
  const rows = sql('SELECT * FROM cases WHERE id IN (SELECT value FROM json_each(@ids))').all({ ids: jsonList(ids) }) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), toCase(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A computed case with its events (oldest first) and linked signals (by id); a never-computed one is not served. */
export function getCase(sql: Sql, id: number): CaseDetailRecord | undefined {
  const row = sql('SELECT * FROM cases WHERE id = ? AND computed = 1').get(id) as Row | undefined;
  if (!row) return undefined;
  const links = sql(
    `SELECT l.signal_id, l.relationship, s.title_pt, s.confidence FROM case_links l INDEXED BY case_links_by_case
     JOIN signals s ON s.id = l.signal_id WHERE l.case_id = ? ORDER BY l.signal_id`,
  ).all(id) as Row[];
  return {
    ...toCase(row),
    events: loadCaseEvents(sql, [id]).get(id) ?? [],
    linked_signals: links.map((l) => ({
      signal_id: Number(l.signal_id),
      relationship: l.relationship as CaseDetailRecord['linked_signals'][number]['relationship'],
      title_pt: (l.title_pt as string | null) ?? null,
      confidence: Number(l.confidence),
    })),
  };
}
