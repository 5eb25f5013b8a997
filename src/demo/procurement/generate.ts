/**
 * Synthetic procurement data that looks like municipal contracting in Portugal's BASE portal, at any scale.
 * Contract k draws all its randomness from (seed, k), so it is the same whatever the number asked for (100 000
 * contracts are a prefix of 1 000 000). Same (seed, year-month of `today`, N) ⇒ identical output, anchored on
 * the month. Buyers, prices, suppliers, dates, amendments and pending announcements: docs/data.md, "The demo
 * dataset"; the integrity patterns it makes on purpose (integrity-patterns.ts): docs/integrity.md, "On the demo data".
 */
import { ofName, toName } from '../../lib/portuguese-articles.js';
import { DEMO_PROCUREMENT_SOURCE } from '../../lib/provenance.js';
import type { AmendmentInput, AnnouncementInput, ContractInput, EntityInput } from '../../store/procurement-records.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { hashSeed, Rng } from '../random.js';
import { type BuyerKind, CATEGORIES, type Category, FAIRS, PROJECTS, TOPICS } from './catalogue.js';
import { lateClosing, onTimeDays, overrunPrice, takes, withinCeiling } from './contract-patterns.js';
import { type Buyer, buildBuyers, type PartyBook, type Supplier, SupplierBook } from './entities.js';
import { DIRECT_BASE_AT_PRICE, GENERALISTS, ONE_BIDDER_SHARE } from './integrity-patterns.js';
import { streetName } from './names.js';
import { noticeDays, shortNoticeDays } from './notice-days.js';
import {
  CONTRACT_TYPE,
  legalBasis,
  MATERIAL_CRITERIA,
  PROCEDURE_MIX,
  PROCEDURES,
  type Procedure,
  type ProcedureKey,
  valueCap,
} from './procedures.js';
import { SchemePlanner } from './schemes.js';
import { isCompetitive, TendererMarket } from './tenderers.js';

export { DEMO_PROCUREMENT_SOURCE };
export const DEFAULT_CHUNK = 10_000;
/** Procedures announced but not yet awarded, generated whatever the number of contracts. */
export const PENDING_OPEN = 220;
export const PENDING_CLOSED = 80;
/** The days before the first day of the month over which contracts are published. */
export const WINDOW_DAYS = 6 * 365 + 2;
const LINK_BASE = 'https://munidata.example/demo/base';

export interface ProcurementOptions {
  seed: number;
  today: Date;
  /** How many contracts. */
  contracts: number;
  municipalities: readonly MunicipalityRecord[];
  /** The CPV vocabulary: codes absent from it are not used. An empty list means "no vocabulary": all are used. */
  cpvs: readonly { code: string }[];
  chunkSize?: number;
}

/** One batch for `writeProcurement`: the entities first seen in it, then contracts, announcements, amendments. */
export interface ProcurementChunk {
  entities: EntityInput[];
  contracts: ContractInput[];
  announcements: AnnouncementInput[];
  amendments: AmendmentInput[];
}

export function* generateProcurement(options: ProcurementOptions): Generator<ProcurementChunk> {
  const world = new World(options);
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK);
  const seen = new Set<string>();
  let chunk = emptyChunk();
  const addEntity = (e: EntityInput) => {
    if (seen.has(e.nif)) return;
    seen.add(e.nif);
    chunk.entities.push(e);
  };
  for (let i = 0; i < PENDING_OPEN + PENDING_CLOSED; i++) {
    const { announcement, buyer } = world.pendingAnnouncement(i);
    addEntity(buyer.entity);
    chunk.announcements.push(announcement);
  }
  for (let k = 0; k < options.contracts; k++) {
    const c = world.contract(k);
    for (const e of c.entities) addEntity(e);
    chunk.contracts.push(c.contract);
    if (c.announcement) chunk.announcements.push(c.announcement);
    for (const a of c.amendments) chunk.amendments.push(a);
    if (chunk.contracts.length >= chunkSize) {
      yield chunk;
      chunk = emptyChunk();
    }
  }
  if (chunk.contracts.length > 0 || chunk.announcements.length > 0 || chunk.entities.length > 0) yield chunk;
}

