/**
 * Derived figures. Contract rollups (counts and integer cents per month, CPV division and procedure type, and per
 * month alone — what the aggregate reads instead of scanning contracts) are kept exact by every write: a batch
 * collects its deltas (../shared/rollup-deltas.ts) and adds them here once at its end, each table in one
 * statement. Entity totals are recomputed by `refreshEntityTotals` for the entities that writes queued, as the
 * store interface has it (after loads). Call them inside the writing transaction.
 */
import type { EntityQueue, RollupDeltas, SetDelta } from '../shared/rollup-deltas.js';
import { groupRows } from '../shared/row-values.js';
import type { ColumnType, SqlPort } from '../sql/port.js';

/**
 * Takes the stored contracts that `where` names (a condition on `contracts c`, its values bound from $1) out of the
 * rollup deltas: what they contribute, read before they are rewritten or deleted (two statements).
 */
export async function takeOutOfRollups(
  tx: SqlPort,
  deltas: RollupDeltas,
  where: string,
  values: readonly unknown[],
): Promise<void> {
  const placed = groupRows(
    await tx.query(
      `SELECT x.contract_id, x.municipality_id
       FROM contracts c JOIN contract_municipalities x ON x.contract_id = c.id WHERE ${where}`,
      values,
    ),
    (p) => Number(p.contract_id),
  );
  for (const c of await tx.query(
    `SELECT c.id, c.published_on, c.cpv_division, c.procedure_type, c.price_eur FROM contracts c WHERE ${where}`,
    values,
  )) {
    deltas.remove({
      published_on: String(c.published_on),
      cpv_division: c.cpv_division === null ? null : String(c.cpv_division),
      procedure_type: c.procedure_type === null ? null : String(c.procedure_type),
      price_eur: c.price_eur === null ? null : Number(c.price_eur),
      municipality_ids: (placed.get(Number(c.id)) ?? []).map((p) => Number(p.municipality_id)),
    });
  }
}

/** Adds a batch's rollup deltas to contract_rollups, contract_month_rollups and contract_set_rollups. */
export async function flushRollups(tx: SqlPort, deltas: RollupDeltas): Promise<void> {
  const { fine, months, sets } = deltas.take();
  await addDeltas(tx, 'contract_rollups', ['scope', 'month', 'cpv_division', 'procedure_type'], fine);
  await addDeltas(tx, 'contract_month_rollups', ['scope', 'month'], months);
  await flushSetDeltas(tx, sets);
}

/**
 * Adds the contracts executed in several municipalities to contract_set_rollups, under their set of
 * municipalities (created with its members on first sight). The aggregate subtracts these rows to count such a
 * contract once when it sums the rollups of several municipalities.
 */
async function flushSetDeltas(tx: SqlPort, deltas: readonly SetDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  // Sorted, so that writers creating the same sets wait for each other in one order (batches take their turn on
  // the journal anyway). A set another transaction created first is left alone by ON CONFLICT: it comes with its
  // members, committed together.
  const members = [...new Set(deltas.map((d) => d.members))].sort();
  const created = await tx.query(
    `INSERT INTO municipality_sets (members)
     SELECT v.members FROM ${tx.dialect.rows('$1', [['members', 'text']])} AS v WHERE true
     ORDER BY v.ord ON CONFLICT (members) DO NOTHING RETURNING id, members`,
    [JSON.stringify(members.map((m) => [m]))],
  );
  if (created.length > 0) {
    const rows = created.flatMap((set) =>
      String(set.members)
        .split(',')
        .map((member) => [Number(member), Number(set.id)]),
    );
    await tx.run(
      `INSERT INTO municipality_set_members (municipality_id, set_id)
       SELECT v.municipality_id, v.set_id FROM ${tx.dialect.rows('$1', [
         ['municipality_id', 'integer'],
         ['set_id', 'integer'],
       ])} AS v`,
      [JSON.stringify(rows)],
    );
  }
  const ids = new Map(
    (
      await tx.query(`SELECT id, members FROM municipality_sets WHERE ${tx.dialect.inList('members', '$1')}`, [members])
    ).map((r) => [String(r.members), Number(r.id)]),
  );
  const rows = deltas.map((d) => ({ ...d, set_id: ids.get(d.members) as number }));
  await addDeltas(tx, 'contract_set_rollups', ['set_id', 'month', 'cpv_division', 'procedure_type'], rows);
}

