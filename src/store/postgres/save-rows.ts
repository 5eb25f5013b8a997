/**
 * Insert-or-update of whole records by primary key, counting what changed: the existing rows are read in one
 * statement, compared here, and only new or changed ones written, in one statement, with one data-version bump.
 * Call it inside a transaction.
 */
import type { WriteSummary } from '../records.js';
import { bumpDataVersion } from './data-version.js';
import type { Row, Sql } from './db.js';

export async function saveRows(sql: Sql, table: string, pk: string, rows: readonly Row[]): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  if (rows.length === 0) return summary;
  const columns = Object.keys(rows[0]);
  const existing = new Map(
    (await sql(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${pk} = ANY($1)`, [rows.map((r) => r[pk])])).map((r) => [r[pk], r]),
  );
  // Compared one after the other, as separate writes would be: a key given twice is written once, as last given.
  const changed = new Map<unknown, Row>();
  for (const row of rows) {
    const old = existing.get(row[pk]);
    if (!old) summary.inserted++;
    else if (columns.some((c) => !sameValue(old[c], row[c]))) summary.updated++;
    else {
      summary.unchanged++;
      continue;
    }
    existing.set(row[pk], row);
    changed.set(row[pk], row);
  }
  if (changed.size === 0) return summary;
  // The rows travel as one JSON array that PostgreSQL turns into records of the table's own row type.
  await sql(
    `INSERT INTO ${table} (${columns.join(', ')})
     SELECT ${columns.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)
     ON CONFLICT (${pk}) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    [JSON.stringify([...changed.values()])],
  );
  await bumpDataVersion(sql);
  return summary;
}

/** Equality of a stored value and a written one (arrays by content; undefined is null). */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (Array.isArray(x) || Array.isArray(y)) return JSON.stringify(x) === JSON.stringify(y);
  return x === y;
}
