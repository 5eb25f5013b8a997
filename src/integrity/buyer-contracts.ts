/**
 * What the checks that compare a contract with its buyer's other contracts read (docs/integrity.md): the one buyer
 * and the one supplier they compare by, the contracts of a buyer (and supplier) page by page, the date a contract
 * was awarded and whether the data held reach a date (a reason writes its figures through said.ts).
 */

import { grouped } from '../lib/euros-text.js';
import { soleSupplierOf } from '../store/procurement/sole-supplier.js';
import type { ContractFilter, DatePosition } from '../store/procurement-queries.js';
import type { ContractRecord, PartyRecord } from '../store/procurement-records.js';
import type { Said } from './assessment.js';
import { type CheckContext, type IntegrityStore, once } from './check.js';

/** At most this many contracts are cited beside the one assessed (the largest first). */
export const MAX_CITES = 20;
/** Page size of the reads below, and how many contracts one check reads at most before it gives up. */
const PAGE = 1_000;
export const MAX_READ = 50_000;
/** Above every contract id (the stores' ids are 32-bit integers; PostgreSQL refuses a larger one as `integer`). */
const ABOVE_EVERY_ID = 2_147_483_647;

/** The one party of a role a check compares by (a tax number), or why there is none. */
export type Sole = { nif: string; name: string } | { missing: Said };

/** The role in Portuguese, with its article: `the buyer` (a entidade adjudicante), `of the buyer` (da …). */
const ROLE_PT = {
  buyer: { the: 'A entidade adjudicante', of: 'da entidade adjudicante' },
  supplier: { the: 'O adjudicatário', of: 'do adjudicatário' },
} as const;

export function soleParty(parties: readonly PartyRecord[], role: 'buyer' | 'supplier'): Sole {
  const pt = ROLE_PT[role];
  if (parties.length === 0) {
    const none = role === 'buyer' ? 'nenhuma entidade adjudicante' : 'nenhum adjudicatário';
    return { missing: { en: `The record names no ${role}.`, pt: `O registo não indica ${none}.` } };
  }
  if (parties.length > 1) {
    const joint = role === 'buyer' ? 'a joint contract' : 'a contract awarded to a group';
    const conjunto =
      role === 'buyer'
        ? `${parties.length} entidades adjudicantes (um contrato conjunto): não se podem distinguir os contratos ` +
          'de uma só'
        : `${parties.length} adjudicatários (um contrato adjudicado a um agrupamento): não se podem distinguir os ` +
          'contratos de um só';
    return {
      missing: {
        en: `The record names ${parties.length} ${role}s (${joint}): one ${role}'s contracts cannot be told.`,
        pt: `O registo indica ${conjunto}.`,
      },
    };
  }
  const [party] = parties;
  if (party.withheld) {
    return {
      missing: {
        en: `The portal withheld the ${role}'s identity (GDPR): its other contracts cannot be told apart.`,
        pt: `O portal ocultou a identidade ${pt.of} (RGPD): não se podem distinguir os seus outros contratos.`,
      },
    };
  }
  if (party.nif === null) {
    return {
      missing: {
        en: `The ${role} has no tax number: its other contracts cannot be told apart.`,
        pt: `${pt.the} não tem NIF: não se podem distinguir os seus outros contratos.`,
      },
    };
  }
  return { nif: party.nif, name: party.name };
}

/** The tax number of the contract's only supplier (a group's contract is no one member's), or null. */
export const soleSupplierNif = (c: Pick<ContractRecord, 'suppliers'>): string | null => soleSupplierOf(c.suppliers);

/** True when the contract's only supplier is this one. */
export const soleSupplierIs = (c: ContractRecord, nif: string): boolean => soleSupplierNif(c) === nif;

/**
 * Every contract matching the filter, page by page (publication date descending), or null past MAX_READ. With
 * `undatedOnly`, only those without a publication date: they come last in that order, after the position
 * (no date, an id above every id) — a filter on dates could not select them.
 */
