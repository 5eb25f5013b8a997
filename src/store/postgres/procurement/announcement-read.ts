/**
 * Announcements, by publication date descending (then id), or by deadline ascending (then id), soonest closing
 * first. Municipalities (one range each) and a district are sources (keyset.ts); other filters are conditions.
 */
import type { AnnouncementFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import type { AnnouncementRecord } from '../../procurement-records.js';
import { toAnnouncement } from '../../shared/procurement-rows.js';
import { type Params, prefixPattern, type Row, type Sql } from '../db.js';
import { dateRange, type KeysetQuery, type OrderedSource, readKeyset } from './keyset.js';
import { groupRows, POSTGRES_COLUMNS } from './rows.js';
import { wordConditions } from './text-search.js';

type Dimension = 'municipality' | 'district' | undefined;

export async function listAnnouncements(
  sql: Sql,
  filter: AnnouncementFilter,
  page: KeysetPage<DatePosition>,
): Promise<AnnouncementRecord[]> {
  return loadAnnouncements(sql, await readKeyset(sql, announcementQuery(filter, page)));
}

export function announcementQuery(filter: AnnouncementFilter, page: KeysetPage<DatePosition>): KeysetQuery {
  const byDeadline = filter.order === 'deadline';
  const column = byDeadline ? 'deadline_on' : 'published_on';
  const lowerBound = [filter.openOn, filter.closingAfter]
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  // A list by deadline holds only announcements that have one.
  const deadline = dateRange(lowerBound ?? (byDeadline ? '0000-01-01' : undefined), filter.closingBefore);
  const source =
    (dimension: Dimension, base: (p: Params) => OrderedSource) =>
    (p: Params): OrderedSource => {
      const own = base(p);
      // Deadline bounds go on the source's own column when it orders by the deadline: one index range.
      const bounds = deadline.on(byDeadline ? own.date : 'a.deadline_on', p);
      return { ...own, where: [...own.where, ...bounds, ...residualConditions(filter, dimension, p)] };
    };
  let sources: KeysetQuery['sources'];
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && !filter.words?.length) {
    sources = filter.municipalityIds.map((id) =>
      source('municipality', (p) => ({
        from: 'announcement_municipalities s JOIN announcements a ON a.id = s.announcement_id',
        date: `s.${column}`,
        id: 's.announcement_id',
        where: [`s.municipality_id = ${p.add(id)}`],
      })),
    );
  } else if (filter.district !== undefined && !filter.words?.length) {
    sources = [
      source('district', (p) => ({
        from: 'announcement_districts s JOIN announcements a ON a.id = s.announcement_id',
        date: `s.${column}`,
        id: 's.announcement_id',
        where: [`s.district_key = ${p.add(filter.district)}`],
      })),
    ];
  } else {
    sources = [source(undefined, () => ({ from: 'announcements a', date: `a.${column}`, id: 'a.id', where: [] }))];
  }
  return { sources, direction: byDeadline ? 'asc' : 'desc', page };
}

function residualConditions(filter: AnnouncementFilter, applied: Dimension, p: Params): string[] {
  const conditions: string[] = [];
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_municipalities x WHERE x.announcement_id = a.id AND x.municipality_id = ANY(${p.add(filter.municipalityIds)}::integer[]))`,
    );
  }
  if (filter.district !== undefined && applied !== 'district') {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_districts x WHERE x.announcement_id = a.id AND x.district_key = ${p.add(filter.district)})`,
    );
  }
  if (filter.cpvPrefix !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_cpvs x WHERE x.announcement_id = a.id AND x.cpv LIKE ${p.add(prefixPattern(filter.cpvPrefix))})`,
    );
  }
  if (filter.source !== undefined) conditions.push(`a.source = ${p.add(filter.source)}`);
  if (filter.words && filter.words.length > 0) conditions.push(...wordConditions('a.search_text', filter.words, p));
  return conditions;
}

/** The announcements with these ids, in the order of `ids`. */
export async function loadAnnouncements(sql: Sql, ids: readonly number[]): Promise<AnnouncementRecord[]> {
  if (ids.length === 0) return [];
  const values = [ids];
  const [rows, cpvs, places] = await Promise.all([
    sql('SELECT * FROM announcements WHERE id = ANY($1::integer[])', values),
    sql(
      `SELECT x.announcement_id, x.cpv, v.label_pt, v.label_en FROM announcement_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
       WHERE x.announcement_id = ANY($1::integer[]) ORDER BY x.announcement_id, x.position`,
      values,
    ),
    sql(
      `SELECT x.announcement_id, m.code FROM announcement_municipalities x JOIN municipalities m ON m.id = x.municipality_id
       WHERE x.announcement_id = ANY($1::integer[]) ORDER BY x.announcement_id, m.code`,
      values,
    ),
  ]);
  const cpvsOf = groupRows(cpvs, (r: Row) => Number(r.announcement_id));
  const placesOf = groupRows(places, (r: Row) => Number(r.announcement_id));
  const byId = new Map(
    rows.map((row) => {
      const id = Number(row.id);
      return [id, toAnnouncement(row, cpvsOf.get(id) ?? [], placesOf.get(id) ?? [], POSTGRES_COLUMNS)] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
