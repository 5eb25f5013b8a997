/**
 * The contract list: publication date descending, then id descending. `contractSources` picks where a page
 * starts reading (see keyset.ts); every other filter is checked on the rows it yields:
 *
 *   q with few matches        → the matches (≤ TEXT_SET_LIMIT rows, sorted)
 *   amount range, few matches → the price index (≤ TEXT_SET_LIMIT rows, sorted)
 *   supplier / buyer / party  → contract_parties_by_nif, in date order
 *   municipality              → contract_municipalities_by_municipality, one range per municipality
 *   CPV prefix                → contracts_by_cpv, one range per division
 *   procedure type            → contracts_by_procedure
 *   otherwise                 → contracts_by_date
 */
import type { ContractFilter, DatePosition, KeysetPage } from '../../procurement-queries.js';
import { procedureKey } from '../../shared/procurement-keys.js';
import { dateRange, type KeysetQuery, type OrderedSource, readKeyset } from './keyset.js';
import { jsonList, type Params, type Sql } from './sql.js';
import { ftsQuery, isSmallTextSet, TEXT_SET_LIMIT, wordConditions } from './text-search.js';

type Dimension = 'amount' | 'supplier' | 'buyer' | 'party' | 'municipality' | 'cpv' | 'procedure';

// Each source names its index (INDEXED BY) and is the outer loop of its join (CROSS JOIN): left to itself, the
// planner may prefer a range on another column and sort the whole result, which is what a keyset list must avoid.
const BY_DATE: Omit<OrderedSource, 'where' | 'params'> = {
  from: 'contracts c INDEXED BY contracts_by_date',
  date: 'c.published_on',
  id: 'c.id',
};

/** Ids (in list order) of one page of contracts. */
export function listContractIds(sql: Sql, filter: ContractFilter, page: KeysetPage<DatePosition>): number[] {
  const { sources, query } = contractQuery(sql, filter, page);
  return readKeyset(sql, sources, query).map((row) => Number(row.id));
}

/** The sources and the query of a page; exported for the tests that EXPLAIN them. */
export function contractQuery(sql: Sql, filter: ContractFilter, page: KeysetPage<DatePosition>) {
  const { dimension, sources } = contractSources(sql, filter);
  const residual = residualConditions(filter, dimension);
  const published = dateRange(filter.from, filter.to, 'published');
  const query: KeysetQuery = {
    select: 'c.id AS id, c.published_on AS date',
    direction: 'desc',
    // The date bounds go on the source's own date column: with its equality conditions, one index range.
    where: (source) => [...published.on(source.date), ...residual.conditions],
    params: { ...residual.params, ...published.params },
    page,
  };
  return { dimension, sources, query };
}

function contractSources(sql: Sql, filter: ContractFilter): { dimension: Dimension | undefined; sources: OrderedSource[] } {
  const fts = filter.words && ftsQuery(filter.words);
  if (fts !== undefined && isSmallTextSet(sql, 'contracts_fts', fts)) {
    return {
      dimension: undefined, // the FTS match is a superset: the words are still checked exactly
      sources: [
        {
          ...BY_DATE,
          from: 'contracts_fts f CROSS JOIN contracts c ON c.id = f.rowid',
          where: ['contracts_fts MATCH @fts'],
          params: { fts },
        },
      ],
    };
  }
  if ((filter.minAmount !== undefined || filter.maxAmount !== undefined) && isSmallPriceRange(sql, filter)) {
    return {
      dimension: 'amount',
      sources: [{ ...BY_DATE, from: 'contracts c INDEXED BY contracts_by_price', ...amountConditions(filter) }],
    };
  }
  const party = (nif: string, roles: string[]): OrderedSource[] =>
    roles.map((role) => ({
      from: 'contract_parties s INDEXED BY contract_parties_by_nif CROSS JOIN contracts c ON c.id = s.contract_id',
      date: 's.published_on',
      id: 's.contract_id',
      where: [`s.nif = @partyNif`, `s.role = '${role}'`],
      params: { partyNif: nif },
    }));
  if (filter.supplier !== undefined) return { dimension: 'supplier', sources: party(filter.supplier, ['supplier']) };
  if (filter.buyer !== undefined) return { dimension: 'buyer', sources: party(filter.buyer, ['buyer']) };
  if (filter.party !== undefined) return { dimension: 'party', sources: party(filter.party, ['buyer', 'supplier']) };
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    return {
      dimension: 'municipality',
      sources: filter.municipalityIds.map((id, i) => ({
        from: 'contract_municipalities s INDEXED BY contract_municipalities_by_municipality CROSS JOIN contracts c ON c.id = s.contract_id',
        date: 's.published_on',
        id: 's.contract_id',
        where: [`s.municipality_id = @m${i}`],
        params: { [`m${i}`]: id },
      })),
    };
  }
  if (filter.cpvPrefix !== undefined) {
    const prefix = filter.cpvPrefix;
    const divisions = prefix.length >= 2 ? [prefix.slice(0, 2)] : Array.from({ length: 10 }, (_, d) => `${prefix}${d}`);
    return {
      dimension: prefix.length <= 2 ? 'cpv' : undefined, // a longer prefix is checked on the division's rows
      sources: divisions.map((division, i) => ({
        from: 'contracts c INDEXED BY contracts_by_cpv',
        date: 'c.published_on',
        id: 'c.id',
        where: [`c.cpv_division = @d${i}`],
        params: { [`d${i}`]: division },
      })),
    };
  }
  if (filter.procedureType !== undefined) {
    return {
      dimension: 'procedure',
      sources: [
        {
          ...BY_DATE,
          from: 'contracts c INDEXED BY contracts_by_procedure',
          where: ['c.procedure_key = @procedureKey'],
          params: { procedureKey: procedureKey(filter.procedureType) },
        },
      ],
    };
  }
  return { dimension: undefined, sources: [{ ...BY_DATE, where: [], params: {} }] };
}