function emptyChunk(): ProcurementChunk {
  return { entities: [], contracts: [], announcements: [], amendments: [] };
}

// ── Dates ────────────────────────────────────────────────────────────────────────────────────────────────

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 → `YYYY-MM-DD`, memoised (a few thousand distinct days). */
const dateCache = new Map<number, string>();
export function isoDay(days: number): string {
  let s = dateCache.get(days);
  if (s === undefined) {
    s = new Date(days * DAY_MS).toISOString().slice(0, 10);
    dateCache.set(days, s);
  }
  return s;
}
const monthOf = (days: number) => new Date(days * DAY_MS).getUTCMonth();
const yearOf = (days: number) => new Date(days * DAY_MS).getUTCFullYear();
/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
const weekday = (days: number) => (((days + 4) % 7) + 7) % 7;
/** Monday–Friday: a Saturday moves back to Friday, a Sunday back to Friday. */
const workday = (days: number) => {
  const w = weekday(days);
  return w === 6 ? days - 1 : w === 0 ? days - 2 : days;
};

/** Relative number of contracts published per calendar month (January … December). */
const MONTH_FACTOR = [0.75, 0.95, 1.05, 0.95, 1.05, 1, 1.05, 0.7, 1, 1.05, 1.1, 1.35];
const MAX_DATE_WEIGHT = 1.35 * 1.35;

// ── The world ────────────────────────────────────────────────────────────────────────────────────────────

interface Generated {
  contract: ContractInput;
  announcement: AnnouncementInput | null;
  amendments: AmendmentInput[];
  entities: EntityInput[];
}

class Cumulative<T> {
  readonly items: T[];
  readonly #cum: number[];

