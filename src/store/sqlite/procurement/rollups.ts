/**
 * Derived figures. Contract rollups (counts and euros per month, CPV division and procedure type, and per month
 * alone — what the aggregate reads instead of scanning contracts) are kept exact by every write: a batch collects
 * its deltas and adds them once at its end. Entity totals are recomputed by `refreshEntityTotals` for the entities a write
 * touched, as the store interface has it (after loads).
 */
import type { Sql } from './sql.js';

/** Scope of the rollup rows that hold each contract once, and of those of contracts executed in no municipality. */
export const ALL_CONTRACTS = 0;
export const NO_MUNICIPALITY = -1;

/** What a contract contributes to the rollups (as stored: '' for unknown). */
export interface RollupFacts {
  published_on: string;
  cpv_division: string | null;
  procedure_type: string | null;
  price_eur: number | null;
  municipality_ids: readonly number[];
}

interface Delta {
  scope: number;
  month: string;
  cpv_division: string;
  procedure_type: string;
  count: number;
  total_cents: number;
}

/** What a contract executed in several municipalities contributes to contract_set_rollups, keyed by that set. */
interface SetDelta {
  /** The municipality ids, ascending, joined by ','. */
  members: string;
  month: string;
  cpv_division: string;
  procedure_type: string;
  count: number;
  total_cents: number;
}

export class RollupDeltas {
  readonly #deltas = new Map<string, Delta>();
  readonly #setDeltas = new Map<string, SetDelta>();

  add(facts: RollupFacts): void {
    this.#apply(facts, 1);
  }

  remove(facts: RollupFacts): void {
    this.#apply(facts, -1);
  }

  #apply(facts: RollupFacts, sign: 1 | -1): void {
    const scopes = facts.municipality_ids.length > 0 ? facts.municipality_ids : [NO_MUNICIPALITY];
    const cents = Math.round((facts.price_eur ?? 0) * 100);
    const month = facts.published_on.slice(0, 7);
    const cpvDivision = facts.cpv_division ?? '';
    const procedureType = facts.procedure_type ?? '';
    const bump = (scope: number) => {
      const key = `${scope}|${month}|${cpvDivision}|${procedureType}`;
      let held = this.#deltas.get(key);
      if (!held) {
        held = { scope, month, cpv_division: cpvDivision, procedure_type: procedureType, count: 0, total_cents: 0 };
        this.#deltas.set(key, held);
      }
      held.count += sign;
      held.total_cents += sign * cents;
    };
    bump(ALL_CONTRACTS);
    for (const scope of scopes) bump(scope);
    if (facts.municipality_ids.length > 1) {
      const members = [...new Set(facts.municipality_ids)].sort((a, b) => a - b).join(',');
      const key = `${members}|${month}|${cpvDivision}|${procedureType}`;
      let held = this.#setDeltas.get(key);
      if (!held) {
        held = { members, month, cpv_division: cpvDivision, procedure_type: procedureType, count: 0, total_cents: 0 };
        this.#setDeltas.set(key, held);
      }
      held.count += sign;
      held.total_cents += sign * cents;
    }
  }

  /** Adds the batch's deltas to contract_rollups, and their sums per scope and month to contract_month_rollups. */
  flush(sql: Sql): void {
    const months = new Map<string, Delta>();
    for (const delta of this.#deltas.values()) {
      const key = `${delta.scope}|${delta.month}`;
      const held = months.get(key) ?? { ...delta, cpv_division: '', procedure_type: '', count: 0, total_cents: 0 };
      held.count += delta.count;
      held.total_cents += delta.total_cents;
      months.set(key, held);
    }
    const fine = ['scope', 'month', 'cpv_division', 'procedure_type'];
    addDeltas(sql, 'contract_rollups', fine, this.#deltas.values());
    addDeltas(sql, 'contract_month_rollups', ['scope', 'month'], months.values());
    this.#deltas.clear();
    flushSetDeltas(sql, this.#setDeltas.values());
    this.#setDeltas.clear();
  }
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

/** Tax numbers whose entity totals a batch changed, queued for `refreshEntityTotals`. */
export class EntityQueue {
  readonly #nifs = new Set<string>();

  add(nif: string | null): void {
    if (nif !== null) this.#nifs.add(nif);
  }

  flush(sql: Sql): void {
    const enqueue = sql('INSERT OR IGNORE INTO entity_rollup_queue (nif) VALUES (?)');
    for (const nif of this.#nifs) enqueue.run(nif);
    this.#nifs.clear();
  }
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
