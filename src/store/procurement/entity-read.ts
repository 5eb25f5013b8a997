/** Entities: the list (by tax number), one entity, and the pieces of its profile. */
import type { CounterpartRecord, EntityFilter, EntityYearRecord, KeysetPage } from '../procurement-queries.js';
import type { EntityRecord } from '../procurement-records.js';
import { toCounterpart, toEntity, toEntityYears } from '../shared/entity-rows.js';
import { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';
import { type TextSearch, textStart } from './text-search.js';

/** The select list of an entity with its municipality's code; `from` names the entities as `e`. */
export function entitySelect(from = 'entities e'): string {
  return `SELECT e.*, m.code AS municipality_code FROM ${from} LEFT JOIN municipalities m ON m.id = e.municipality_id`;
}

/**
 * By tax number ascending. Starts from the text index's matches when they are few (SQLite; PostgreSQL's planner
 * weighs its text index itself), else walks the kind index (or the tax-number index) and checks the rest on each row.
 */
export async function listEntities(
  port: SqlPort,
  search: TextSearch,
  filter: EntityFilter,
  page: KeysetPage<string>,
): Promise<EntityRecord[]> {
  const { text, values } = await entityListSql(port, search, filter, page);
  return (await port.query(text, values)).map(toEntity);
}

/** The statement of one page; exported for the tests that EXPLAIN it. */
export async function entityListSql(
  port: SqlPort,
  search: TextSearch,
  filter: EntityFilter,
  page: KeysetPage<string>,
): Promise<{ text: string; values: unknown[] }> {
  const p = new Params();
  const conditions: string[] = [];
  let from = 'entities e';
  const text = await textStart(port, search, 'entities', filter.words);
  if (text !== undefined && text !== 'planner') {
    from = `${text.from} CROSS JOIN entities e`;
    conditions.push('e.id = f.rowid', text.where(p));
  } else if (filter.kind !== undefined) {
    from = port.dialect.indexed('entities', 'e', 'entities_by_kind');
  }
  if (filter.words && filter.words.length > 0)
    conditions.push(...search.wordConditions('e.search_text', filter.words, p));
  if (filter.kind !== undefined) conditions.push(`e.kind = ${p.add(filter.kind)}`);
  if (filter.municipalityId !== undefined) conditions.push(`e.municipality_id = ${p.add(filter.municipalityId)}`);
  if (filter.source !== undefined) {
    const source = p.add(filter.source);
    conditions.push(
      `(EXISTS (SELECT 1 FROM contract_parties p JOIN contracts c ON c.id = p.contract_id
                WHERE p.nif = e.nif AND c.source = ${source})
        OR EXISTS (SELECT 1 FROM announcements a WHERE a.buyer_nif = e.nif AND a.source = ${source}))`,
    );
  }
  if (page.after !== undefined) conditions.push(`e.nif > ${p.add(page.after)}`);
  const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { text: `${entitySelect(from)}${where} ORDER BY e.nif LIMIT ${p.add(page.limit)}`, values: p.values };
}

export async function getEntity(port: SqlPort, nif: string): Promise<EntityRecord | undefined> {
  const [row] = await port.query(`${entitySelect()} WHERE e.nif = $1`, [nif]);
  return row && toEntity(row);
}

/** The entities with these tax numbers (unordered). */
export async function loadEntities(port: SqlPort, nifs: readonly string[]): Promise<EntityRecord[]> {
  if (nifs.length === 0) return [];
  return (await port.query(`${entitySelect()} WHERE ${port.dialect.inList('e.nif', '$1')}`, [nifs])).map(toEntity);
}

/** Per publication year, from the covering party index (no contract row is read). */
export async function entityYears(port: SqlPort, nif: string): Promise<EntityYearRecord[]> {
  const rows = await port.query(
    `SELECT substr(published_on, 1, 4) AS year, role, count(*) AS count, coalesce(sum(price_eur), 0) AS eur
     FROM contract_parties WHERE nif = $1 AND role IN ('buyer', 'supplier') GROUP BY 1, 2`,
    [nif],
  );
  return toEntityYears(rows);
}

export async function entityCounterparts(
  port: SqlPort,
  nif: string,
  as: 'buyer' | 'supplier',
  limit: number,
): Promise<CounterpartRecord[]> {
  const rows = await port.query(
    `SELECT t.nif, e.name, t.count, t.total FROM (
       SELECT o.nif, count(*) AS count, coalesce(sum(o.price_eur), 0) AS total
       FROM contract_parties p JOIN contract_parties o ON o.contract_id = p.contract_id AND o.role = $3
       WHERE p.nif = $1 AND p.role = $2 AND o.nif IS NOT NULL AND o.nif <> $1
       GROUP BY o.nif
     ) AS t JOIN entities e ON e.nif = t.nif
     ORDER BY t.total DESC, t.count DESC, t.nif LIMIT $4`,
    [nif, as, as === 'buyer' ? 'supplier' : 'buyer', limit],
  );
  return rows.map(toCounterpart);
}
