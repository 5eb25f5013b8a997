/**
 * Contract counts and euros per group. A contract counts once in every group it falls in (a contract with two
 * suppliers counts for each of them), and once in the totals.
 *
 * Whole months come from contract_rollups when the grouping allows it (no entity dimension): then the cost
 * depends on the number of months and groups, not of contracts. With several municipalities, their rollups are
 * summed and the contracts executed in more than one of them subtracted from contract_set_rollups, so that each
 * counts once. The days of a partly covered first or last month, and groupings by entity, are counted from the
 * contracts themselves.
 */
import type { AggregateDimension, AggregateQuery, AggregateResult } from '../../procurement-queries.js';
import {
  aggregateAnswer,
  type CountedPart,
  countedRow as counted,
  labelLookups,
  mergeParts,
  subtracted,
} from '../../shared/aggregate-answer.js';
import { splitByMonth } from '../../shared/date-ranges.js';
import { ALL_CONTRACTS } from '../../shared/rollup-deltas.js';
import { dateRange } from './keyset.js';
import { jsonList, type Params, type Row, type Sql } from './sql.js';

export function aggregateContracts(sql: Sql, query: AggregateQuery): AggregateResult {
  // No dimension, no groups: the totals are those of any grouping, and by year is the cheapest.
  if (query.groupBy.length === 0) return { groups: [], totals: aggregateContracts(sql, { ...query, groupBy: ['year'] }).totals };
  const executedIn = query.executedIn ?? [];
  // The rollups sum every source: one source's figures are counted from its contracts.
  const rollupsAnswer = query.source === undefined && !query.groupBy.some((d) => d === 'contracting_entity' || d === 'supplier');
  const counted: CountedPart[] = [];
  if (rollupsAnswer) {
    const split = splitByMonth(query.from, query.to);
    counted.push(...(executedIn.length > 1 ? fromRollupsOfSeveral(sql, query, split.months) : [fromRollups(sql, query, split.months)]));
    for (const edge of split.edges) counted.push(fromContracts(sql, query, edge.from, edge.to));
  } else {
    counted.push(fromContracts(sql, query, query.from, query.to));
  }
  return present(sql, query.groupBy, counted);
}

// ── whole months, from the rollups ──────────────────────────────────────────────────────────────────────────────

const ROLLUP_KEYS: Record<AggregateDimension, string> = {
  year: 'substr(r.month, 1, 4)',
  month: 'r.month',
  cpv_division: 'r.cpv_division',
  procedure_type: 'r.procedure_type',
  municipality: 'r.scope',
  contracting_entity: 'NULL', // never asked of the rollups
  supplier: 'NULL',
};

const MONTH_DIMENSIONS = new Set<AggregateDimension>(['year', 'month', 'municipality']);

