/** Entity rows as records, the same in every store: the entity, its figures per year and its counterparts. */
import type { CounterpartRecord, EntityYearRecord } from '../procurement-queries.js';
import type { EntityKind, EntityRecord } from '../procurement-records.js';
import { euros, type Row, textOrNull } from './row-values.js';

/** An entity row read with its municipality's code (`municipality_code`). */
export function toEntity(row: Row): EntityRecord {
  return {
    nif: String(row.nif),
    name: String(row.name),
    kind: row.kind as EntityKind,
    country: textOrNull(row.country),
    municipality: textOrNull(row.municipality_code),
    contracts_as_buyer: Number(row.contracts_as_buyer),
    contracts_as_supplier: Number(row.contracts_as_supplier),
    total_as_buyer_eur: euros(row.total_as_buyer_eur),
    total_as_supplier_eur: euros(row.total_as_supplier_eur),
  };
}

/**
 * An entity's years from rows of (`year` as 'YYYY' or '' for no date, `role`, `count`, `eur`): one record per
 * year, ascending, the contracts without a date last.
 */
export function toEntityYears(rows: readonly Row[]): EntityYearRecord[] {
  const years = new Map<string, EntityYearRecord>();
  for (const row of rows) {
    const key = String(row.year);
    const year = years.get(key) ?? {
      year: key === '' ? null : Number(key),
      as_buyer_count: 0,
      as_buyer_eur: 0,
      as_supplier_count: 0,
      as_supplier_eur: 0,
    };
    if (row.role === 'buyer') {
      year.as_buyer_count = Number(row.count);
      year.as_buyer_eur = euros(row.eur);
    } else {
      year.as_supplier_count = Number(row.count);
      year.as_supplier_eur = euros(row.eur);
    }
    years.set(key, year);
  }
  // Ascending years; the contracts without a date (year '') last.
  return [...years.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : 1))
    .map(([, year]) => year);
}

/** A counterpart row (`nif`, `name`, `count`, `total`). */
export function toCounterpart(row: Row): CounterpartRecord {
  return { nif: String(row.nif), name: String(row.name), count: Number(row.count), total_eur: euros(row.total) };
}