  constructor(entries: [T, number][]) {
    this.items = [];
    this.#cum = [];
    let total = 0;
    for (const [item, weight] of entries) {
      if (!(weight > 0)) continue;
      total += weight;
      this.items.push(item);
      this.#cum.push(total);
    }
    for (let i = 0; i < this.#cum.length; i++) this.#cum[i] /= total;
  }

  pick(u: number): T {
    let lo = 0;
    let hi = this.#cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

const KIND_PRICE: Record<BuyerKind, number> = {
  municipality: 1,
  parish: 0.35,
  company: 1.2,
  smas: 1.1,
  intermunicipal: 1.6,
};
const PROCEDURE_PREFIX: Record<ProcedureKey, string> = {
  ad: 'AD',
  cp: 'CP',
  cps: 'CPS',
  cpub: 'CPUB',
  cpub_urgent: 'CPU',
  limited: 'CLPQ',
  negotiation: 'PN',
  fa258: 'AQ',
  fa259: 'AQ',
  excluded: 'CE',
};

class World {
  readonly seed: number;
  /** Day number of the first day of `today`'s month: everything published happened before it. */
  readonly anchor: number;
  readonly importedAt: string;
  readonly book: PartyBook;
  readonly suppliers: SupplierBook;
  readonly buyerPick: Cumulative<Buyer>;
  readonly firstBuyers: Buyer[];
  readonly categoryPick = new Map<BuyerKind, Cumulative<Category>>();
  readonly procedurePick = new Map<string, Cumulative<Procedure>>();
  readonly cpvsOf = new Map<string, string[]>();
  /** The inter-municipal body of each municipality (by index). */
  readonly intermunicipalOf: (Buyer | undefined)[] = [];
  readonly tenderers: TendererMarket;
  readonly schemes: SchemePlanner;

  constructor(options: ProcurementOptions) {
    this.seed = options.seed;
    const t = options.today;
    this.anchor = Math.floor(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1) / DAY_MS);
    this.importedAt = `${isoDay(this.anchor)}T00:00:00Z`;
    this.book = buildBuyers(options.municipalities, options.seed);
    this.suppliers = new SupplierBook(options.seed, this.book);
    this.buyerPick = new Cumulative(this.book.buyers.map((b) => [b, b.weight]));
    this.firstBuyers = new Rng(hashSeed(options.seed, 'first-buyers')).shuffle(this.book.municipalityBuyers);
    for (const b of this.book.buyers)
      if (b.kind === 'intermunicipal') for (const i of b.members) this.intermunicipalOf[i] = b;
    const vocabulary = new Set(options.cpvs.map((c) => c.code));
    for (const kind of ['municipality', 'parish', 'company', 'smas', 'intermunicipal'] as BuyerKind[]) {
      this.categoryPick.set(kind, new Cumulative(CATEGORIES.map((c) => [c, c.weight * (c.buyers?.[kind] ?? 1)])));
    }
    for (const c of CATEGORIES) {
      const mix = c.procedures ?? PROCEDURE_MIX[c.kind];
      this.procedurePick.set(
        c.key,
        new Cumulative(Object.entries(mix).map(([key, w]) => [PROCEDURES[key as ProcedureKey], w])),
      );
      const known = vocabulary.size === 0 ? c.cpvs : c.cpvs.filter((code) => vocabulary.has(code));
      if (known.length === 0)
        throw new Error(`demo procurement: no CPV code of category ${c.key} is in the vocabulary`);
      this.cpvsOf.set(c.key, known);
    }
    this.tenderers = new TendererMarket(this.seed, this.suppliers);
    this.schemes = new SchemePlanner({
      seed: this.seed,
      anchor: this.anchor,
      windowDays: WINDOW_DAYS,
      book: this.book,
      suppliers: this.suppliers,
      firstContracts: () => this.firstBuyers.length,
      categoriesOf: (buyer) => this.categoryPick.get(buyer.kind) as Cumulative<Category>,
      cpvsOf: (category) => this.cpvsOf.get(category.key) as string[],
      workday,
    });
  }

  contract(k: number): Generated {
    const n = k + 1;
    const r = new Rng(hashSeed(this.seed, 'contract', k));
    const entities: EntityInput[] = [];

    // Who buys what, how: a scheme's contract (schemes.ts) has these, its price and date fixed.
    const scheme = this.schemes.at(k);
    const buyer = scheme?.buyer ?? (k < this.firstBuyers.length ? this.firstBuyers[k] : this.buyerPick.pick(r.next()));
    const category = scheme?.category ?? (this.categoryPick.get(buyer.kind) as Cumulative<Category>).pick(r.next());
    const procedure =
      scheme?.procedure ?? (this.procedurePick.get(category.key) as Cumulative<Procedure>).pick(r.next());
    const home = this.book.places[buyer.home];
    entities.push(buyer.entity);

    // Price.
    const size = Math.min(2.2, Math.max(0.5, (home.municipality.population_2021 / 50_000) ** 0.25));
    const { price, material } = scheme
      ? { price: scheme.price, material: null }
      : this.#price(r, category, procedure, buyer, size);

    // Parties.
    const competitive = isCompetitive(procedure.method);
    let winners: Supplier[] = [
      scheme?.winner ?? this.suppliers.draw(r, category.sector, home.district, category.local),
    ];
    if (scheme === null && r.next() < 0.035) {
      const other = this.suppliers.draw(r, category.sector, home.district, category.local);
      if (other.party.nif !== winners[0].party.nif) winners.push(other);
    }
    let competitors: Supplier[] = [];
    let bidders = 0;
    if (competitive) {
      bidders = this.#bidders(r, procedure.key, category);
      const taken = new Set(winners.map((w) => w.party.nif));
      const others: Supplier[] = [];
      for (let tries = 0; others.length < bidders - winners.length && tries < bidders * 3; tries++) {
        const s = this.suppliers.draw(r, category.sector, home.district, category.local);
        if (taken.has(s.party.nif)) continue;
        taken.add(s.party.nif);
        others.push(s);
      }
      const at = r.int(0, others.length);
      competitors.push(...others.slice(0, at), ...winners, ...others.slice(at));
      // The bidders are the sector's regular tenderers (tenderers.ts); how many the base model drew.
      ({ winners, competitors } = this.tenderers.assign(k, category.sector, winners, competitors));
      bidders = competitors.length;
      const cover = category.kind === 'works' && winners.length === 1 && bidders > 1 && takes(this.seed, 'coverBid', k);
      if (cover) {
        const loser = competitors.findIndex((c) => c !== winners[0]);
        competitors[loser] = this.tenderers.coverBidder();
      }
    }
    const directGoods = procedure.key === 'ad' && category.kind === 'goods' && scheme === null && winners.length === 1;
    const trader = directGoods ? takes(this.seed, 'generalist', k) : null;
    if (trader) winners = [this.tenderers.generalist(trader.int(0, GENERALISTS - 1))];
    for (const s of winners) entities.push(s.entity);
    for (const s of competitors) entities.push(s.entity);

    // Base price.
    let base: number | null;
    if (procedure.method === 'open' || procedure.method === 'selective') {
      const discount = bidders > 1 ? 0.01 + 0.3 * r.next() ** 1.6 : 0.015 * r.next();
      base = roundUp(price / (1 - discount), r);
    } else if (procedure.method === 'limited') {
      base = roundUp(price / (1 - 0.15 * r.next() ** 2), r);
    } else {
      const u = r.next();
      base = u < DIRECT_BASE_AT_PRICE ? price : u < 0.92 ? roundUp(price * (1 + 0.08 * r.next()), r) : null;
    }
    if (competitive) {
      // A competitive award at its base price is the noSaving pattern's; else it saves at least a cent.
      if (takes(this.seed, 'noSaving', k)) base = price;
      else if (base !== null && base <= price) base = Math.round(price * 100 + 1) / 100;
    }

    // Dates.
    const published = scheme?.published ?? this.#publicationDay(r);
    const signed = workday(published - (r.next() < 0.25 ? 0 : r.next() < 0.67 ? r.int(1, 5) : r.int(6, 30)));
    const awarded = workday(signed - (procedure.method === 'direct' ? r.int(1, 20) : r.int(5, 45)));
    const days = this.#executionDays(r, category);
    // Whether the contract has closed follows the base model's draw; when, closes on time but by the late pattern.
    const drawn = r.int(-10, 60);
    const drawnEnds = signed + Math.max(1, days + drawn);
    const ends = signed + Math.max(1, days + onTimeDays(drawn));
    let closed = drawnEnds < this.anchor - 1 && r.next() < 0.75 ? ends : null;
    if (closed !== null) {
      const p = takes(this.seed, 'late', k);
      closed = (p && lateClosing(p, signed, days, this.anchor - 1)) ?? closed;
    }

    // What.
    const mainCpvs = this.cpvsOf.get(category.key) as string[];
    const cpvs = [scheme?.cpv ?? r.pick(mainCpvs)];
    if (r.next() < 0.12) {
      for (const extra of [r.pick(mainCpvs), r.pick(mainCpvs)].slice(0, r.int(1, 2)))
        if (!cpvs.includes(extra)) cpvs.push(extra);
    }
    const year = yearOf(signed);
    const text = this.#object(r, category, buyer, year);
    const object =
      r.next() < 0.25
        ? `${PROCEDURE_PREFIX[procedure.key]} ${r.int(1, 60 + Math.round(size * 120))}/` +
          `${String(year).slice(2)} - ${text}`
        : text;
    const d = r.next();
    const description =
      d < 0.5 ? object : d < 0.8 ? null : `${text}, conforme caderno de encargos e demais peças do procedimento`;
    const contractTypes = [CONTRACT_TYPE[category.kind]];
    if (category.kind === 'goods' && r.next() < 0.04) contractTypes.push(CONTRACT_TYPE.services);

    // Where.
    const { ids, text: placesText } = this.#places(r, buyer);

    // Amendments.
    const amendments: AmendmentInput[] = [];
    let current = price;
    const amendmentShare = category.kind === 'works' ? 0.13 : category.kind === 'services' ? 0.045 : 0.015;
    if (r.next() < amendmentShare && signed < this.anchor - 30 && ends > signed + 20) {
      const count = r.next() < 0.7 ? 1 : r.next() < 0.75 ? 2 : 3;
      // Amendments fall during the execution, before the contract closes, and never after the anchor.
      const last = Math.min(this.anchor - 1, ends - 1);
      const dates = Array.from({ length: count }, () => r.int(signed + 10, Math.max(signed + 10, last))).sort(
        (a, b) => a - b,
      );
      const changes = dates.map(() => ({ ...amendmentChange(r, category.kind), linked: r.next() < 0.6 }));
      const factors = withinCeiling(changes.map((c) => c.factor));
      dates.forEach((day, j) => {
        const next = Math.round(current * factors[j] * 100) / 100;
        amendments.push({
          source: DEMO_PROCUREMENT_SOURCE,
          source_id: `demo-m-${n}-${j + 1}`,
          imported_at: this.importedAt,
          contract_source_id: `demo-c-${n}`,
          date: isoDay(workday(day)),
          previous_price_eur: current,
          new_price_eur: next,
          reason: changes[j].reason,
          link: changes[j].linked ? `${LINK_BASE}/modificacoes/${n}-${j + 1}` : null,
        });
        current = next;
      });
    }
    let effective =
      closed === null ? null : r.next() < 0.6 ? current : Math.round(current * (0.88 + 0.14 * r.next()) * 100) / 100;
    if (closed !== null) {
      const p = takes(this.seed, 'overrun', k);
      if (p) effective = overrunPrice(p, price);
    }

    // The notice of open and selective procedures.
    let announcement: AnnouncementInput | null = null;
    let noticeNumber: string | null = null;
    if (procedure.announced) {
      let window = noticeDays(r.next(), procedure, category.kind);
      const short = procedure.key === 'cpub' && takes(this.seed, 'shortPeriod', k);
      if (short) window = shortNoticeDays(short.next(), category.kind);
      const deadline = awarded - r.int(15, 60);
      const noticeDay = workday(deadline - window);
      noticeNumber = `demo-a-${n}`;
      announcement = {
        source: DEMO_PROCUREMENT_SOURCE,
        source_id: noticeNumber,
        imported_at: this.importedAt,
        published_on: isoDay(noticeDay),
        deadline_on: isoDay(deadline),
        buyer: buyer.party,
        object: text,
        cpvs,
        base_price_eur: r.next() < 0.95 ? base : null,
        contract_types: contractTypes,
        procedure_type: procedure.label,
        municipality_ids: ids,
        district: home.municipality.district,
        link: `${LINK_BASE}/anuncios/${n}`,
      };
    }

    const framework =
      procedure.key === 'fa258' || procedure.key === 'fa259' ? this.#framework(r, category, buyer, year) : null;
    const contract: ContractInput = {
      source: DEMO_PROCUREMENT_SOURCE,
      source_id: `demo-c-${n}`,
      imported_at: this.importedAt,
      procedure_id: `demo-p-${n}`,
      announcement_number: noticeNumber,
      object,
      description,
      procedure_type: procedure.label,
      ocds_method: procedure.method,
      contract_types: contractTypes,
      cpvs,
      buyers: [buyer.party],
      suppliers: winners.map((w) => w.party),
      competitors: competitors.map((c) => c.party),
      base_price_eur: base,
      price_eur: price,
      effective_price_eur: effective,
      published_on: isoDay(published),
      awarded_on: isoDay(awarded),
      signed_on: isoDay(signed),
      closed_on: closed === null ? null : isoDay(closed),
      execution_days: days,
      execution_places_text: placesText,
      municipality_ids: ids,
      framework_agreement: framework,
      legal_basis: legalBasis(procedure.key, category.kind, price, material),
      green: r.next() < (category.green ?? 0.02),
      centralized: framework !== null && r.next() < 0.35,
      link: `${LINK_BASE}/contratos/${n}`,
    };
    return { contract, announcement, amendments, entities };
  }

  /** The base model's price: log-normal around the category's median, a Pareto tail, under the value limits. */
  #price(r: Rng, category: Category, procedure: Procedure, buyer: Buyer, size: number) {
    let raw =
      category.median * procedure.factor * KIND_PRICE[buyer.kind] * size * Math.exp(procedure.sigma * r.normal());
    if (r.next() < procedure.tail) raw *= Math.min(400, (1 - r.next()) ** (-1 / 1.15));
    let material: string | null = null;
    let cap = valueCap(procedure.key, category.kind);
    if (procedure.key === 'ad' && r.next() < (category.sector === 'arts' ? 0.2 : 0.05)) {
      material =
        category.sector === 'arts'
          ? MATERIAL_CRITERIA.exclusive
          : r.next() < 0.7
            ? MATERIAL_CRITERIA.urgency
            : MATERIAL_CRITERIA.failed;
      if (category.sector !== 'arts') raw *= 2.5;
      cap = null;
    } else if (cap !== null && raw > cap) {
      // Real data bunches just below the limits.
      raw = cap * (0.8 + 0.2 * r.next() ** 0.3);
    }
    let price = roundPrice(Math.max(raw, 40), r);
    if (cap !== null && price >= cap) price = cap - r.int(1, 500);
    return { price, material };
  }

  /** Announcement i of the procedures not yet awarded. */
  pendingAnnouncement(i: number): { announcement: AnnouncementInput; buyer: Buyer } {
    const r = new Rng(hashSeed(this.seed, 'pending', i));
    const buyer = this.buyerPick.pick(r.next());
    let category = (this.categoryPick.get(buyer.kind) as Cumulative<Category>).pick(r.next());
    if (category.sector === 'arts') category = CATEGORIES[0];
    const procedure = r.next() < 0.92 ? PROCEDURES.cpub : r.next() < 0.5 ? PROCEDURES.cpub_urgent : PROCEDURES.limited;
    const home = this.book.places[buyer.home];
    const size = Math.min(2.2, Math.max(0.5, (home.municipality.population_2021 / 50_000) ** 0.25));
    const raw =
      category.median * procedure.factor * KIND_PRICE[buyer.kind] * size * Math.exp(procedure.sigma * r.normal());
    const base = roundPrice(raw, r);
    const window = noticeDays(r.next(), procedure, category.kind);
    let deadline: number;
    let published: number;
    if (i < PENDING_OPEN) {
      // Spread over the next ~100 days, more of them soon.
      deadline = this.anchor + 1 + Math.floor(99 * r.next() ** 0.9);
      published = Math.min(workday(deadline - window), workday(this.anchor - 1 - r.int(0, 10)));
    } else {
      deadline = this.anchor - 1 - r.int(0, 45);
      published = workday(deadline - window);
    }
    const mainCpvs = this.cpvsOf.get(category.key) as string[];
    const { ids } = this.#places(r, buyer);
    const announcement: AnnouncementInput = {
      source: DEMO_PROCUREMENT_SOURCE,
      source_id: `demo-a-pending-${i + 1}`,
      imported_at: this.importedAt,
      published_on: isoDay(published),
      deadline_on: isoDay(deadline),
      buyer: buyer.party,
      object: this.#object(r, category, buyer, yearOf(deadline)),
      cpvs: [r.pick(mainCpvs)],
      base_price_eur: r.next() < 0.95 ? base : null,
      contract_types: [CONTRACT_TYPE[category.kind]],
      procedure_type: procedure.label,
      municipality_ids: ids,
      district: home.municipality.district,
      link: `${LINK_BASE}/anuncios/pendentes/${i + 1}`,
    };
    return { announcement, buyer };
  }

  /**
   * How many bid: a prior consultation one to three; a call-off one to four, evenly; an open or restricted procedure
   * one with ONE_BIDDER_SHARE, else more, geometrically (at most 15).
   */
  #bidders(r: Rng, key: ProcedureKey, category: Category): number {
    if (key === 'cp' || key === 'cps') return r.next() < 0.35 ? 1 : r.next() < 0.55 ? 2 : 3;
    const u = r.next();
    const callOff = ONE_BIDDER_SHARE.callOff;
    if (key === 'fa259') return u < callOff ? 1 : 2 + Math.floor(((u - callOff) / (1 - callOff)) * 3);
    const one = category.kind === 'works' ? ONE_BIDDER_SHARE.works : ONE_BIDDER_SHARE.other;
    // 1 + ⌊E · scale⌋ for an exponential E is 1 exactly when E < 1/scale, which happens with probability `one`.
    const scale = -1 / Math.log(1 - one);
    return Math.min(15, 1 + Math.floor(-Math.log(1 - u) * scale));
  }