function fromRollups(sql: Sql, query: AggregateQuery, months: { lo: string; hi: string }) {
  const municipalityId = query.executedIn?.[0];
  const totalsScope = municipalityId ?? ALL_CONTRACTS;
  // Grouped by municipality without a municipality filter: every municipality's rows (and those of none).
  const groupScope = municipalityId === undefined && query.groupBy.includes('municipality') ? 'r.scope <> @all' : 'r.scope = @scope';
  const keys = query.groupBy.map((d, i) => `${ROLLUP_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  // Without a CPV or procedure dimension, the per-month table has the same sums in far fewer rows.
  const table = query.groupBy.every((d) => MONTH_DIMENSIONS.has(d)) ? 'contract_month_rollups' : 'contract_rollups';
  const params = { scope: totalsScope, all: ALL_CONTRACTS, lo: months.lo, hi: months.hi };
  const rows = sql(
    `SELECT ${keys}, sum(r.count) AS count, sum(r.total_cents) AS cents FROM ${table} r
     WHERE ${groupScope} AND r.month BETWEEN @lo AND @hi GROUP BY ${groupBy}`,
  ).all(params) as Row[];
  const totals = sql(
    'SELECT sum(count) AS count, sum(total_cents) AS cents FROM contract_month_rollups r WHERE r.scope = @scope AND r.month BETWEEN @lo AND @hi',
  ).get(params) as Row;
  return { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) };
}

/**
 * Several municipalities: the sum of their rollups, and a second part (negative counts) taking away the extra
 * times a contract executed in k >= 2 of them was summed. Grouped by municipality, a contract counts once in each
 * of its municipalities' groups by definition, so only the totals need the correction there.
 */
function fromRollupsOfSeveral(sql: Sql, query: AggregateQuery, months: { lo: string; hi: string }) {
  const byMunicipality = query.groupBy.includes('municipality');
  const keys = query.groupBy.map((d, i) => `${ROLLUP_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  const table = query.groupBy.every((d) => MONTH_DIMENSIONS.has(d)) ? 'contract_month_rollups' : 'contract_rollups';
  const params = { ids: jsonList(query.executedIn ?? []), lo: months.lo, hi: months.hi };
  const inScopes = 'r.scope IN (SELECT value FROM json_each(@ids)) AND r.month BETWEEN @lo AND @hi';
  const rows = sql(
    `SELECT ${keys}, sum(r.count) AS count, sum(r.total_cents) AS cents FROM ${table} r WHERE ${inScopes} GROUP BY ${groupBy}`,
  ).all(params) as Row[];
  const totals = sql(`SELECT sum(r.count) AS count, sum(r.total_cents) AS cents FROM contract_month_rollups r WHERE ${inScopes}`).get(
    params,
  ) as Row;
  // The sets of municipalities sharing k >= 2 members with the question, and how many they share.
  const shared = `(SELECT set_id, count(*) AS k FROM municipality_set_members
     WHERE municipality_id IN (SELECT value FROM json_each(@ids)) GROUP BY set_id HAVING count(*) > 1) t`;
  const extra = `sum(r.count * (t.k - 1)) AS count, sum(r.total_cents * (t.k - 1)) AS cents
     FROM ${shared} JOIN contract_set_rollups r ON r.set_id = t.set_id WHERE r.month BETWEEN @lo AND @hi`;
  const extraGroups = byMunicipality ? [] : (sql(`SELECT ${keys}, ${extra} GROUP BY ${groupBy}`).all(params) as Row[]);
  const extraTotals = sql(`SELECT ${extra}`).get(params) as Row;
  return [
    { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) },
    subtracted({ groups: extraGroups.map((row) => counted(row, query.groupBy.length)), totals: counted(extraTotals, 0) }),
  ];
}

// ── any range, from the contracts ───────────────────────────────────────────────────────────────────────────────

const CONTRACT_KEYS: Record<AggregateDimension, string> = {
  year: 'substr(c.published_on, 1, 4)',
  month: 'substr(c.published_on, 1, 7)',
  cpv_division: 'c.cpv_division',
  procedure_type: 'c.procedure_type',
  contracting_entity: 'b.nif',
  supplier: 's.nif',
  municipality: 'm.municipality_id',
};

const CENTS = 'CAST(round(coalesce(c.price_eur, 0) * 100) AS INTEGER)';

function fromContracts(sql: Sql, query: AggregateQuery, from: string | undefined, to: string | undefined) {
  const executedIn = query.executedIn ?? [];
  const published = dateRange(from, to, 'published');
  const params: Params = { ...published.params, executedIn: jsonList(executedIn) };
  const conditions = published.on('c.published_on');
  if (query.source !== undefined) {
    conditions.push('c.source = @source');
    params.source = query.source;
  }
  if (executedIn.length > 0) {
    // The municipalities' index ranges (with the dates) find the contracts; no other contract is read.
    conditions.push(
      `c.id IN (SELECT x.contract_id FROM contract_municipalities x
        WHERE x.municipality_id IN (SELECT value FROM json_each(@executedIn))${published
          .on('x.published_on')
          .map((c) => ` AND ${c}`)
          .join('')})`,
    );
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const joins: string[] = [];
  if (query.groupBy.includes('contracting_entity')) joins.push("LEFT JOIN contract_parties b ON b.contract_id = c.id AND b.role = 'buyer'");
  if (query.groupBy.includes('supplier')) joins.push("LEFT JOIN contract_parties s ON s.contract_id = c.id AND s.role = 'supplier'");
  if (query.groupBy.includes('municipality')) {
    const only = executedIn.length > 0 ? ' AND m.municipality_id IN (SELECT value FROM json_each(@executedIn))' : '';
    joins.push(`LEFT JOIN contract_municipalities m ON m.contract_id = c.id${only}`);
  }
  const keys = query.groupBy.map((d, i) => `${CONTRACT_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  // DISTINCT: a contract listing the same key twice (two unnamed suppliers) counts once in that group.
  const rows = sql(
    `SELECT ${groupBy}, count(*) AS count, sum(cents) AS cents FROM (
       SELECT DISTINCT c.id, ${keys}, ${CENTS} AS cents FROM contracts c ${joins.join(' ')} ${where}
     ) GROUP BY ${groupBy}`,
  ).all(params) as Row[];
  const totals = sql(`SELECT count(*) AS count, sum(${CENTS}) AS cents FROM contracts c ${where}`).get(params) as Row;
  return { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) };
}

// ── the answer ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Merges the parts and names the groups (see shared/aggregate-answer.ts); only the look-ups are SQL. */
function present(sql: Sql, dimensions: readonly AggregateDimension[], parts: CountedPart[]): AggregateResult {
  const municipalities = new Map((sql('SELECT id, code, name FROM municipalities').all() as Row[]).map((m) => [Number(m.id), m]));
  const groups = mergeParts(dimensions, parts, municipalities);
  const { divisions, nifs } = labelLookups(groups);
  const divisionLabels = new Map(
    (
      sql(
        "SELECT division, coalesce(label_pt, label_en) AS label FROM cpvs WHERE code IN (SELECT value || '000000' FROM json_each(@codes))",
      ).all({
        codes: jsonList(divisions),
      }) as Row[]
    ).map((r) => [String(r.division), String(r.label)]),
  );
  const names = new Map(
    (sql('SELECT nif, name FROM entities WHERE nif IN (SELECT value FROM json_each(@nifs))').all({ nifs: jsonList(nifs) }) as Row[]).map(
      (r) => [String(r.nif), String(r.name)],
    ),
  );
  return aggregateAnswer(groups, parts, { divisionLabels, names, municipalities });
}
