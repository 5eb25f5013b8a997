/**
 * Computed cases: the list (last_seen_at descending, then id descending) and a case with its history and links.
 * Cases are listed once computed; the list's indexes are partial on that (see the migrations: a partial index is
 * used only when the query states its condition, so each source repeats it), and when episodic cases are hidden
 * the page reads the indexes that hold only cases with more than one signal:
 *
 *   municipalities → cases_[linked_]by_municipality, one range per municipality, merged
 *   family         → cases_[linked_]by_family
 *   otherwise      → cases_[linked_]by_seen
 *
 * With `updatedSince`, the change order instead (../changes/changed-since.ts), every filter checked on its rows.
 */
import { type ChangedQuery, readChangedIds } from '../changes/changed-since.js';
import type { KeysetPage } from '../procurement-queries.js';
import { CASE } from '../shared/case-rows.js';
import { inIdOrder } from '../shared/row-values.js';
import type { CaseFilter, InstantPosition } from '../signal-queries.js';
import type { CaseDetailRecord, CaseRecord } from '../signal-records.js';
import type { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';
import { loadCaseEvents } from './case-write.js';
import { type InstantQuery, readInstantIds, unique } from './instant-keyset.js';

export async function listCases(
  port: SqlPort,
  filter: CaseFilter,
  page: KeysetPage<InstantPosition>,
): Promise<CaseRecord[]> {
  const ids =
    filter.updatedSince === undefined
      ? await readInstantIds(port, caseQuery(port.dialect, filter, page))
      : await readChangedIds(port, changedCaseQuery(port.dialect, filter, filter.updatedSince, page));
  if (ids.length === 0) return [];
  const rows = await port.query(`SELECT * FROM cases WHERE ${port.dialect.inList('id', '$1')}`, [ids]);
  return inIdOrder(ids, rows, CASE.reader(port));
}

/** The query of a page; exported for the tests that EXPLAIN it. */
export function caseQuery(dialect: Dialect, filter: CaseFilter, page: KeysetPage<InstantPosition>): InstantQuery {
  const prefix = filter.includeEpisodic ? 'cases_by_' : 'cases_linked_by_';
  const listed = listedCases(dialect, filter);
  let sources: InstantQuery['sources'];
  let familyApplied = false;
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    sources = unique(filter.municipalityIds).map((id) => ({
      index: `${prefix}municipality`,
      where: (p: Params) => [...listed, `c.municipality_id = ${p.add(id)}`],
    }));
  } else if (filter.family !== undefined) {
    familyApplied = true;
    sources = [{ index: `${prefix}family`, where: (p) => [...listed, `c.family = ${p.add(filter.family)}`] }];
  } else {
    sources = [{ index: `${prefix}seen`, where: () => [...listed] }];
  }
  const residual = (p: Params) =>
    filter.family !== undefined && !familyApplied ? [`c.family = ${p.add(filter.family)}`] : [];
  return { table: 'cases', alias: 'c', column: 'last_seen_at', sources, residual, page };
}

/** A page in change order. */
export function changedCaseQuery(
  dialect: Dialect,
  filter: CaseFilter,
  since: string,
  page: KeysetPage<InstantPosition>,
): ChangedQuery {
  const where = (p: Params) => {
    const conditions = listedCases(dialect, filter);
    if (filter.municipalityIds && filter.municipalityIds.length > 0)
      conditions.push(dialect.inList('c.municipality_id', p.add(unique(filter.municipalityIds))));
    if (filter.family !== undefined) conditions.push(`c.family = ${p.add(filter.family)}`);
    return conditions;
  };
  return { table: 'cases', alias: 'c', index: 'cases_by_update', where, since, page };
}

/** The cases a list shows at all: computed ones, and only those of several signals unless episodic ones are asked. */
function listedCases(dialect: Dialect, filter: CaseFilter): string[] {
  return filter.includeEpisodic ? [dialect.isTrue('c.computed')] : [dialect.isTrue('c.computed'), 'c.source_count > 1'];
}

/** A computed case with its events (oldest first) and linked signals (by id); a never-computed one is not served. */
export async function getCase(port: SqlPort, id: number): Promise<CaseDetailRecord | undefined> {
  // The three reads side by side: on PostgreSQL one round trip's time, not two.
  const [[row], links, events] = await Promise.all([
    port.query(`SELECT * FROM cases WHERE id = $1 AND ${port.dialect.isTrue('computed')}`, [id]),
    port.query(
      `SELECT l.signal_id, l.relationship, s.title_pt, s.confidence
       FROM ${port.dialect.indexed('case_links', 'l', 'case_links_by_case')}
       JOIN signals s ON s.id = l.signal_id WHERE l.case_id = $1 ORDER BY l.signal_id`,
      [id],
    ),
    loadCaseEvents(port, [id]),
  ]);
  if (!row) return undefined;
  return {
    ...CASE.read(row, port.dialect.columns),
    events: events.get(id) ?? [],
    linked_signals: links.map((l) => ({
      signal_id: Number(l.signal_id),
      relationship: l.relationship as CaseDetailRecord['linked_signals'][number]['relationship'],
      title_pt: (l.title_pt as string | null) ?? null,
      confidence: Number(l.confidence),
    })),
  };
}