  /** A publication day in the window, seasonal and growing over time, on a weekday. */
  #publicationDay(r: Rng): number {
    let day = this.anchor - 1;
    for (let attempt = 0; attempt < 30; attempt++) {
      const back = Math.floor(r.next() * WINDOW_DAYS);
      day = this.anchor - 1 - back;
      const weight = MONTH_FACTOR[monthOf(day)] * (1 + 0.35 * (1 - back / WINDOW_DAYS));
      if (r.next() * MAX_DATE_WEIGHT < weight) break;
    }
    return workday(day);
  }

  #executionDays(r: Rng, category: Category): number {
    const typical = r.pick(category.days);
    if (r.next() < 0.7) return typical;
    return Math.max(1, Math.round(typical * (0.6 + 0.8 * r.next())));
  }

  #places(r: Rng, buyer: Buyer): { ids: number[]; text: string | null } {
    const u = r.next();
    const label = (i: number) => {
      const m = this.book.places[i].municipality;
      return `Portugal, ${m.district}, ${m.name}`;
    };
    let chosen: number[];
    if (buyer.kind === 'intermunicipal') {
      if (u < 0.2) return { ids: [], text: 'Portugal' };
      chosen =
        u < 0.6 ? [...buyer.members] : r.shuffle(buyer.members).slice(0, r.int(2, Math.min(4, buyer.members.length)));
    } else if (u < 0.08) {
      return {
        ids: [],
        text: r.next() < 0.7 ? 'Portugal' : `Portugal, ${this.book.places[buyer.home].municipality.district}`,
      };
    } else if (u < 0.13 && this.book.places[buyer.home].neighbours.length > 0) {
      const neighbours = r.shuffle(this.book.places[buyer.home].neighbours).slice(0, r.int(1, 3));
      chosen = [buyer.home, ...neighbours];
    } else {
      chosen = [buyer.home];
    }
    const sorted = [...chosen].sort((a, b) => a - b);
    const ids = sorted.map((i) => this.book.places[i].municipality.id);
    return { ids, text: sorted.map(label).join('; ') };
  }

  #object(r: Rng, category: Category, buyer: Buyer, year: number): string {
    const home = this.book.places[buyer.home];
    const m =
      buyer.kind === 'intermunicipal'
        ? this.book.places[r.pick(buyer.members)].municipality.name
        : home.municipality.name;
    const places = buyer.kind === 'intermunicipal' ? this.book.places[r.pick(buyer.members)].places : home.places;
    const place =
      buyer.kind === 'parish' ? (/freguesia de (.+)$/.exec(buyer.area)?.[1] ?? r.pick(places)) : r.pick(places);
    const fill = (template: string): string =>
      template.replace(/\{(\w+)\}/g, (_, key: string) => {
        switch (key) {
          case 'm':
            return m;
          case 'area':
            return buyer.area;
          // The buyer after `de` or `a`, with the article its name takes: "da União das Freguesias de…".
          case 'of_buyer':
            return ofName(buyer.party.name);
          case 'to_buyer':
            return toName(buyer.party.name);
          case 'place':
            return place;
          case 'place2':
            return places.find((p) => p !== place) ?? `${place} Norte`;
          case 'street':
            return streetName(r);
          case 'school':
            return r.next() < 0.6 ? `Escola Básica de ${r.pick(places)}` : `Escola Básica e Secundária de ${m}`;
          case 'proj':
            return fill(r.pick(PROJECTS));
          case 'year':
            return String(year);
          case 'year3':
            return String(year + 2);
          case 'yy':
            return String(year % 100).padStart(2, '0');
          case 'ys':
            return `${year}/${year + 1}`;
          case 'fair':
            return `${r.pick(FAIRS)} de ${m}`;
          case 'topic':
            return r.pick(TOPICS);
          case 'n':
            return String(r.int(2, 600));
          case 'n2':
            return String(r.int(1, 9));
          default:
            return key;
        }
      });
    return fill(r.pick(category.objects));
  }

  #framework(r: Rng, category: Category, buyer: Buyer, year: number): string {
    const names = category.frameworks ?? [
      `Acordo-quadro de ${category.key === 'roads' ? 'pavimentações' : 'fornecimentos e serviços'}`,
    ];
    const name = r.pick(names);
    const cim = this.intermunicipalOf[buyer.home];
    const owner =
      name.endsWith('da Comunidade Intermunicipal') && cim
        ? name.replace(/da Comunidade Intermunicipal$/, `- ${cim.party.name}`)
        : name;
    return `AQ ${r.int(1, 30)}/${year - r.int(0, 3)} - ${owner}`;
  }
}

