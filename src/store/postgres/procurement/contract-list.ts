/**
 * The contract list: publication date descending, then id descending. A party, municipalities or a one-digit CPV
 * prefix are sources (keyset.ts) — index ranges in list order, one per value; every other filter is a condition
 * on the contract row, and PostgreSQL's planner picks the index (date, CPV division, procedure, price or text).
 */
import type { ContractFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import { procedureKey } from '../../shared/procurement-keys.js';
import { type Params, prefixPattern, type Sql } from '../db.js';
import { dateRange, type KeysetQuery, type OrderedSource, readKeyset } from './keyset.js';
import { wordConditions } from './text-search.js';

type Dimension = 'supplier' | 'buyer' | 'party' | 'municipality';

/** Ids (in list order) of one page of contracts. */
export async function listContractIds(sql: Sql, filter: ContractFilter, page: KeysetPage<DatePosition>): Promise<number[]> {
  return readKeyset(sql, contractQuery(filter, page));
}

export function contractQuery(filter: ContractFilter, page: KeysetPage<DatePosition>): KeysetQuery {
  const published = dateRange(filter.from, filter.to);
  const source =
    (dimension: Dimension | undefined, base: (p: Params) => Omit<OrderedSource, 'where'> & { where: string[] }) =>
    (p: Params): OrderedSource => {
      const own = base(p);
      // The date bounds go on the source's own date column: with its equality conditions, one index range.
      return { ...own, where: [...own.where, ...published.on(own.date, p), ...residualConditions(filter, dimension, p)] };
    };
  const party = (nif: string, roles: string[], dimension: Dimension) =>
    roles.map((role) =>
      source(dimension, (p) => ({
        from: 'contract_parties s JOIN contracts c ON c.id = s.contract_id',
        date: 's.published_on',
        id: 's.contract_id',
        where: [`s.nif = ${p.add(nif)}`, `s.role = '${role}'`],
      })),
    );
  const byDate = (dimension?: Dimension) =>
    source(dimension, () => ({ from: 'contracts c', date: 'c.published_on', id: 'c.id', where: [] }));

  let sources: KeysetQuery['sources'];
  if (filter.supplier !== undefined) sources = party(filter.supplier, ['supplier'], 'supplier');
  else if (filter.buyer !== undefined) sources = party(filter.buyer, ['buyer'], 'buyer');
  else if (filter.party !== undefined) sources = party(filter.party, ['buyer', 'supplier'], 'party');
  else if (filter.municipalityIds && filter.municipalityIds.length > 0 && !filter.words?.length) {
    sources = filter.municipalityIds.map((id) =>
      source('municipality', (p) => ({
        from: 'contract_municipalities s JOIN contracts c ON c.id = s.contract_id',
        date: 's.published_on',
        id: 's.contract_id',
        where: [`s.municipality_id = ${p.add(id)}`],
      })),
    );
  } else sources = [byDate()];
  return { sources, direction: 'desc', page };
}

/** Every filter except the one the source already applies, as conditions on the contract row `c`. */
function residualConditions(filter: ContractFilter, applied: Dimension | undefined, p: Params): string[] {
  const conditions: string[] = [];
  const partyCondition = (nif: string, roles: string) =>
    conditions.push(
      `EXISTS (SELECT 1 FROM contract_parties x WHERE x.contract_id = c.id AND x.role IN (${roles}) AND x.nif = ${p.add(nif)})`,
    );
  if (filter.supplier !== undefined && applied !== 'supplier') partyCondition(filter.supplier, "'supplier'");
  if (filter.buyer !== undefined && applied !== 'buyer') partyCondition(filter.buyer, "'buyer'");
  if (filter.party !== undefined && applied !== 'party') partyCondition(filter.party, "'buyer', 'supplier'");
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      `EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = c.id AND x.municipality_id = ANY(${p.add(filter.municipalityIds)}::integer[]))`,
    );
  }
  if (filter.cpvPrefix !== undefined) {
    const prefix = filter.cpvPrefix;
    // The division is what contracts_by_cpv is ranged by; a longer prefix is checked on the division's rows.
    if (prefix.length >= 2) conditions.push(`c.cpv_division = ${p.add(prefix.slice(0, 2))}`);
    if (prefix.length !== 2) conditions.push(`c.cpv_main LIKE ${p.add(prefixPattern(prefix))}`);
  }
  if (filter.procedureType !== undefined) conditions.push(`c.procedure_key = ${p.add(procedureKey(filter.procedureType))}`);
  if (filter.method !== undefined) conditions.push(`c.ocds_method = ${p.add(filter.method)}`);
  if (filter.source !== undefined) conditions.push(`c.source = ${p.add(filter.source)}`);
  if (filter.minAmount !== undefined) conditions.push(`c.price_eur >= ${p.add(filter.minAmount)}`);
  if (filter.maxAmount !== undefined) conditions.push(`c.price_eur <= ${p.add(filter.maxAmount)}`);
  if (filter.words && filter.words.length > 0) conditions.push(...wordConditions('c.search_text', filter.words, p));
  return conditions;
}
