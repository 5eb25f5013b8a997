/**
 * The contract list: publication date descending, then id descending. `contractSources` picks where a page
 * starts reading (keyset.ts), the first that applies; every other filter is checked on the rows it yields:
 *   q with few matches        → the text index's matches, sorted (SQLite: text-search.ts)
 *   amount range, few matches → the price index, sorted (SQLite; PostgreSQL's planner weighs it itself)
 *   supplier / buyer / party  → contract_parties_by_nif, one range per role
 *   q (PostgreSQL)            → contracts_by_date, the planner weighing its text index against it
 *   municipality              → contract_municipalities_by_municipality, one range per municipality
 *   CPV prefix                → contracts_by_cpv, one range per division
 *   procedure type            → contracts_by_procedure; otherwise → contracts_by_date
 * With `updatedSince`, the change order instead (../changes/changed-since.ts), every filter checked on its rows.
 */
import { type ChangedQuery, readChangedIds } from '../changes/changed-since.js';
import type { ContractFilter, DatePosition, KeysetPage } from '../procurement-queries.js';
import { dateRange } from '../shared/date-ranges.js';
import { procedureKey } from '../shared/procurement-keys.js';
import { type Params, prefixPattern } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';
import { countUpTo, isSmallSet, type KeysetQuery, type OrderedSource, readKeysetIds } from './keyset.js';
import { type TextSearch, textStart } from './text-search.js';

type Dimension = 'amount' | 'supplier' | 'buyer' | 'party' | 'municipality' | 'cpv' | 'procedure';

/** Ids (in list order) of one page of contracts. */
export async function listContractIds(
  port: SqlPort,
  search: TextSearch,
  filter: ContractFilter,
  page: KeysetPage<DatePosition>,
): Promise<number[]> {
  if (filter.updatedSince !== undefined) {
    return readChangedIds(port, changedContractQuery(port.dialect, search, filter, filter.updatedSince, page));
  }
  return readKeysetIds(port, await contractQuery(port, search, filter, page));
}

/** A page in change order; the position's `date` is the contract's updated_at. */
export function changedContractQuery(
  dialect: Dialect,
  search: TextSearch,
  filter: ContractFilter,
  since: string,
  page: KeysetPage<DatePosition>,
): ChangedQuery {
  const { after } = page;
  return {
    table: 'contracts',
    alias: 'c',
    index: 'contracts_by_update',
    where: (p) => [
      ...dateRange(filter.from, filter.to).on('c.published_on', p),
      ...residualConditions(dialect, search, filter, undefined, p),
    ],
    since,
    page: { limit: page.limit, after: after && { at: after.date ?? '', id: after.id } },
  };
}

/** The query of a page; exported for the tests that EXPLAIN it. */
export async function contractQuery(
  port: SqlPort,
  search: TextSearch,
  filter: ContractFilter,
  page: KeysetPage<DatePosition>,
): Promise<KeysetQuery> {
  const { dimension, sources } = await contractSources(port, search, filter);
  const published = dateRange(filter.from, filter.to);
  return {
    sources,
    residual: (p, date, id) => [
      ...published.on(date, p),
      ...residualConditions(port.dialect, search, filter, dimension, p, id),
    ],
    direction: 'desc',
    page,
  };
}

async function contractSources(
  port: SqlPort,
  search: TextSearch,
  filter: ContractFilter,
): Promise<{ dimension: Dimension | undefined; sources: OrderedSource[] }> {
  const { indexed, weighsIndexes } = port.dialect;
  const byDate = (from: string, where: OrderedSource['where'] = () => []): OrderedSource => ({
    from,
    date: 'c.published_on',
    id: 'c.id',
    where,
  });
  const text = await textStart(port, search, 'contracts', filter.words);
  if (text !== undefined && text !== 'planner') {
    // The matches are a superset: the words are still checked exactly.
    return {
      dimension: undefined,
      sources: [byDate(`${text.from} CROSS JOIN contracts c`, (p) => ['c.id = f.rowid', text.where(p)])],
    };
  }
  const byPrice = indexed('contracts', 'c', 'contracts_by_price');
  const hasAmount = filter.minAmount !== undefined || filter.maxAmount !== undefined;
  if (hasAmount && !weighsIndexes && (await isSmallSet(port, byPrice, (p) => amountConditions(filter, p)))) {
    return { dimension: 'amount', sources: [byDate(byPrice, (p) => amountConditions(filter, p))] };
  }
  const party = (nif: string, roles: readonly string[]): OrderedSource[] =>
    roles.map((role) => ({
      from: `${indexed('contract_parties', 's', 'contract_parties_by_nif')} CROSS JOIN contracts c`,
      date: 's.published_on',
      id: 's.contract_id',
      where: (p) => ['c.id = s.contract_id', `s.nif = ${p.add(nif)}`, `s.role = '${role}'`],
    }));
  if (filter.supplier !== undefined && filter.buyer !== undefined) {
    // A pair (the integrity checks ask for one buyer's contracts with one supplier): start from the party with
    // fewer contracts, the other checked on its rows. A large supplier's range read whole for a small buyer's few
    // contracts with it took a third of a second at a million contracts.
    const fewer = await fewerContracts(
      port,
      { nif: filter.buyer, role: 'buyer' },
      { nif: filter.supplier, role: 'supplier' },
    );
    if (fewer === 'buyer') return { dimension: 'buyer', sources: party(filter.buyer, ['buyer']) };
  }
  if (filter.supplier !== undefined) return { dimension: 'supplier', sources: party(filter.supplier, ['supplier']) };
  if (filter.buyer !== undefined) return { dimension: 'buyer', sources: party(filter.buyer, ['buyer']) };
  if (filter.party !== undefined) return { dimension: 'party', sources: party(filter.party, ['buyer', 'supplier']) };
  const byDateIndex = indexed('contracts', 'c', 'contracts_by_date');
  if (text === 'planner') return { dimension: undefined, sources: [byDate(byDateIndex)] };
  if (filter.municipalityIds && filter.municipalityIds.length > 0) {
    const byMunicipality = indexed('contract_municipalities', 's', 'contract_municipalities_by_municipality');
    return {
      dimension: 'municipality',
      sources: [...new Set(filter.municipalityIds)].map((id) => ({
        from: `${byMunicipality} CROSS JOIN contracts c`,
        date: 's.published_on',
        id: 's.contract_id',
        where: (p) => ['c.id = s.contract_id', `s.municipality_id = ${p.add(id)}`],
      })),
    };
  }
  if (filter.cpvPrefix !== undefined) {
    const prefix = filter.cpvPrefix;
    const divisions = prefix.length >= 2 ? [prefix.slice(0, 2)] : Array.from({ length: 10 }, (_, d) => `${prefix}${d}`);
    return {
      dimension: 'cpv', // a longer prefix than the division is checked on the division's rows
      sources: divisions.map((division) =>
        byDate(indexed('contracts', 'c', 'contracts_by_cpv'), (p) => [`c.cpv_division = ${p.add(division)}`]),
      ),
    };
  }
  if (filter.procedureType !== undefined) {
    const key = procedureKey(filter.procedureType);
    return {
      dimension: 'procedure',
      sources: [
        byDate(indexed('contracts', 'c', 'contracts_by_procedure'), (p) => [`c.procedure_key = ${p.add(key)}`]),
      ],
    };
  }
  return { dimension: undefined, sources: [byDate(byDateIndex)] };
}