/** Prices as published: many round figures (services, works), the rest to the cent. */
function roundPrice(x: number, r: Rng): number {
  if (r.next() < 0.35) {
    const step = x < 1_000 ? 10 : x < 20_000 ? 50 : x < 200_000 ? 100 : 1_000;
    return Math.max(step, Math.round(x / step) * step);
  }
  return Math.round(x * 100) / 100;
}

/** A base price ≥ `x`: rounded up to a round figure, or to the cent. */
function roundUp(x: number, r: Rng): number {
  if (r.next() < 0.5) {
    const step = x < 20_000 ? 10 : x < 200_000 ? 100 : 1_000;
    return Math.ceil(x / step) * step;
  }
  return Math.ceil(x * 100) / 100;
}

const REASONS = {
  complementary: 'Trabalhos complementares (artigo 370.º do CCP)',
  errors: 'Erros e omissões do caderno de encargos (artigo 378.º do CCP)',
  suppression: 'Supressão de trabalhos (artigo 379.º do CCP)',
  revision: 'Revisão de preços (Decreto-Lei n.º 36/2022, de 20 de maio)',
  circumstances: 'Alteração anormal e imprevisível das circunstâncias (artigo 312.º, alínea a) do CCP)',
  publicInterest: 'Modificação objetiva do contrato por razões de interesse público (artigo 312.º, alínea b) do CCP)',
  extension: 'Prorrogação do prazo de execução com acréscimo de preço',
  extensionFree: 'Prorrogação do prazo de execução sem acréscimo de preço',
  reduction: 'Redução do âmbito do contrato por acordo entre as partes',
};

