/**
 * Announcements, by publication date descending (then id), or — for open ones — by deadline ascending (then id),
 * soonest closing first. Sources as for contracts (keyset.ts): the text matches when few, one range per
 * municipality, the district's range, or the date (deadline) index.
 */
import type { AnnouncementFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import type { AnnouncementRecord } from '../../procurement-records.js';
import { toAnnouncement } from '../../shared/procurement-rows.js';
import { dateRange, type OrderedSource, readKeyset } from './keyset.js';
import { groupRows, jsonList, type Params, type Row, SQLITE_COLUMNS, type Sql } from './sql.js';
import { ftsQuery, isSmallTextSet, wordConditions } from './text-search.js';

type Dimension = 'municipality' | 'district' | undefined;

export function listAnnouncements(sql: Sql, filter: AnnouncementFilter, page: KeysetPage<DatePosition>): AnnouncementRecord[] {
  const { sources, query } = announcementQuery(sql, filter, page);
  return loadAnnouncements(
    sql,
    readKeyset(sql, sources, query).map((row) => Number(row.id)),
  );
}

export function announcementQuery(sql: Sql, filter: AnnouncementFilter, page: KeysetPage<DatePosition>) {
  const byDeadline = filter.order === 'deadline';
  const column = byDeadline ? 'deadline_on' : 'published_on';
  const { dimension, sources } = announcementSources(sql, filter, column);
  const residual = residualConditions(filter, dimension);
  // Deadline bounds go on the source's own column when it orders by the deadline: one index range.
  const lowerBound = [filter.openOn, filter.closingAfter]
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  // A list by deadline holds only announcements that have one.
  const deadline = dateRange(lowerBound ?? (byDeadline ? '0000-01-01' : undefined), filter.closingBefore, 'deadline');
  const query = {
    select: `a.id AS id, a.${column} AS date`,
    direction: byDeadline ? ('asc' as const) : ('desc' as const),
    where: (source: OrderedSource) => [...deadline.on(byDeadline ? source.date : 'a.deadline_on'), ...residual.conditions],
    params: { ...residual.params, ...deadline.params },
    page,
  };
  return { sources, query };
}

/** Each source names its index and is the outer loop of its join, as for contracts (contract-list.ts). */
function announcementSources(sql: Sql, filter: AnnouncementFilter, column: string): { dimension: Dimension; sources: OrderedSource[] } {
  const byWhat = column === 'deadline_on' ? 'deadline' : 'date';
  const fts = filter.words && ftsQuery(filter.words);
  if (fts !== undefined && isSmallTextSet(sql, 'announcements_fts', fts)) {
    return {
      dimension: undefined,
      sources: [
        {
          from: 'announcements_fts f CROSS JOIN announcements a ON a.id = f.rowid',
          date: `a.${column}`,
          id: 'a.id',
          where: ['announcements_fts MATCH @fts'],
          params: { fts },
        },
      ],
    };
  }
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    return {
      dimension: 'municipality',
      sources: filter.municipalityIds.map((id, i) => ({
        from: `announcement_municipalities s INDEXED BY announcement_municipalities_by_${byWhat} CROSS JOIN announcements a ON a.id = s.announcement_id`,
        date: `s.${column}`,
        id: 's.announcement_id',
        where: [`s.municipality_id = @m${i}`],
        params: { [`m${i}`]: id },
      })),
    };
  }
  if (filter.district !== undefined) {
    return {
      dimension: 'district',
      sources: [
        {
          from: `announcement_districts s INDEXED BY announcement_districts_by_${byWhat} CROSS JOIN announcements a ON a.id = s.announcement_id`,
          date: `s.${column}`,
          id: 's.announcement_id',
          where: ['s.district_key = @district'],
          params: { district: filter.district },
        },
      ],
    };
  }
  return {
    dimension: undefined,
    sources: [{ from: `announcements a INDEXED BY announcements_by_${byWhat}`, date: `a.${column}`, id: 'a.id', where: [], params: {} }],
  };
}

function residualConditions(filter: AnnouncementFilter, applied: Dimension): { conditions: string[]; params: Params } {
  const conditions: string[] = [];
  const params: Params = {};
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      'EXISTS (SELECT 1 FROM announcement_municipalities x WHERE x.announcement_id = a.id AND x.municipality_id IN (SELECT value FROM json_each(@municipalities)))',
    );
    params.municipalities = jsonList(filter.municipalityIds);
  }
  if (filter.district !== undefined && applied !== 'district') {
    conditions.push('EXISTS (SELECT 1 FROM announcement_districts x WHERE x.announcement_id = a.id AND x.district_key = @district)');
    params.district = filter.district;
  }
  if (filter.cpvPrefix !== undefined) {
    conditions.push('EXISTS (SELECT 1 FROM announcement_cpvs x WHERE x.announcement_id = a.id AND x.cpv LIKE @cpvPattern)');
    params.cpvPattern = `${filter.cpvPrefix}%`;
  }
  if (filter.source !== undefined) {
    conditions.push('a.source = @source');
    params.source = filter.source;
  }
  if (filter.words && filter.words.length > 0) {
    const words = wordConditions('a.search_text', filter.words);
    conditions.push(...words.conditions);
    Object.assign(params, words.params);
  }
  return { conditions, params };
}

/** The announcements with these ids, in the order of `ids`. */
export function loadAnnouncements(sql: Sql, ids: readonly number[]): AnnouncementRecord[] {
  if (ids.length === 0) return [];
  const idList = { ids: jsonList(ids) };
  const rows = sql('SELECT * FROM announcements WHERE id IN (SELECT value FROM json_each(@ids))').all(idList) as Row[];
  const cpvs = groupRows(
    sql(
      `SELECT x.announcement_id, x.cpv, v.label_pt, v.label_en FROM announcement_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
       WHERE x.announcement_id IN (SELECT value FROM json_each(@ids)) ORDER BY x.announcement_id, x.position`,
    ).all(idList) as Row[],
    (r) => Number(r.announcement_id),
  );
  const places = groupRows(
    sql(
      `SELECT x.announcement_id, m.code FROM announcement_municipalities x JOIN municipalities m ON m.id = x.municipality_id
       WHERE x.announcement_id IN (SELECT value FROM json_each(@ids)) ORDER BY x.announcement_id, m.code`,
    ).all(idList) as Row[],
    (r) => Number(r.announcement_id),
  );
  const byId = new Map(
    rows.map((row) => {
      const id = Number(row.id);
      return [id, toAnnouncement(row, cpvs.get(id) ?? [], places.get(id) ?? [], SQLITE_COLUMNS)] as const;
    }),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}