export async function readContracts(
  store: Pick<IntegrityStore, 'listContracts'>,
  filter: ContractFilter,
  undatedOnly = false,
): Promise<ContractRecord[] | null> {
  const rows: ContractRecord[] = [];
  let after: DatePosition | undefined = undatedOnly ? { date: null, id: ABOVE_EVERY_ID } : undefined;
  for (;;) {
    const page = await store.listContracts(filter, { after, limit: PAGE });
    rows.push(...page);
    if (page.length < PAGE) return rows;
    if (rows.length >= MAX_READ) return null;
    const last = page[page.length - 1];
    after = { date: last.published_on, id: last.id };
  }
}

/**
 * Every contract of a buyer at a source, read once for an answer that assesses many of the buyer's contracts (a
 * buyer's red flags): the pair, year and "data reach" reads below then filter it in memory rather than ask the store
 * once per supplier, year and date. Null past MAX_READ, and then each read goes to the store as without it.
 */
export function preloadBuyerContracts(ctx: CheckContext, source: string, buyer: string): Promise<unknown> {
  return once(ctx, buyerKey(source, buyer), () => readContracts(ctx.store, { buyer, source }));
}

/**
 * Holds a buyer's contracts read by the caller (detection reads many buyers' at once), in the order the store lists
 * them: publication date descending, the undated last, then id descending.
 */
export function holdBuyerContracts(
  ctx: CheckContext,
  source: string,
  buyer: string,
  contracts: readonly ContractRecord[],
): void {
  const date = (c: ContractRecord) => c.published_on ?? '';
  const ordered = [...contracts].sort((a, b) =>
    // The undated ('' here) sort below every date, as they come last.
    date(a) === date(b) ? b.id - a.id : date(a) < date(b) ? 1 : -1,
  );
  ctx.memo?.set(buyerKey(source, buyer), Promise.resolve(ordered));
}

const buyerKey = (source: string, buyer: string): string => `buyer:${source}:${buyer}`;

/** The buyer's contracts preloaded for this answer (publication date descending), or null when there are none. */
export async function preloadedBuyer(ctx: CheckContext, source: string, buyer: string) {
  const kept = ctx.memo?.get(buyerKey(source, buyer)) as Promise<ContractRecord[] | null> | undefined;
  return kept ? await kept : null;
}

/**
 * The contracts of one buyer with one supplier at one source (the repeated-awards and splitting checks read the same
 * pair), read once per answer. The store's `supplier` filter names any supplier of a contract, a group's included.
 */
export function pairContracts(
  ctx: CheckContext,
  source: string,
  buyer: string,
  supplier: string,
): Promise<ContractRecord[] | null> {
  return once(ctx, `pair:${source}:${buyer}:${supplier}`, async () => {
    const bySupplier = await preloadedBySupplier(ctx, source, buyer);
    if (bySupplier) return bySupplier.get(supplier) ?? [];
    return readContracts(ctx.store, { buyer, supplier, source });
  });
}

/**
 * The contracts of one pair awarded from `from` to `to` (award dates, inclusive), in the pair's own order. An answer
 * that holds the buyer's contracts (detection, a buyer's red flags) asks this of every contract of the pair, so the
 * pair is ordered by award date once per answer and each window found by bisection: scanning the whole pair for
 * each of its contracts takes the pair's size squared, and a pair's contracts grow faster than the data
 * (docs/performance.md, "Where the integrity stage grows faster than the data").
 */
export async function pairAwardedWithin(
  ctx: CheckContext,
  pairKey: { source: string; buyer: string; supplier: string },
  pair: readonly ContractRecord[],
  from: string,
  to: string,
): Promise<ContractRecord[]> {
  const { source, buyer, supplier } = pairKey;
  // An answer about one contract (its buyer's contracts not held) asks once: a scan costs less than the ordering.
  if (!(await preloadedBuyer(ctx, source, buyer))) {
    return pair.filter((c) => {
      const date = awardDate(c);
      return date !== null && date >= from && date <= to;
    });
  }
  const dated = await once(ctx, `pair-by-date:${source}:${buyer}:${supplier}`, async () => byAwardDate(pair));
  const first = firstOnOrAfter(dated, from);
  const within: { at: number; contract: ContractRecord }[] = [];
  for (let i = first; i < dated.length && dated[i].date <= to; i++) within.push(dated[i]);
  return within.sort((a, b) => a.at - b.at).map((d) => d.contract);
}