function amendmentChange(r: Rng, kind: Category['kind']): { factor: number; reason: string } {
  const u = r.next();
  if (kind === 'works') {
    if (u < 0.45) return { factor: 1 + 0.02 + 0.2 * r.next() ** 1.5, reason: REASONS.complementary };
    if (u < 0.6) return { factor: 1 + 0.01 + 0.08 * r.next(), reason: REASONS.errors };
    if (u < 0.75) return { factor: 1 - 0.01 - 0.1 * r.next(), reason: REASONS.suppression };
    if (u < 0.92) return { factor: 1 + 0.01 + 0.07 * r.next(), reason: REASONS.revision };
    return { factor: 1 + 0.05 * r.next(), reason: REASONS.circumstances };
  }
  if (u < 0.45) return { factor: 1 + 0.05 + 0.35 * r.next(), reason: REASONS.extension };
  if (u < 0.6) return { factor: 1, reason: REASONS.extensionFree };
  if (u < 0.8) return { factor: 1 - 0.05 - 0.2 * r.next(), reason: REASONS.reduction };
  if (u < 0.92) return { factor: 1 + 0.02 + 0.1 * r.next(), reason: REASONS.publicInterest };
  return { factor: 1 + 0.01 + 0.05 * r.next(), reason: REASONS.circumstances };
}