const KEY_TYPES: Record<string, ColumnType> = {
  scope: 'integer',
  set_id: 'integer',
  month: 'text',
  cpv_division: 'text',
  procedure_type: 'text',
};

/**
 * Upserts deltas into a rollup table keyed by `keys`, in one statement (none of the deltas changes nothing: see
 * RollupDeltas.take); the rows whose count fell to zero are then dropped.
 */
async function addDeltas<D extends { count: number; total_cents: number }>(
  tx: SqlPort,
  table: string,
  keys: (keyof D & string)[],
  deltas: readonly D[],
): Promise<void> {
  if (deltas.length === 0) return;
  const columns = [...keys, 'count', 'total_cents'] as (keyof D & string)[];
  const rows = tx.dialect.rows(
    '$1',
    columns.map((c) => [c, KEY_TYPES[c] ?? 'bigint']),
  );
  await tx.run(
    `INSERT INTO ${table} (${columns.join(', ')})
     SELECT ${columns.map((c) => `v.${c}`).join(', ')} FROM ${rows} AS v WHERE true
     ON CONFLICT (${keys.join(', ')}) DO UPDATE SET count = ${table}.count + excluded.count,
       total_cents = ${table}.total_cents + excluded.total_cents`,
    [JSON.stringify(deltas.map((d) => columns.map((c) => d[c])))],
  );
  // Only a removal can empty a row.
  const removals = deltas.filter((d) => d.count < 0);
  if (removals.length === 0) return;
  const keyRows = tx.dialect.rows(
    '$1',
    keys.map((k) => [k, KEY_TYPES[k]]),
  );
  await tx.run(
    `DELETE FROM ${table} WHERE count = 0
     AND (${keys.join(', ')}) IN (SELECT ${keys.map((k) => `v.${k}`).join(', ')} FROM ${keyRows} AS v)`,
    [JSON.stringify(removals.map((d) => keys.map((k) => d[k])))],
  );
}

/** Queues the batch's tax numbers for `refreshEntityTotals`. */
export async function flushEntityQueue(tx: SqlPort, queue: EntityQueue): Promise<void> {
  const nifs = queue.take();
  if (nifs.length === 0) return;
  await tx.run(
    `INSERT INTO entity_rollup_queue (nif)
     SELECT v.nif FROM ${tx.dialect.rows('$1', [['nif', 'text']])} AS v WHERE true ON CONFLICT DO NOTHING`,
    [JSON.stringify(nifs.map((nif) => [nif]))],
  );
}

/** Recomputes the totals of the queued entities from their contracts; false when the queue was empty. */
export async function refreshEntityTotals(tx: SqlPort): Promise<boolean> {
  // Taken off the queue in the same statement that reads it: an entity queued meanwhile waits for the next refresh.
  const queued = await tx.query('DELETE FROM entity_rollup_queue RETURNING nif');
  if (queued.length === 0) return false;
  // Euros summed as the contracts hold them, rounded to the cent (a sum of binary fractions is not exact).
  const euros = (role: string) =>
    `round(CAST(coalesce(sum(p.price_eur) FILTER (WHERE p.role = '${role}'), 0) AS numeric), 2)`;
  await tx.run(
    `UPDATE entities SET
       contracts_as_buyer = t.buyer_count, total_as_buyer_eur = t.buyer_eur,
       contracts_as_supplier = t.supplier_count, total_as_supplier_eur = t.supplier_eur
     FROM (
       SELECT q.nif,
         count(p.contract_id) FILTER (WHERE p.role = 'buyer') AS buyer_count, ${euros('buyer')} AS buyer_eur,
         count(p.contract_id) FILTER (WHERE p.role = 'supplier') AS supplier_count, ${euros('supplier')} AS supplier_eur
       FROM ${tx.dialect.rows('$1', [['nif', 'text']])} AS q
       LEFT JOIN contract_parties p ON p.nif = q.nif AND p.role IN ('buyer', 'supplier')
       GROUP BY q.nif
     ) AS t
     WHERE entities.nif = t.nif`,
    [JSON.stringify(queued.map((r) => [r.nif]))],
  );
  return true;
}