interface Dated {
  date: string;
  /** The contract's place in the pair, to give a window back in the pair's order. */
  at: number;
  contract: ContractRecord;
}

/** The dated contracts ordered by award date (those without one left out: no window holds them). */
function byAwardDate(contracts: readonly ContractRecord[]): Dated[] {
  const dated: Dated[] = [];
  contracts.forEach((contract, at) => {
    const date = awardDate(contract);
    if (date !== null) dated.push({ date, at, contract });
  });
  return dated.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.at - b.at));
}

/** The first index whose date is on or after `date` (the length when none is). */
function firstOnOrAfter(dated: readonly Dated[], date: string): number {
  let [low, high] = [0, dated.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (dated[middle].date < date) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The preloaded contracts of a buyer by supplier tax number (a group's contract under each member), each list in
 * the preloaded order; null when none are preloaded. Grouped once: filtering the buyer's contracts for each of its
 * suppliers took a large buyer's contracts times its suppliers.
 */
function preloadedBySupplier(ctx: CheckContext, source: string, buyer: string) {
  return once(ctx, `by-supplier:${source}:${buyer}`, async () => {
    const all = await preloadedBuyer(ctx, source, buyer);
    if (!all) return null;
    const bySupplier = new Map<string, ContractRecord[]>();
    for (const c of all) {
      for (const nif of new Set(c.suppliers.flatMap((s) => (s.nif === null ? [] : [s.nif])))) {
        const list = bySupplier.get(nif);
        if (list) list.push(c);
        else bySupplier.set(nif, [c]);
      }
    }
    return bySupplier;
  });
}

export const TOO_MANY: Said = {
  en: `More than ${MAX_READ.toLocaleString('en')} contracts to compare: not read.`,
  pt: `Mais de ${grouped(MAX_READ, ' ')} contratos para comparar: não foram lidos.`,
};

/** The date a contract was awarded, as near as the record tells: the award decision, else signing, else publication. */
export function awardDate(c: Pick<ContractRecord, 'awarded_on' | 'signed_on' | 'published_on'>): string | null {
  return c.awarded_on ?? c.signed_on ?? c.published_on;
}

/** Why a check that dates the award cannot assess a record of none of the three dates (awardDate). */
export const NO_AWARD_DATE: Said = {
  en: 'The record gives no award, signing or publication date.',
  pt: 'O registo não indica a data de adjudicação, de celebração nem de publicação.',
};

/**
 * Whether the data held from a source reach `date`: a contract of that source published on or before it (`back`),
 * or on or after it (`forward`), read from the span of its publication dates (corpus.ts, once per data version).
 * A window beyond what is held cannot be summed: the checks say so rather than read the unknown as nothing.
 */
export async function holdsData(ctx: CheckContext, source: string, date: string, direction: 'back' | 'forward') {
  const { first, last } = await ctx.corpus.span(source);
  return direction === 'back' ? first !== null && first <= date : last !== null && last >= date;
}

/** Days from one date (YYYY-MM-DD) to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A date moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Euros rounded to the cent, for `values`. */
export const cents = (value: number): number => Math.round(value * 100) / 100;

/** The ids of the largest contracts (those without a price last), at most `limit`. */
export function largest(contracts: readonly Pick<ContractRecord, 'id' | 'price_eur'>[], limit = MAX_CITES): number[] {
  return [...contracts]
    .sort((a, b) => (b.price_eur ?? -1) - (a.price_eur ?? -1) || b.id - a.id)
    .slice(0, limit)
    .map((c) => c.id);
}