function isSmallPriceRange(sql: Sql, filter: ContractFilter): boolean {
  const { where, params } = amountConditions(filter);
  const row = sql(
    `SELECT count(*) AS n FROM (SELECT 1 FROM contracts c INDEXED BY contracts_by_price WHERE ${where.join(' AND ')} LIMIT @cap)`,
  ).get({
    ...params,
    cap: TEXT_SET_LIMIT + 1,
  }) as { n: number };
  return row.n <= TEXT_SET_LIMIT;
}

function amountConditions(filter: ContractFilter): { where: string[]; params: Params } {
  const where: string[] = [];
  const params: Params = {};
  if (filter.minAmount !== undefined) {
    where.push('c.price_eur >= @minAmount');
    params.minAmount = filter.minAmount;
  }
  if (filter.maxAmount !== undefined) {
    where.push('c.price_eur <= @maxAmount');
    params.maxAmount = filter.maxAmount;
  }
  return { where, params };
}

/** Every filter except the one the source already applies, as conditions on the contract row `c`. */
function residualConditions(filter: ContractFilter, applied: Dimension | undefined): { conditions: string[]; params: Params } {
  const conditions: string[] = [];
  const params: Params = {};
  const partyCondition = (name: string, nif: string, roles: string) => {
    conditions.push(`EXISTS (SELECT 1 FROM contract_parties x WHERE x.contract_id = c.id AND x.role IN (${roles}) AND x.nif = @${name})`);
    params[name] = nif;
  };
  if (filter.supplier !== undefined && applied !== 'supplier') partyCondition('supplier', filter.supplier, "'supplier'");
  if (filter.buyer !== undefined && applied !== 'buyer') partyCondition('buyer', filter.buyer, "'buyer'");
  if (filter.party !== undefined && applied !== 'party') partyCondition('party', filter.party, "'buyer', 'supplier'");
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      'EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = c.id AND x.municipality_id IN (SELECT value FROM json_each(@municipalities)))',
    );
    params.municipalities = jsonList(filter.municipalityIds);
  }
  if (filter.cpvPrefix !== undefined && applied !== 'cpv') {
    conditions.push('c.cpv_main LIKE @cpvPattern');
    params.cpvPattern = `${filter.cpvPrefix}%`;
  }
  if (filter.procedureType !== undefined && applied !== 'procedure') {
    conditions.push('c.procedure_key = @procedureKey');
    params.procedureKey = procedureKey(filter.procedureType);
  }
  if (filter.method !== undefined) {
    conditions.push('c.ocds_method = @method');
    params.method = filter.method;
  }
  if (filter.source !== undefined) {
    conditions.push('c.source = @source');
    params.source = filter.source;
  }
  if (applied !== 'amount') {
    const amount = amountConditions(filter);
    conditions.push(...amount.where);
    Object.assign(params, amount.params);
  }
  if (filter.words && filter.words.length > 0) {
    const words = wordConditions('c.search_text', filter.words);
    conditions.push(...words.conditions);
    Object.assign(params, words.params);
  }
  return { conditions, params };
}
