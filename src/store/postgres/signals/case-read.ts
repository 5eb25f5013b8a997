/**
 * Computed cases: the list (last_seen_at descending, then id descending; the partial indexes of the migration,
 * whose conditions each source repeats) and a case with its history and links.
 */
import type { KeysetPage } from '../../procurement-queries.js';
import { toCase } from '../../shared/case-rows.js';
import type { CaseFilter, InstantPosition } from '../../signal-queries.js';
import type { CaseDetailRecord, CaseRecord } from '../../signal-records.js';
import type { Params, Sql } from '../db.js';
import { loadCaseEvents } from './case-write.js';
import { type InstantQuery, readInstantIds, unique } from './instant-keyset.js';

export async function listCases(sql: Sql, filter: CaseFilter, page: KeysetPage<InstantPosition>): Promise<CaseRecord[]> {
  const ids = await readInstantIds(sql, caseQuery(filter, page));
  if (ids.length === 0) return [];
  const rows = await sql('SELECT * FROM cases WHERE id = ANY($1::integer[])', [ids]);
  const byId = new Map(rows.map((row) => [Number(row.id), toCase(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function caseQuery(filter: CaseFilter, page: KeysetPage<InstantPosition>): InstantQuery {
  const listed = filter.includeEpisodic ? ['c.computed'] : ['c.computed', 'c.source_count > 1'];
  let sources: InstantQuery['sources'];
  let familyApplied = false;
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    sources = unique(filter.municipalityIds).map((id) => (p: Params) => [...listed, `c.municipality_id = ${p.add(id)}`]);
  } else if (filter.family !== undefined) {
    familyApplied = true;
    sources = [(p) => [...listed, `c.family = ${p.add(filter.family)}`]];
  } else {
    sources = [() => [...listed]];
  }
  const residual = (p: Params) => (filter.family !== undefined && !familyApplied ? [`c.family = ${p.add(filter.family)}`] : []);
  return { table: 'cases', alias: 'c', column: 'last_seen_at', sources, residual, page };
}

/** A computed case with its events (oldest first) and linked signals (by id); a never-computed one is not served. */
export async function getCase(sql: Sql, id: number): Promise<CaseDetailRecord | undefined> {
  const [[row], links, events] = await Promise.all([
    sql('SELECT * FROM cases WHERE id = $1 AND computed', [id]),
    sql(
      `SELECT l.signal_id, l.relationship, s.title_pt, s.confidence FROM case_links l
       JOIN signals s ON s.id = l.signal_id WHERE l.case_id = $1 ORDER BY l.signal_id`,
      [id],
    ),
    loadCaseEvents(sql, [id]),
  ]);
  if (!row) return undefined;
  return {
    ...toCase(row),
    events: events.get(id) ?? [],
    linked_signals: links.map((l) => ({
      signal_id: Number(l.signal_id),
      relationship: l.relationship as CaseDetailRecord['linked_signals'][number]['relationship'],
      title_pt: (l.title_pt as string | null) ?? null,
      confidence: Number(l.confidence),
    })),
  };
}