/** Which of two parties has fewer contracts in its role, each counted up to SMALL_SET + 1 (a tie: the second). */
async function fewerContracts(
  port: SqlPort,
  a: { nif: string; role: 'buyer' | 'supplier' },
  b: { nif: string; role: 'buyer' | 'supplier' },
): Promise<'buyer' | 'supplier'> {
  const range = port.dialect.indexed('contract_parties', 's', 'contract_parties_by_nif');
  const count = (party: typeof a) =>
    countUpTo(port, range, (p) => [`s.nif = ${p.add(party.nif)}`, `s.role = '${party.role}'`]);
  return (await count(a)) < (await count(b)) ? a.role : b.role;
}

function amountConditions(filter: ContractFilter, p: Params): string[] {
  const conditions: string[] = [];
  if (filter.minAmount !== undefined) conditions.push(`c.price_eur >= ${p.add(filter.minAmount)}`);
  if (filter.maxAmount !== undefined) conditions.push(`c.price_eur <= ${p.add(filter.maxAmount)}`);
  return conditions;
}

/** Every filter except the one the source already applies, as conditions on the contract row `c`. */
function residualConditions(
  dialect: Dialect,
  search: TextSearch,
  filter: ContractFilter,
  applied: Dimension | undefined,
  p: Params,
  id = 'c.id',
): string[] {
  const conditions: string[] = [];
  // A lookup of the row's parties by its contract (the primary key), never a range of the party's tax number:
  // SQLite would otherwise walk a large buyer's whole range for each row of its supplier's. On the source's id (a
  // party range's `s.contract_id`), it is checked on the index entry, before the contract is read.
  const partyCondition = (nif: string, roles: string) =>
    conditions.push(
      `EXISTS (SELECT 1 FROM contract_parties x
       WHERE x.contract_id = ${id} AND x.role IN (${roles}) AND ${dialect.unindexed('x.nif')} = ${p.add(nif)})`,
    );
  if (filter.supplier !== undefined && applied !== 'supplier') partyCondition(filter.supplier, "'supplier'");
  if (filter.buyer !== undefined && applied !== 'buyer') partyCondition(filter.buyer, "'buyer'");
  if (filter.party !== undefined && applied !== 'party') partyCondition(filter.party, "'buyer', 'supplier'");
  if (filter.municipalityIds && filter.municipalityIds.length > 0 && applied !== 'municipality') {
    conditions.push(
      `EXISTS (SELECT 1 FROM contract_municipalities x WHERE x.contract_id = c.id
       AND ${dialect.inList('x.municipality_id', p.add(filter.municipalityIds))})`,
    );
  }
  if (filter.cpvPrefix !== undefined) {
    const prefix = filter.cpvPrefix;
    // The division is what contracts_by_cpv is ranged by (and PostgreSQL's planner may pick it); a longer prefix
    // is checked on the division's rows.
    if (prefix.length >= 2 && applied !== 'cpv') conditions.push(`c.cpv_division = ${p.add(prefix.slice(0, 2))}`);
    if (prefix.length > 2 || (prefix.length === 1 && applied !== 'cpv'))
      conditions.push(`c.cpv_main LIKE ${p.add(prefixPattern(prefix))}`);
  }
  if (filter.procedureType !== undefined && applied !== 'procedure')
    conditions.push(`c.procedure_key = ${p.add(procedureKey(filter.procedureType))}`);
  if (filter.method !== undefined) conditions.push(`c.ocds_method = ${p.add(filter.method)}`);
  if (filter.source !== undefined) conditions.push(`c.source = ${p.add(filter.source)}`);
  if (applied !== 'amount') conditions.push(...amountConditions(filter, p));
  if (filter.words && filter.words.length > 0)
    conditions.push(...search.wordConditions('c.search_text', filter.words, p));
  return conditions;
}
