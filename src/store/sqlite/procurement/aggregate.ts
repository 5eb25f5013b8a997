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
import type { AggregateDimension, AggregateGroup, AggregateKey, AggregateQuery, AggregateResult } from '../../procurement-queries.js';
import { dateRange } from './keyset.js';
import { ALL_CONTRACTS } from './rollups.js';
import { jsonList, type Params, type Row, type Sql } from './sql.js';

interface Counted {
  /** Raw key values, in groupBy order: '' or null for "none". */
  values: unknown[];
  count: number;
  cents: number;
}

export function aggregateContracts(sql: Sql, query: AggregateQuery): AggregateResult {
  // No dimension, no groups: the totals are those of any grouping, and by year is the cheapest.
  if (query.groupBy.length === 0) return { groups: [], totals: aggregateContracts(sql, { ...query, groupBy: ['year'] }).totals };
  const executedIn = query.executedIn ?? [];
  const rollupsAnswer = !query.groupBy.some((d) => d === 'contracting_entity' || d === 'supplier');
  const counted: { groups: Counted[]; totals: Counted }[] = [];
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
  const negative = (c: Counted): Counted => ({ ...c, count: -c.count, cents: -c.cents });
  return [
    { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) },
    { groups: extraGroups.map((row) => negative(counted(row, query.groupBy.length))), totals: negative(counted(extraTotals, 0)) },
  ];
}

/**
 * The whole months of a date range (as `YYYY-MM` bounds for BETWEEN) and the partial months at its ends. No
 * bound at all includes the contracts without a date (month ''); any bound excludes them.
 */
export function splitByMonth(from: string | undefined, to: string | undefined) {
  const lo = from === undefined ? (to === undefined ? '' : '0000-00') : isFirstDay(from) ? from.slice(0, 7) : nextMonth(from);
  const hi = to === undefined ? '9999-99' : isLastDay(to) ? to.slice(0, 7) : previousMonth(to);
  const edges: { from: string; to: string }[] = [];
  if (from !== undefined && to !== undefined && from.slice(0, 7) === to.slice(0, 7)) {
    if (!(isFirstDay(from) && isLastDay(to))) edges.push({ from, to });
  } else {
    if (from !== undefined && !isFirstDay(from)) edges.push({ from, to: lastDay(from) });
    if (to !== undefined && !isLastDay(to)) edges.push({ from: `${to.slice(0, 7)}-01`, to });
  }
  return { months: { lo, hi }, edges };
}

const isFirstDay = (date: string) => date.endsWith('-01');
const isLastDay = (date: string) => date === lastDay(date);

function lastDay(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return `${date.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function previousMonth(date: string): string {
  const [y, m] = date.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
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

function counted(row: Row, keys: number): Counted {
  return { values: Array.from({ length: keys }, (_, i) => row[`k${i}`]), count: Number(row.count ?? 0), cents: Number(row.cents ?? 0) };
}

// ── the answer ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Merges the parts, turns raw values into keys (codes, numbers, null), orders the groups and names them. */
function present(sql: Sql, dimensions: readonly AggregateDimension[], parts: { groups: Counted[]; totals: Counted }[]): AggregateResult {
  const municipalities = new Map((sql('SELECT id, code, name FROM municipalities').all() as Row[]).map((m) => [Number(m.id), m]));
  const merged = new Map<string, { key: AggregateKey; count: number; cents: number }>();
  for (const part of parts) {
    for (const group of part.groups) {
      const key: AggregateKey = {};
      dimensions.forEach((d, i) => {
        key[d] = keyValue(d, group.values[i], municipalities);
      });
      const id = JSON.stringify(dimensions.map((d) => key[d]));
      const held = merged.get(id) ?? { key, count: 0, cents: 0 };
      held.count += group.count;
      held.cents += group.cents;
      merged.set(id, held);
    }
  }
  const groups = [...merged.values()].filter((g) => g.count > 0).sort((a, b) => compareKeys(a.key, b.key, dimensions));
  const labels = labelsOf(
    sql,
    groups.map((g) => g.key),
    municipalities,
  );
  return {
    groups: groups.map((g): AggregateGroup => ({ key: g.key, labels: labels(g.key), count: g.count, total_eur: g.cents / 100 })),
    totals: {
      count: parts.reduce((n, p) => n + p.totals.count, 0),
      total_eur: parts.reduce((n, p) => n + p.totals.cents, 0) / 100,
    },
  };
}

function keyValue(dimension: AggregateDimension, raw: unknown, municipalities: Map<number, Row>): string | number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  if (dimension === 'year') return Number(raw);
  if (dimension === 'municipality') {
    const code = municipalities.get(Number(raw))?.code; // NO_MUNICIPALITY has none
    return code === undefined ? null : String(code);
  }
  return String(raw);
}

function compareKeys(a: AggregateKey, b: AggregateKey, dimensions: readonly AggregateDimension[]): number {
  for (const d of dimensions) {
    const x = a[d] ?? null;
    const y = b[d] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function labelsOf(sql: Sql, keys: AggregateKey[], municipalities: Map<number, Row>) {
  const divisions = [...new Set(keys.map((k) => k.cpv_division).filter((d): d is string => typeof d === 'string'))];
  const divisionLabels = new Map(
    (
      sql(
        "SELECT division, coalesce(label_pt, label_en) AS label FROM cpvs WHERE code IN (SELECT value || '000000' FROM json_each(@codes))",
      ).all({
        codes: jsonList(divisions),
      }) as Row[]
    ).map((r) => [String(r.division), String(r.label)]),
  );
  const nifs = [...new Set(keys.flatMap((k) => [k.contracting_entity, k.supplier]).filter((n): n is string => typeof n === 'string'))];
  const names = new Map(
    (sql('SELECT nif, name FROM entities WHERE nif IN (SELECT value FROM json_each(@nifs))').all({ nifs: jsonList(nifs) }) as Row[]).map(
      (r) => [String(r.nif), String(r.name)],
    ),
  );
  const municipalityNames = new Map([...municipalities.values()].map((m) => [String(m.code), String(m.name)]));
  return (key: AggregateKey) => {
    const labels: AggregateGroup['labels'] = {};
    const set = (d: AggregateDimension, label: string | undefined) => {
      if (label !== undefined) labels[d] = label;
    };
    if (typeof key.cpv_division === 'string') set('cpv_division', divisionLabels.get(key.cpv_division));
    if (typeof key.contracting_entity === 'string') set('contracting_entity', names.get(key.contracting_entity));
    if (typeof key.supplier === 'string') set('supplier', names.get(key.supplier));
    if (typeof key.municipality === 'string') set('municipality', municipalityNames.get(key.municipality));
    return labels;
  };
}
