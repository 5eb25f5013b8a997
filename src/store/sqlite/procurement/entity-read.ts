/** Entities: the list (by tax number), one entity, and the pieces of its profile. */
import type { CounterpartRecord, EntityFilter, EntityYearRecord, KeysetPage } from '../../procurement-queries.js';
import type { EntityRecord } from '../../procurement-records.js';
import { toCounterpart, toEntity, toEntityYears } from '../../shared/entity-rows.js';
import type { Params, Row, Sql } from './sql.js';
import { ftsQuery, isSmallTextSet, wordConditions } from './text-search.js';

export const ENTITY_SELECT = 'e.*, m.code AS municipality_code FROM entities e LEFT JOIN municipalities m ON m.id = e.municipality_id';

/**
 * By tax number ascending. Starts from the text matches when they are few, else walks the kind or the
 * municipality index (or the tax-number index) and checks the rest on each row.
 */
export function listEntities(sql: Sql, filter: EntityFilter, page: KeysetPage<string>): EntityRecord[] {
  const conditions: string[] = [];
  const params: Params = { limit: page.limit };
  let from = 'entities e';
  const fts = filter.words && ftsQuery(filter.words);
  if (fts !== undefined && isSmallTextSet(sql, 'entities_fts', fts)) {
    from = 'entities_fts f JOIN entities e ON e.id = f.rowid';
    conditions.push('entities_fts MATCH @fts');
    params.fts = fts;
  } else if (filter.kind !== undefined) {
    from = 'entities e INDEXED BY entities_by_kind';
  }
  if (filter.words && filter.words.length > 0) {
    const words = wordConditions('e.search_text', filter.words);
    conditions.push(...words.conditions);
    Object.assign(params, words.params);
  }
  if (filter.kind !== undefined) {
    conditions.push('e.kind = @kind');
    params.kind = filter.kind;
  }
  if (filter.municipalityId !== undefined) {
    conditions.push('e.municipality_id = @municipalityId');
    params.municipalityId = filter.municipalityId;
  }
  if (filter.source !== undefined) {
    conditions.push(
      '(EXISTS (SELECT 1 FROM contract_parties p JOIN contracts c ON c.id = p.contract_id WHERE p.nif = e.nif AND c.source = @source) OR EXISTS (SELECT 1 FROM announcements a WHERE a.buyer_nif = e.nif AND a.source = @source))',
    );
    params.source = filter.source;
  }
  if (page.after !== undefined) {
    conditions.push('e.nif > @after');
    params.after = page.after;
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const ids = sql(`SELECT e.id FROM ${from} ${where} ORDER BY e.nif LIMIT @limit`).all(params) as Row[];
  if (ids.length === 0) return [];
  return (
    sql(`SELECT ${ENTITY_SELECT} WHERE e.id IN (SELECT value FROM json_each(@ids)) ORDER BY e.nif`).all({
      ids: JSON.stringify(ids.map((r) => r.id)),
    }) as Row[]
  ).map(toEntity);
}

export function getEntity(sql: Sql, nif: string): EntityRecord | undefined {
  const row = sql(`SELECT ${ENTITY_SELECT} WHERE e.nif = ?`).get(nif) as Row | undefined;
  return row && toEntity(row);
}

/** Per publication year, from the covering party index (no contract row is read). */
export function entityYears(sql: Sql, nif: string): EntityYearRecord[] {
  const rows = sql(
    `SELECT substr(published_on, 1, 4) AS year, role, count(*) AS count, total(price_eur) AS eur FROM contract_parties
     WHERE nif = ? AND role IN ('buyer', 'supplier') GROUP BY year, role`,
  ).all(nif) as Row[];
  return toEntityYears(rows);
}

export function entityCounterparts(sql: Sql, nif: string, as: 'buyer' | 'supplier', limit: number): CounterpartRecord[] {
  const rows = sql(
    `SELECT t.nif, e.name, t.count, t.total FROM (
       SELECT o.nif, count(*) AS count, total(o.price_eur) AS total
       FROM contract_parties p JOIN contract_parties o ON o.contract_id = p.contract_id AND o.role = @other
       WHERE p.nif = @nif AND p.role = @as AND o.nif IS NOT NULL AND o.nif <> @nif
       GROUP BY o.nif
     ) AS t JOIN entities e ON e.nif = t.nif
     ORDER BY t.total DESC, t.count DESC, t.nif LIMIT @limit`,
  ).all({ nif, as, other: as === 'buyer' ? 'supplier' : 'buyer', limit }) as Row[];
  return rows.map(toCounterpart);
}
