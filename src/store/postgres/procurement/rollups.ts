/**
 * Derived figures, as in the SQLite store (see its rollups.ts): contract rollups kept exact by every batch (its
 * deltas summed here and added once at its end, in integer cents), entity totals recomputed by
 * `refreshEntityTotals` for the entities that batches queued.
 */
import type { EntityQueue, RollupDeltas, SetDelta } from '../../shared/rollup-deltas.js';
import type { Sql } from '../db.js';

/** Adds a batch's rollup deltas (see shared/rollup-deltas.ts) to contract_rollups, contract_month_rollups and contract_set_rollups. */
export async function flushRollups(sql: Sql, deltas: RollupDeltas): Promise<void> {
  const { fine, months, sets } = deltas.take();
  await addDeltas(sql, 'contract_rollups', ['scope', 'month', 'cpv_division', 'procedure_type'], fine);
  await addDeltas(sql, 'contract_month_rollups', ['scope', 'month'], months);
  await flushSetDeltas(sql, sets);
}

/**
 * Adds the contracts executed in several municipalities to contract_set_rollups, under their set of
 * municipalities (created with its members on first sight). The aggregate subtracts these rows to count such a
 * contract once when it sums the rollups of several municipalities.
 */
async function flushSetDeltas(sql: Sql, deltas: readonly SetDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  // Sorted, so that writers creating the same sets wait for each other in one order (batches are serialized by
  // the journal's lock anyway). A set another transaction created first is left alone by ON CONFLICT: it comes
  // with its members, committed together.
  const members = [...new Set(deltas.map((d) => d.members))].sort();
  await sql(
    `WITH created AS (
       INSERT INTO municipality_sets (members) SELECT unnest($1::text[]) ON CONFLICT (members) DO NOTHING RETURNING id, members
     )
     INSERT INTO municipality_set_members (municipality_id, set_id)
     SELECT m::integer, c.id FROM created c, unnest(string_to_array(c.members, ',')) AS m`,
    [members],
  );
  const ids = new Map(
    (await sql('SELECT id, members FROM municipality_sets WHERE members = ANY($1::text[])', [members])).map((r) => [
      String(r.members),
      Number(r.id),
    ]),
  );
  const rows = deltas.map((d) => ({ ...d, set_id: ids.get(d.members) as number }));
  await addDeltas(sql, 'contract_set_rollups', ['set_id', 'month', 'cpv_division', 'procedure_type'], rows);
}

const KEY_TYPES: Record<string, string> = {
  scope: 'integer',
  set_id: 'integer',
  month: 'text',
  cpv_division: 'text',
  procedure_type: 'text',
};

/** Upserts deltas into a rollup table keyed by `keys`, in one statement; rows whose count falls to zero are dropped. */
async function addDeltas<D extends { count: number; total_cents: number }>(
  sql: Sql,
  table: string,
  keys: (keyof D & string)[],
  deltas: readonly D[],
): Promise<void> {
  if (deltas.length === 0) return;
  const columns = [...keys, 'count', 'total_cents'] as (keyof D & string)[];
  const types = columns.map((c) => KEY_TYPES[c] ?? 'bigint');
  await sql(
    `INSERT INTO ${table} (${columns.join(', ')})
     SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
     ON CONFLICT (${keys.join(', ')}) DO UPDATE SET count = ${table}.count + excluded.count, total_cents = ${table}.total_cents + excluded.total_cents`,
    columns.map((c) => deltas.map((d) => d[c])),
  );
  await sql(
    `DELETE FROM ${table} WHERE count = 0 AND (${keys.join(', ')}) IN (SELECT * FROM unnest(${keys.map((k, i) => `$${i + 1}::${KEY_TYPES[k]}[]`).join(', ')}))`,
    keys.map((k) => deltas.map((d) => d[k])),
  );
}

/** Queues the batch's tax numbers for `refreshEntityTotals`. */
export async function flushEntityQueue(sql: Sql, queue: EntityQueue): Promise<void> {
  const nifs = queue.take();
  if (nifs.length > 0) await sql('INSERT INTO entity_rollup_queue (nif) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [nifs]);
}

/** Recomputes the totals of the queued entities from their contracts; false when the queue was empty. */
export async function refreshEntityTotals(sql: Sql): Promise<boolean> {
  // Taken off the queue in the same statement that reads it: an entity queued meanwhile waits for the next refresh.
  const queued = await sql('DELETE FROM entity_rollup_queue RETURNING nif');
  if (queued.length === 0) return false;
  await sql(
    `UPDATE entities SET
       contracts_as_buyer = t.buyer_count, total_as_buyer_eur = t.buyer_eur,
       contracts_as_supplier = t.supplier_count, total_as_supplier_eur = t.supplier_eur
     FROM (
       SELECT q.nif,
         count(p.contract_id) FILTER (WHERE p.role = 'buyer') AS buyer_count,
         coalesce(sum(p.price_eur) FILTER (WHERE p.role = 'buyer'), 0) AS buyer_eur,
         count(p.contract_id) FILTER (WHERE p.role = 'supplier') AS supplier_count,
         coalesce(sum(p.price_eur) FILTER (WHERE p.role = 'supplier'), 0) AS supplier_eur
       FROM unnest($1::text[]) AS q (nif)
       LEFT JOIN contract_parties p ON p.nif = q.nif AND p.role IN ('buyer', 'supplier')
       GROUP BY q.nif
     ) AS t
     WHERE entities.nif = t.nif`,
    [queued.map((r) => r.nif)],
  );
  return true;
}
