/**
 * Announcements, by publication date descending (then id), or — for open ones — by deadline ascending (then id),
 * soonest closing first. Where a page starts reading (keyset.ts), the first that applies:
 *
 *   q with few matches  → the text index's matches, sorted (SQLite: text-search.ts)
 *   q (PostgreSQL)      → the date (deadline) index, the planner weighing its text index against it
 *   municipality        → announcement_municipalities_by_date (by_deadline), one range per municipality
 *   district            → announcement_districts_by_date (by_deadline)
 *   otherwise           → announcements_by_date (by_deadline)
 */
import type { AnnouncementFilter, DatePosition, KeysetPage } from '../procurement-queries.js';
import type { AnnouncementRecord } from '../procurement-records.js';
import { dateRange } from '../shared/date-ranges.js';
import { toAnnouncement } from '../shared/procurement-rows.js';
import { inIdOrder } from '../shared/row-values.js';
import { type Params, prefixPattern } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';
import { type KeysetQuery, type OrderedSource, readKeysetIds } from './keyset.js';
import { cpvsByRecord, placesByRecord } from './record-parts.js';
import { type TextSearch, textStart } from './text-search.js';

type Dimension = 'municipality' | 'district' | undefined;

/** One page of announcements, in list order. */
export async function listAnnouncements(
  port: SqlPort,
  search: TextSearch,
  filter: AnnouncementFilter,
  page: KeysetPage<DatePosition>,
): Promise<AnnouncementRecord[]> {
  return loadAnnouncements(port, await readKeysetIds(port, await announcementQuery(port, search, filter, page)));
}

/** The query of a page; exported for the tests that EXPLAIN it. */
export async function announcementQuery(
  port: SqlPort,
  search: TextSearch,
  filter: AnnouncementFilter,
  page: KeysetPage<DatePosition>,
): Promise<KeysetQuery> {
  const byDeadline = filter.order === 'deadline';
  const { dimension, sources } = await announcementSources(
    port,
    search,
    filter,
    byDeadline ? 'deadline_on' : 'published_on',
  );
  const lowerBound = [filter.openOn, filter.closingAfter]
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  // A list by deadline holds only announcements that have one.
  const deadline = dateRange(lowerBound ?? (byDeadline ? '0000-01-01' : undefined), filter.closingBefore);
  return {
    sources,
    // Deadline bounds go on the source's own column when it orders by the deadline: one index range.
    residual: (p, date) => [
      ...deadline.on(byDeadline ? date : 'a.deadline_on', p),
      ...residualConditions(port.dialect, search, filter, dimension, p),
    ],
    direction: byDeadline ? 'asc' : 'desc',
    page,
  };
}

async function announcementSources(
  port: SqlPort,
  search: TextSearch,
  filter: AnnouncementFilter,
  column: 'published_on' | 'deadline_on',
): Promise<{ dimension: Dimension; sources: OrderedSource[] }> {
  const { indexed } = port.dialect;
  const byWhat = column === 'deadline_on' ? 'deadline' : 'date';
  const text = await textStart(port, search, 'announcements', filter.words);
  if (text !== undefined && text !== 'planner') {
    return {
      dimension: undefined,
      sources: [
        {
          from: `${text.from} CROSS JOIN announcements a`,
          date: `a.${column}`,
          id: 'a.id',
          where: (p) => ['a.id = f.rowid', text.where(p)],
        },
      ],
    };
  }
  // The announcement's places, in list order: one range per municipality, or the district's.
  const place = (
    table: 'announcement_municipalities' | 'announcement_districts',
    where: OrderedSource['where'],
  ): OrderedSource => ({
    from: `${indexed(table, 's', `${table}_by_${byWhat}`)} CROSS JOIN announcements a`,
    date: `s.${column}`,
    id: 's.announcement_id',
    where: (p) => ['a.id = s.announcement_id', ...where(p)],
  });
  if (text !== 'planner' && filter.municipalityIds && filter.municipalityIds.length > 0) {
    return {
      dimension: 'municipality',
      sources: [...new Set(filter.municipalityIds)].map((id) =>
        place('announcement_municipalities', (p) => [`s.municipality_id = ${p.add(id)}`]),
      ),
    };
  }
  const { district } = filter;
  if (text !== 'planner' && district !== undefined) {
    return {
      dimension: 'district',
      sources: [place('announcement_districts', (p) => [`s.district_key = ${p.add(district)}`])],
    };
  }
  return {
    dimension: undefined,
    sources: [
      {
        from: indexed('announcements', 'a', `announcements_by_${byWhat}`),
        date: `a.${column}`,
        id: 'a.id',
        where: () => [],
      },
    ],
  };
}

/** Every filter except the one the source already applies, as conditions on the announcement row `a`. */
function residualConditions(
  dialect: Dialect,
  search: TextSearch,
  filter: AnnouncementFilter,
  applied: Dimension,
  p: Params,
): string[] {
  const conditions: string[] = [];
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_municipalities x WHERE x.announcement_id = a.id
       AND ${dialect.inList('x.municipality_id', p.add(filter.municipalityIds))})`,
    );
  }
  if (filter.district !== undefined && applied !== 'district') {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_districts x WHERE x.announcement_id = a.id
       AND x.district_key = ${p.add(filter.district)})`,
    );
  }
  if (filter.cpvPrefix !== undefined) {
    conditions.push(
      `EXISTS (SELECT 1 FROM announcement_cpvs x WHERE x.announcement_id = a.id
       AND x.cpv LIKE ${p.add(prefixPattern(filter.cpvPrefix))})`,
    );
  }
  if (filter.source !== undefined) conditions.push(`a.source = ${p.add(filter.source)}`);
  if (filter.words && filter.words.length > 0)
    conditions.push(...search.wordConditions('a.search_text', filter.words, p));
  return conditions;
}

/** The announcements with these ids, in the order of `ids`; unknown ids skipped. */
export async function loadAnnouncements(port: SqlPort, ids: readonly number[]): Promise<AnnouncementRecord[]> {
  if (ids.length === 0) return [];
  const [rows, cpvs, places] = await Promise.all([
    port.query(`SELECT * FROM announcements WHERE ${port.dialect.inList('id', '$1')}`, [ids]),
    cpvsByRecord(port, 'announcement', ids),
    placesByRecord(port, 'announcement', ids),
  ]);
  return inIdOrder(ids, rows, (row, id) =>
    toAnnouncement(row, cpvs.get(id) ?? [], places.get(id) ?? [], port.dialect.columns),
  );
}
