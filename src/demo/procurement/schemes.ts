/**
 * The integrity schemes that span several contracts (docs/integrity.md, "On the demo data"): a purchase split in two
 * (PT-ART22-SPLIT), repeated ajustes diretos to one supplier (PT-ART113), a parish's year bought from one supplier
 * (PT-CONCENTRATION). After the first contracts (one per municipality), the contracts are cut into blocks of
 * SCHEMES.block; a block holds at most one scheme, in its first contracts, decided by (seed, block) alone — so contract
 * k is the same whatever the number of contracts, and a test can tell which contracts a scheme made (`schemeSlot`).
 */
import { DIRECT_AWARD_CEILINGS, regimeOfMunicipality } from '../../lib/direct-award-regime.js';
import { hashSeed, Rng } from '../random.js';
import { CATEGORIES, type Category } from './catalogue.js';
import { type Buyer, type PartyBook, type Supplier, type SupplierBook, schemeParish } from './entities.js';
import { SCHEME_SHAPE, SCHEMES, type SchemeKind } from './integrity-patterns.js';
import { PROCEDURE_MIX, PROCEDURES, type Procedure } from './procedures.js';

/** Where contract k stands in a scheme, or null: a pure function of the seed, the number of first contracts and k. */
export function schemeSlot(seed: number, first: number, k: number): { kind: SchemeKind; part: number } | null {
  if (k < first) return null;
  const block = Math.floor((k - first) / SCHEMES.block);
  const part = (k - first) % SCHEMES.block;
  const kind = schemeKind(seed, block);
  return kind !== null && part < SCHEME_SHAPE[kind].contracts ? { kind, part } : null;
}

/** Whether the scheme's type flags this part: both halves of a split, the third repeated award, the captive's eight. */
export function schemeFlags(kind: SchemeKind, part: number): boolean {
  if (kind === 'repeated') return part === SCHEME_SHAPE.repeated.contracts - 1;
  return part < SCHEME_SHAPE[kind].flagged;
}

function schemeKind(seed: number, block: number): SchemeKind | null {
  let u = new Rng(hashSeed(seed, 'scheme', block)).next();
  for (const kind of Object.keys(SCHEME_SHAPE) as SchemeKind[]) {
    if (u < SCHEMES[kind]) return kind;
    u -= SCHEMES[kind];
  }
  return null;
}

/** What a scheme fixes of one of its contracts; the rest the base model draws as for any contract. */
export interface SchemeContract {
  buyer: Buyer;
  category: Category;
  procedure: Procedure;
  price: number;
  /** Day number of its publication. */
  published: number;
  /** The supplier, or null to draw one as for any contract. */
  winner: Supplier | null;
  /** The main CPV code, or null to draw it. */
  cpv: string | null;
}

/** What the planner reads of the generator's world. */
export interface SchemeWorld {
  readonly seed: number;
  readonly anchor: number;
  readonly windowDays: number;
  readonly book: PartyBook;
  readonly suppliers: SupplierBook;
  firstContracts(): number;
  categoriesOf(buyer: Buyer): { pick(u: number): Category };
  cpvsOf(category: Category): readonly string[];
  workday(day: number): number;
}

const FUEL = CATEGORIES.find((c) => c.key === 'fuel') as Category;
/** The prices of a captive parish's call-offs, and of its two other contracts of the year (euros). */
const CAPTIVE_PRICE = [2_500, 6_000] as const;
const OTHER_PRICE = [400, 2_400] as const;

export class SchemePlanner {
  readonly #world: SchemeWorld;
  readonly #municipalities: { pick(u: number): Buyer };
  #kept: { block: number; contracts: SchemeContract[] } | null = null;

  constructor(world: SchemeWorld) {
    this.#world = world;
    this.#municipalities = weighted(world.book.buyers.filter((b) => b.kind === 'municipality'));
  }

