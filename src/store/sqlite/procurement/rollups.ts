/**
 * Derived figures. Contract rollups (counts and euros per month, CPV division and procedure type, and per month
 * alone — what the aggregate reads instead of scanning contracts) are kept exact by every write: a batch collects
 * its deltas and adds them once at its end. Entity totals are recomputed by `refreshEntityTotals` for the entities a write
 * touched, as the store interface has it (after loads).
 */
import type { EntityQueue, RollupDeltas, SetDelta } from '../../shared/rollup-deltas.js';
import type { Sql } from './sql.js';

/** Adds a batch's rollup deltas (see shared/rollup-deltas.ts) to contract_rollups, contract_month_rollups and contract_set_rollups. */
export function flushRollups(sql: Sql, deltas: RollupDeltas): void {
  const { fine, months, sets } = deltas.take();
  addDeltas(sql, 'contract_rollups', ['scope', 'month', 'cpv_division', 'procedure_type'], fine);
  addDeltas(sql, 'contract_month_rollups', ['scope', 'month'], months);
  flushSetDeltas(sql, sets);
}

/**
 * Adds the contracts executed in several municipalities to contract_set_rollups, under their set of
 * municipalities (created with its members on first sight). The aggregate subtracts these rows to count such a
 * contract once when it sums the rollups of several municipalities.
 */
function flushSetDeltas(sql: Sql, deltas: Iterable<SetDelta>): void {
  const insertSet = sql('INSERT INTO municipality_sets (members) VALUES (?) ON CONFLICT (members) DO NOTHING');
  const findSet = sql('SELECT id FROM municipality_sets WHERE members = ?').pluck();
  const insertMember = sql('INSERT OR IGNORE INTO municipality_set_members (municipality_id, set_id) VALUES (?, ?)');
  const ids = new Map<string, number>();
  const setId = (members: string): number => {
    let id = ids.get(members);
    if (id === undefined) {
      const inserted = insertSet.run(members);
      id = inserted.changes > 0 ? Number(inserted.lastInsertRowid) : Number(findSet.get(members));
      if (inserted.changes > 0) for (const member of members.split(',')) insertMember.run(Number(member), id);
      ids.set(members, id);
    }
    return id;
  };
  const rows: (SetDelta & { set_id: number })[] = [];
  for (const delta of deltas) {
    if (delta.count === 0 && delta.total_cents === 0) continue;
    rows.push({ ...delta, set_id: setId(delta.members) });
  }
  addDeltas(sql, 'contract_set_rollups', ['set_id', 'month', 'cpv_division', 'procedure_type'], rows);
}

/** Upserts deltas into a rollup table keyed by `keys`; a row whose count falls to zero is dropped. */
function addDeltas(sql: Sql, table: string, keys: string[], deltas: Iterable<{ count: number; total_cents: number }>): void {
  const upsert = sql(
    `INSERT INTO ${table} (${keys.join(', ')}, count, total_cents) VALUES (${keys.map((k) => `@${k}`).join(', ')}, @count, @total_cents)
     ON CONFLICT (${keys.join(', ')}) DO UPDATE SET count = count + excluded.count, total_cents = total_cents + excluded.total_cents`,
  );
  const dropEmpty = sql(`DELETE FROM ${table} WHERE ${keys.map((k) => `${k} = @${k}`).join(' AND ')} AND count = 0`);
  for (const delta of deltas) {
    if (delta.count === 0 && delta.total_cents === 0) continue;
    upsert.run(delta);
    if (delta.count < 0) dropEmpty.run(delta);
  }
}

/** Queues the batch's tax numbers for `refreshEntityTotals`. */
export function flushEntityQueue(sql: Sql, queue: EntityQueue): void {
  const enqueue = sql('INSERT OR IGNORE INTO entity_rollup_queue (nif) VALUES (?)');
  for (const nif of queue.take()) enqueue.run(nif);
}

/** Recomputes the totals of the queued entities from their contracts; false when the queue was empty. */
export function refreshEntityTotals(sql: Sql): boolean {
  if (!sql('SELECT 1 FROM entity_rollup_queue LIMIT 1').get()) return false;
  sql(
    `UPDATE entities SET
       contracts_as_buyer = t.buyer_count, total_as_buyer_eur = t.buyer_eur,
       contracts_as_supplier = t.supplier_count, total_as_supplier_eur = t.supplier_eur
     FROM (
       SELECT q.nif,
         count(p.contract_id) FILTER (WHERE p.role = 'buyer') AS buyer_count,
         round(total(p.price_eur) FILTER (WHERE p.role = 'buyer'), 2) AS buyer_eur,
         count(p.contract_id) FILTER (WHERE p.role = 'supplier') AS supplier_count,
         round(total(p.price_eur) FILTER (WHERE p.role = 'supplier'), 2) AS supplier_eur
       FROM entity_rollup_queue q
       LEFT JOIN contract_parties p ON p.nif = q.nif AND p.role IN ('buyer', 'supplier')
       GROUP BY q.nif
     ) AS t
     WHERE entities.nif = t.nif`,
  ).run();
  sql('DELETE FROM entity_rollup_queue').run();
  return true;
}
