/**
 * Contract counts and euros per group (Store.aggregateContracts). A contract counts once in every group it falls
 * in (a contract with two suppliers counts for each of them), and once in the totals.
 *
 * Whole months come from contract_rollups when the grouping allows it (no entity dimension): then the cost
 * depends on the number of months and groups, not of contracts. With several municipalities, their rollups are
 * summed and the contracts executed in more than one of them subtracted from contract_set_rollups, so that each
 * counts once. The days of a partly covered first or last month, and groupings by entity, are counted from the
 * contracts themselves.
 */
import type { AggregateDimension, AggregateQuery, AggregateResult } from '../procurement-queries.js';
import {
  aggregateAnswer,
  type CountedPart,
  countedRow as counted,
  labelLookups,
  mergeParts,
  subtracted,
} from '../shared/aggregate-answer.js';
import { dateRange, splitByMonth } from '../shared/date-ranges.js';
import { ALL_CONTRACTS } from '../shared/rollup-deltas.js';
import { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';

export async function aggregateContracts(port: SqlPort, query: AggregateQuery): Promise<AggregateResult> {
  // No dimension, no groups: the totals are those of any grouping, and by year is the cheapest.
  if (query.groupBy.length === 0)
    return { groups: [], totals: (await aggregateContracts(port, { ...query, groupBy: ['year'] })).totals };
  const executedIn = query.executedIn ?? [];
  // The rollups sum every source: one source's figures are counted from its contracts.
  const rollupsAnswer =
    query.source === undefined && !query.groupBy.some((d) => d === 'contracting_entity' || d === 'supplier');
  const parts: Promise<CountedPart>[] = [];
  if (rollupsAnswer) {
    const split = splitByMonth(query.from, query.to);
    parts.push(
      ...(executedIn.length > 1
        ? fromRollupsOfSeveral(port, query, split.months)
        : [fromRollups(port, query, split.months)]),
    );
    for (const edge of split.edges) parts.push(fromContracts(port, query, edge.from, edge.to));
  } else {
    parts.push(fromContracts(port, query, query.from, query.to));
  }
  return present(port, query.groupBy, await Promise.all(parts));
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

async function fromRollups(
  port: SqlPort,
  query: AggregateQuery,
  months: { lo: string; hi: string },
): Promise<CountedPart> {
  const municipalityId = query.executedIn?.[0];
  const scope = municipalityId ?? ALL_CONTRACTS;
  // Grouped by municipality without a municipality filter: every municipality's rows (and those of none).
  const groupScope =
    municipalityId === undefined && query.groupBy.includes('municipality') ? 'r.scope <> $1' : 'r.scope = $1';
  const keys = query.groupBy.map((d, i) => `${ROLLUP_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  // Without a CPV or procedure dimension, the per-month table has the same sums in far fewer rows.
  const table = query.groupBy.every((d) => MONTH_DIMENSIONS.has(d)) ? 'contract_month_rollups' : 'contract_rollups';
  const [rows, [totals]] = await Promise.all([
    port.query(
      `SELECT ${keys}, sum(r.count) AS count, sum(r.total_cents) AS cents FROM ${table} r
       WHERE ${groupScope} AND r.month BETWEEN $2 AND $3 GROUP BY ${groupBy}`,
      [
        municipalityId === undefined && query.groupBy.includes('municipality') ? ALL_CONTRACTS : scope,
        months.lo,
        months.hi,
      ],
    ),
    port.query(
      'SELECT sum(count) AS count, sum(total_cents) AS cents FROM contract_month_rollups r ' +
        'WHERE r.scope = $1 AND r.month BETWEEN $2 AND $3',
      [scope, months.lo, months.hi],
    ),
  ]);
  return { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) };
}

/**
 * Several municipalities: the sum of their rollups, and a second part taking away the extra times a contract
 * executed in k >= 2 of them was summed. Grouped by municipality, a contract counts once in each of its
 * municipalities' groups by definition, so only the totals need the correction there.
 */
function fromRollupsOfSeveral(
  port: SqlPort,
  query: AggregateQuery,
  months: { lo: string; hi: string },
): Promise<CountedPart>[] {
  const keys = query.groupBy.map((d, i) => `${ROLLUP_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  const table = query.groupBy.every((d) => MONTH_DIMENSIONS.has(d)) ? 'contract_month_rollups' : 'contract_rollups';
  const values = [query.executedIn ?? [], months.lo, months.hi];
  const inScopes = `${port.dialect.inList('r.scope', '$1')} AND r.month BETWEEN $2 AND $3`;
  const sum = async (): Promise<CountedPart> => {
    const [rows, [totals]] = await Promise.all([
      port.query(
        `SELECT ${keys}, sum(r.count) AS count, sum(r.total_cents) AS cents FROM ${table} r
         WHERE ${inScopes} GROUP BY ${groupBy}`,
        values,
      ),
      port.query(
        `SELECT sum(r.count) AS count, sum(r.total_cents) AS cents FROM contract_month_rollups r WHERE ${inScopes}`,
        values,
      ),
    ]);
    return { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) };
  };
  // The sets of municipalities sharing k >= 2 members with the question, and how many they share.
  const shared = `(SELECT set_id, count(*) AS k FROM municipality_set_members
     WHERE ${port.dialect.inList('municipality_id', '$1')} GROUP BY set_id HAVING count(*) > 1) AS t`;
  const extra = `sum(r.count * (t.k - 1)) AS count, sum(r.total_cents * (t.k - 1)) AS cents
     FROM ${shared} JOIN contract_set_rollups r ON r.set_id = t.set_id WHERE r.month BETWEEN $2 AND $3`;
  const correction = async (): Promise<CountedPart> => {
    const [rows, [totals]] = await Promise.all([
      query.groupBy.includes('municipality') ? [] : port.query(`SELECT ${keys}, ${extra} GROUP BY ${groupBy}`, values),
      port.query(`SELECT ${extra}`, values),
    ]);
    return subtracted({ groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) });
  };
  return [sum(), correction()];
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

/** Integer cents rounded as the rollups round them (half up), so that both kinds of part add up alike. */
const CENTS = 'CAST(floor(coalesce(c.price_eur, 0) * 100 + 0.5) AS bigint)';

async function fromContracts(
  port: SqlPort,
  query: AggregateQuery,
  from: string | undefined,
  to: string | undefined,
): Promise<CountedPart> {
  const executedIn = query.executedIn ?? [];
  const published = dateRange(from, to);
  const p = new Params();
  const conditions = published.on('c.published_on', p);
  if (query.source !== undefined) conditions.push(`c.source = ${p.add(query.source)}`);
  const municipalities = executedIn.length > 0 ? p.add(executedIn) : undefined;
  if (municipalities) {
    // The municipalities' index ranges (with the dates) find the contracts; no other contract is read.
    const dates = published.on('x.published_on', p).map((c) => ` AND ${c}`);
    conditions.push(
      `c.id IN (SELECT x.contract_id FROM contract_municipalities x
       WHERE ${port.dialect.inList('x.municipality_id', municipalities)}${dates.join('')})`,
    );
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const joins: string[] = [];
  if (query.groupBy.includes('contracting_entity'))
    joins.push("LEFT JOIN contract_parties b ON b.contract_id = c.id AND b.role = 'buyer'");
  if (query.groupBy.includes('supplier'))
    joins.push("LEFT JOIN contract_parties s ON s.contract_id = c.id AND s.role = 'supplier'");
  if (query.groupBy.includes('municipality')) {
    const only = municipalities ? ` AND ${port.dialect.inList('m.municipality_id', municipalities)}` : '';
    joins.push(`LEFT JOIN contract_municipalities m ON m.contract_id = c.id${only}`);
  }
  const keys = query.groupBy.map((d, i) => `${CONTRACT_KEYS[d]} AS k${i}`).join(', ');
  const groupBy = query.groupBy.map((_, i) => `k${i}`).join(', ');
  const [rows, [totals]] = await Promise.all([
    // DISTINCT: a contract listing the same key twice (two unnamed suppliers) counts once in that group.
    port.query(
      `SELECT ${groupBy}, count(*) AS count, sum(cents) AS cents FROM (
         SELECT DISTINCT c.id, ${keys}, ${CENTS} AS cents FROM contracts c ${joins.join(' ')} ${where}
       ) AS d GROUP BY ${groupBy}`,
      p.values,
    ),
    port.query(`SELECT count(*) AS count, sum(${CENTS}) AS cents FROM contracts c ${where}`, p.values),
  ]);
  return { groups: rows.map((row) => counted(row, query.groupBy.length)), totals: counted(totals, 0) };
}

// ── the answer ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Merges the parts and names the groups (see shared/aggregate-answer.ts); only the look-ups are SQL. */
async function present(
  port: SqlPort,
  dimensions: readonly AggregateDimension[],
  parts: CountedPart[],
): Promise<AggregateResult> {
  const municipalities = new Map(
    (await port.query('SELECT id, code, name FROM municipalities')).map((m) => [Number(m.id), m]),
  );
  const groups = mergeParts(dimensions, parts, municipalities);
  const { divisions, nifs } = labelLookups(groups);
  const [divisionRows, nameRows] = await Promise.all([
    divisions.length === 0
      ? []
      : port.query(
          `SELECT division, coalesce(label_pt, label_en) AS label FROM cpvs WHERE ${port.dialect.inList('code', '$1')}`,
          [divisions.map((d) => `${d}000000`)],
        ),
    nifs.length === 0
      ? []
      : port.query(`SELECT nif, name FROM entities WHERE ${port.dialect.inList('nif', '$1')}`, [nifs]),
  ]);
  const divisionLabels = new Map(divisionRows.map((r) => [String(r.division), String(r.label)]));
  const names = new Map(nameRows.map((r) => [String(r.nif), String(r.name)]));
  return aggregateAnswer(groups, parts, { divisionLabels, names, municipalities });
}