  /** What the scheme of contract k fixes, or null when k is no part of one. */
  at(k: number): SchemeContract | null {
    const w = this.#world;
    const slot = schemeSlot(w.seed, w.firstContracts(), k);
    if (slot === null) return null;
    const block = Math.floor((k - w.firstContracts()) / SCHEMES.block);
    if (this.#kept?.block !== block) this.#kept = { block, contracts: this.#plan(slot.kind, block) };
    return this.#kept.contracts[slot.part];
  }

  #plan(kind: SchemeKind, block: number): SchemeContract[] {
    const d = new Rng(hashSeed(this.#world.seed, 'scheme-details', block));
    if (kind === 'split') return this.#split(d);
    if (kind === 'repeated') return this.#repeated(d);
    return this.#captive(d, block);
  }

  /** One purchase in two ajustes diretos, days apart, each under the regime's ceiling, together over it. */
  #split(d: Rng): SchemeContract[] {
    const { buyer, category, winner, ceiling } = this.#directAward(d);
    const cpv = d.pick(this.#world.cpvsOf(category));
    const first = this.#day(d, 90, 30);
    return [0, 1].map((part) => ({
      buyer,
      category,
      procedure: PROCEDURES.ad,
      price: underCeiling(ceiling, 0.52 + 0.43 * d.next()),
      published: part === 0 ? first : this.#world.workday(first + d.int(0, 5)),
      winner,
      cpv,
    }));
  }

  /** Three ajustes diretos of one kind to one supplier, months apart, each over half the regime's ceiling. */
  #repeated(d: Rng): SchemeContract[] {
    const { buyer, category, winner, ceiling } = this.#directAward(d);
    let day = this.#day(d, 30, 460);
    return [0, 1, 2].map((part) => {
      if (part > 0) day = this.#world.workday(day + d.int(120, 200));
      return {
        buyer,
        category,
        procedure: PROCEDURES.ad,
        price: underCeiling(ceiling, 0.55 + 0.4 * d.next()),
        published: day,
        winner,
        cpv: null,
      };
    });
  }

  /**
   * A parish's ten contracts of one year, all it bought: eight fuel call-offs from one supplier, two small ajustes
   * diretos. A parish of its own (entities.ts, schemeParish), so that no other contract changes the year's shares.
   */
  #captive(d: Rng, block: number): SchemeContract[] {
    const w = this.#world;
    const buyer = schemeParish(w.seed, this.#municipalities.pick(d.next()).home, block);
    const district = w.book.places[buyer.home].district;
    const winner = w.suppliers.draw(d, FUEL.sector, district, FUEL.local);
    const anchorYear = new Date(w.anchor * 86_400_000).getUTCFullYear();
    const year = anchorYear - 1 - d.int(0, 4);
    const start = Date.UTC(year, 0, 1) / 86_400_000;
    const dayOfYear = () => w.workday(start + 2 + d.int(0, 362));
    return Array.from({ length: SCHEME_SHAPE.captive.contracts }, (_, part) => {
      const captive = part < SCHEME_SHAPE.captive.flagged;
      const [lo, hi] = captive ? CAPTIVE_PRICE : OTHER_PRICE;
      return {
        buyer,
        category: captive ? FUEL : w.categoriesOf(buyer).pick(d.next()),
        procedure: captive ? PROCEDURES.fa258 : PROCEDURES.ad,
        price: Math.round((lo + (hi - lo) * d.next()) * 100) / 100,
        published: dayOfYear(),
        winner: captive ? winner : null,
        cpv: null,
      };
    });
  }

  /** A council, what it buys (a category it may award directly), a supplier, and its regime's ceiling for it. */
  #directAward(d: Rng) {
    const w = this.#world;
    const buyer = this.#municipalities.pick(d.next());
    let category = w.categoriesOf(buyer).pick(d.next());
    // A category a council never awards directly (none is, today) is drawn again.
    while (!((category.procedures ?? PROCEDURE_MIX[category.kind]).ad ?? 0))
      category = w.categoriesOf(buyer).pick(d.next());
    const home = w.book.places[buyer.home];
    const winner = w.suppliers.draw(d, category.sector, home.district, category.local);
    const regime = DIRECT_AWARD_CEILINGS[regimeOfMunicipality(home.municipality)];
    const ceiling = category.kind === 'works' ? regime.works : regime.goods_services;
    return { buyer, category, winner, ceiling };
  }

  /** A publication day at least `after` days into the generated window and `before` days before its end. */
  #day(d: Rng, after: number, before: number): number {
    const w = this.#world;
    const first = w.anchor - w.windowDays + after;
    return w.workday(first + d.int(0, w.anchor - before - first));
  }
}

/** A price of `share` of the ceiling, to the cent, under it. */
function underCeiling(ceiling: number, share: number): number {
  return Math.min(ceiling - 1, Math.floor(ceiling * share * 100) / 100);
}

/** Picks among buyers by their weight. */
function weighted(buyers: readonly Buyer[]): { pick(u: number): Buyer } {
  const total = buyers.reduce((s, b) => s + b.weight, 0);
  return {
    pick(u: number): Buyer {
      let left = u * total;
      for (const b of buyers) {
        left -= b.weight;
        if (left < 0) return b;
      }
      return buyers[buyers.length - 1];
    },
  };
}
