/**
 * Derived figures, as in the SQLite store (see its rollups.ts): contract rollups kept exact by every batch (its
 * deltas summed here and added once at its end, in integer cents), entity totals recomputed by
 * `refreshEntityTotals` for the entities that batches queued.
 */
import type { Sql } from '../db.js';

export const ALL_CONTRACTS = 0;
export const NO_MUNICIPALITY = -1;

/** What a contract contributes to the rollups (as stored: '' for an unknown date). */
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

export class RollupDeltas {
  readonly #deltas = new Map<string, Delta>();

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
    for (const scope of [ALL_CONTRACTS, ...scopes]) {
      const key = `${scope}|${month}|${cpvDivision}|${procedureType}`;
      let held = this.#deltas.get(key);
      if (!held) {
        held = { scope, month, cpv_division: cpvDivision, procedure_type: procedureType, count: 0, total_cents: 0 };
        this.#deltas.set(key, held);
      }
      held.count += sign;
      held.total_cents += sign * cents;
    }
  }

  /** Adds the deltas to contract_rollups and their sums per scope and month to contract_month_rollups. */
  async flush(sql: Sql): Promise<void> {
    const fine = [...this.#deltas.values()].filter((d) => d.count !== 0 || d.total_cents !== 0);
    const months = new Map<string, Delta>();
    for (const delta of fine) {
      const key = `${delta.scope}|${delta.month}`;
      const held = months.get(key) ?? { ...delta, cpv_division: '', procedure_type: '', count: 0, total_cents: 0 };
      held.count += delta.count;
      held.total_cents += delta.total_cents;
      months.set(key, held);
    }
    await addDeltas(sql, 'contract_rollups', ['scope', 'month', 'cpv_division', 'procedure_type'], fine);
    await addDeltas(
      sql,
      'contract_month_rollups',
      ['scope', 'month'],
      [...months.values()].filter((d) => d.count !== 0 || d.total_cents !== 0),
    );
    this.#deltas.clear();
  }
}

const KEY_TYPES: Record<string, string> = { scope: 'integer', month: 'text', cpv_division: 'text', procedure_type: 'text' };

/** Upserts deltas into a rollup table keyed by `keys`, in one statement; rows whose count falls to zero are dropped. */
async function addDeltas(sql: Sql, table: string, keys: (keyof Delta)[], deltas: readonly Delta[]): Promise<void> {
  if (deltas.length === 0) return;
  const columns = [...keys, 'count', 'total_cents'] as (keyof Delta)[];
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

/** Tax numbers whose entity totals a batch changed, queued for `refreshEntityTotals`. */
export class EntityQueue {
  readonly #nifs = new Set<string>();

  add(nif: string | null): void {
    if (nif !== null) this.#nifs.add(nif);
  }

  async flush(sql: Sql): Promise<void> {
    if (this.#nifs.size > 0) {
      await sql('INSERT INTO entity_rollup_queue (nif) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING', [[...this.#nifs]]);
    }
    this.#nifs.clear();
  }
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
