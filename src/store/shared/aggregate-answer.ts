/**
 * What both stores do with an aggregate once SQL has counted its parts: merge the parts (whole months from the
 * rollups, partial months and entity groupings from the contracts, negative corrections), turn raw key values into
 * keys (codes, numbers, null), order the groups and name them. Only the look-ups (municipalities, CPV labels,
 * entity names) are asked of each store's own SQL.
 */
import type { AggregateDimension, AggregateGroup, AggregateKey, AggregateResult } from '../procurement-queries.js';
import type { Row } from './row-values.js';

export interface CountedGroup {
  /** Raw key values, in groupBy order: '' or null for "none". */
  values: unknown[];
  count: number;
  cents: number;
}

/** One part of an answer: its groups and its totals (counts may be negative: a correction). */
export interface CountedPart {
  groups: CountedGroup[];
  totals: CountedGroup;
}

/** The same part taking away what it counts: the correction of a sum that counted some contracts more than once. */
export function subtracted(part: CountedPart): CountedPart {
  const negative = (c: CountedGroup): CountedGroup => ({ ...c, count: -c.count, cents: -c.cents });
  return { groups: part.groups.map(negative), totals: negative(part.totals) };
}

/** A row whose keys are `k0`, `k1`, … (in groupBy order) with `count` and `cents`. */
export function countedRow(row: Row, keys: number): CountedGroup {
  return {
    values: Array.from({ length: keys }, (_, i) => row[`k${i}`]),
    count: Number(row.count ?? 0),
    cents: Number(row.cents ?? 0),
  };
}

/** The municipalities (`id`, `code`, `name` rows) by id: a municipality key is its code. */
export type MunicipalitiesById = Map<number, Row>;

export interface MergedGroup {
  key: AggregateKey;
  count: number;
  cents: number;
}

/** The parts' groups added up per key, the empty ones dropped, in key order. */
export function mergeParts(
  dimensions: readonly AggregateDimension[],
  parts: readonly CountedPart[],
  municipalities: MunicipalitiesById,
): MergedGroup[] {
  const merged = new Map<string, MergedGroup>();
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
  return [...merged.values()].filter((g) => g.count > 0).sort((a, b) => compareKeys(a.key, b.key, dimensions));
}

function keyValue(
  dimension: AggregateDimension,
  raw: unknown,
  municipalities: MunicipalitiesById,
): string | number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  if (dimension === 'year') return Number(raw);
  if (dimension === 'municipality') {
    const code = municipalities.get(Number(raw))?.code; // NO_MUNICIPALITY has none
    return code === undefined ? null : String(code);
  }
  return String(raw);
}

/** Keys in dimension order, each ascending, "none" (null) last. */
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

/** What the labels need looked up: the CPV divisions and the entities' tax numbers among the keys. */
export function labelLookups(groups: readonly MergedGroup[]): { divisions: string[]; nifs: string[] } {
  const keys = groups.map((g) => g.key);
  return {
    divisions: [...new Set(keys.map((k) => k.cpv_division).filter((d): d is string => typeof d === 'string'))],
    nifs: [
      ...new Set(
        keys.flatMap((k) => [k.contracting_entity, k.supplier]).filter((n): n is string => typeof n === 'string'),
      ),
    ],
  };
}

/** What the store found for `labelLookups`: division → label, nif → name. */
export interface LabelSources {
  divisionLabels: Map<string, string>;
  names: Map<string, string>;
  municipalities: MunicipalitiesById;
}

/** The answer: the merged groups with their labels, and the totals of every part. */
export function aggregateAnswer(
  groups: readonly MergedGroup[],
  parts: readonly CountedPart[],
  sources: LabelSources,
): AggregateResult {
  const labels = labelsOf(sources);
  return {
    groups: groups.map(
      (g): AggregateGroup => ({ key: g.key, labels: labels(g.key), count: g.count, total_eur: g.cents / 100 }),
    ),
    totals: {
      count: parts.reduce((n, p) => n + p.totals.count, 0),
      total_eur: parts.reduce((n, p) => n + p.totals.cents, 0) / 100,
    },
  };
}

function labelsOf({ divisionLabels, names, municipalities }: LabelSources) {
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
