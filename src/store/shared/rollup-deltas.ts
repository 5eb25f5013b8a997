/**
 * What a procurement batch changes in the derived figures, collected in memory the same way in every store and
 * written once at the batch's end by the store's own SQL: contract rollups (counts and integer cents per scope,
 * month, CPV division and procedure type), and the tax numbers whose entity totals need recomputing.
 */

/** Scope of the rollup rows that hold each contract once, and of those of contracts executed in no municipality. */
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

export interface RollupDelta {
  scope: number;
  month: string;
  cpv_division: string;
  procedure_type: string;
  count: number;
  total_cents: number;
}

/** What a contract executed in several municipalities contributes to contract_set_rollups, keyed by that set. */
export interface SetDelta {
  /** The municipality ids, ascending, joined by ','. */
  members: string;
  month: string;
  cpv_division: string;
  procedure_type: string;
  count: number;
  total_cents: number;
}

/** A batch's deltas, ready to add: none of them changes nothing. */
export interface TakenDeltas {
  /** Per scope, month, CPV division and procedure type (contract_rollups). */
  fine: RollupDelta[];
  /** Their sums per scope and month (contract_month_rollups; division and procedure ''). */
  months: RollupDelta[];
  /** Per set of municipalities (contract_set_rollups). */
  sets: SetDelta[];
}

export class RollupDeltas {
  readonly #deltas = new Map<string, RollupDelta>();
  /** Per set of municipalities: both stores keep set rollups to answer several municipalities from rollups. */
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

  /** The deltas collected so far, summed per month too, leaving none behind. */
  take(): TakenDeltas {
    const months = new Map<string, RollupDelta>();
    for (const delta of this.#deltas.values()) {
      const key = `${delta.scope}|${delta.month}`;
      const held = months.get(key) ?? { ...delta, cpv_division: '', procedure_type: '', count: 0, total_cents: 0 };
      held.count += delta.count;
      held.total_cents += delta.total_cents;
      months.set(key, held);
    }
    const taken = {
      fine: [...this.#deltas.values()].filter(changesSomething),
      months: [...months.values()].filter(changesSomething),
      sets: [...this.#setDeltas.values()].filter(changesSomething),
    };
    this.#deltas.clear();
    this.#setDeltas.clear();
    return taken;
  }
}

const changesSomething = (d: { count: number; total_cents: number }) => d.count !== 0 || d.total_cents !== 0;

/** Tax numbers whose entity totals a batch changed, queued for the store's `refreshEntityTotals`. */
export class EntityQueue {
  readonly #nifs = new Set<string>();

  add(nif: string | null): void {
    if (nif !== null) this.#nifs.add(nif);
  }

  /** The queued tax numbers, leaving none behind. */
  take(): string[] {
    const nifs = [...this.#nifs];
    this.#nifs.clear();
    return nifs;
  }
}
