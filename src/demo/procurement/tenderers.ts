/**
 * Who bids in a competitive procedure (OCDS open, selective or limited): the sector's regular tenderers, a national
 * set of firms sized to the sector's share of competitive procedures (docs/data.md, "The demo dataset"). A procedure's
 * bidders, winner included, are drawn from them evenly, so a regular wins about one bid in the number of bidders, as
 * the others do: the shares of lost bids cluster, and R025 (excessive unsuccessful bids) can tell an outlier from them
 * — with the open pools of the direct awards, most tenderers would bid once and lose, and R025's fence would say
 * nothing (docs/integrity.md). Drawn from a stream of their own, (seed, contract), once the base model has drawn how
 * many bid, so that every other field of a contract is what it would be without it.
 */
import { hashSeed, Rng } from '../random.js';
import { CATEGORIES, type Category, type Sector } from './catalogue.js';
import type { Supplier, SupplierBook } from './entities.js';
import { PROCEDURE_MIX, PROCEDURES, type ProcedureKey } from './procedures.js';

/** Regular tenderers per unit of a sector's competitive weight (its categories' weights × their competitive share). */
const TENDERERS_PER_WEIGHT = 20;
/** The fewest regular tenderers of a sector. */
const MIN_TENDERERS = 4;
/** Ranks at the end of a pool left to outsiders (the cover bidder, the general traders). */
const OUTSIDERS = 8;

export function isCompetitive(method: string): boolean {
  return method === 'open' || method === 'selective' || method === 'limited';
}

export class TendererMarket {
  readonly #seed: number;
  readonly #suppliers: SupplierBook;
  readonly #regulars = new Map<Sector, number>();

  constructor(seed: number, suppliers: SupplierBook) {
    this.#seed = seed;
    this.#suppliers = suppliers;
    const weight = new Map<Sector, number>();
    for (const c of CATEGORIES) weight.set(c.sector, (weight.get(c.sector) ?? 0) + competitiveWeight(c));
    for (const [sector, w] of weight) {
      const regulars = Math.max(MIN_TENDERERS, Math.round(TENDERERS_PER_WEIGHT * w));
      // Keep the last of the pool for the outsiders (SupplierBook.outsider).
      this.#regulars.set(sector, Math.min(suppliers.poolSize(sector) - OUTSIDERS, regulars));
    }
  }

  /** The works sector's cover bidder (the coverBid pattern): a firm that bids often and never wins. */
  coverBidder(): Supplier {
    return this.#suppliers.outsider('construction', 0);
  }

  /** General trader n (the generalist pattern): sells whatever a buyer needs, under a trader's name. */
  generalist(n: number): Supplier {
    const firm = this.#suppliers.outsider('equipment', 1 + n);
    const name = `${firm.party.name.split(/[ ,]/)[0]} - Comércio Geral e Distribuição, Lda`;
    return { party: { ...firm.party, name }, entity: { ...firm.entity, name } };
  }

  /** How many regular tenderers the sector has. */
  regulars(sector: Sector): number {
    return this.#regulars.get(sector) ?? MIN_TENDERERS;
  }

  /**
   * Contract k's bidders as regular tenderers of its sector: each distinct bidder the base model drew becomes a
   * distinct regular, the winners included, in the same places; a sector with fewer regulars than bidders keeps the
   * winners and as many others as it has.
   */
  assign(k: number, sector: Sector, winners: Supplier[], competitors: Supplier[]) {
    const size = this.regulars(sector);
    let kept = competitors;
    if (competitors.length > size) {
      const losers = competitors.filter((c) => !winners.includes(c)).slice(0, size - winners.length);
      kept = competitors.filter((c) => winners.includes(c) || losers.includes(c));
    }
    const picks = distinct(new Rng(hashSeed(this.#seed, 'tenderers', k)), size, kept.length);
    const regulars = picks.map((rank) => this.#suppliers.national(sector, rank));
    return { winners: winners.map((w) => regulars[kept.indexOf(w)]), competitors: regulars };
  }
}

function competitiveWeight(c: Category): number {
  const mix = Object.entries(c.procedures ?? PROCEDURE_MIX[c.kind]);
  const total = mix.reduce((s, [, w]) => s + w, 0);
  const competitive = mix
    .filter(([key]) => isCompetitive(PROCEDURES[key as ProcedureKey].method))
    .reduce((s, [, w]) => s + w, 0);
  return (c.weight * competitive) / total;
}

/** `n` distinct whole numbers of [0, size), drawn evenly (a partial Fisher–Yates shuffle). */
function distinct(m: Rng, size: number, n: number): number[] {
  const moved = new Map<number, number>();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(m.next() * (size - i));
    out.push(moved.get(j) ?? j);
    moved.set(j, moved.get(i) ?? i);
  }
  return out;
}
