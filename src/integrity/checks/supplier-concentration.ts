/**
 * One supplier takes most of what a buyer spent in a year: the supplier's share of the buyer's contract value in
 * the contract's year, over a threshold, once the buyer has enough contracts that year for a share to mean anything.
 */

import { ofName, subjectName } from '../../lib/portuguese-articles.js';
import type { ContractDetailRecord, ContractRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import {
  cents,
  largest,
  MAX_CITES,
  MAX_READ,
  preloadedBuyer,
  soleParty,
  soleSupplierNif,
  TOO_MANY,
} from '../buyer-contracts.js';
import { type CheckContext, type IntegrityCheck, once } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { counted, eurosSaid, percentSaid } from '../said.js';

export const SUPPLIER_CONCENTRATION: IntegrityType = {
  key: 'supplier_concentration',
  code: 'PT-CONCENTRATION',
  version: 1,
  label_pt: 'Concentração num fornecedor',
  label_en: 'Supplier concentration',
  measures_en:
    "The supplier's share of the buyer's contract value in the contract's year (its publication year; its signing " +
    "year when it has no publication date): the prices of the buyer's contracts with that supplier alone over the " +
    "prices of all the buyer's contracts that year, of the same source.",
  measures_pt:
    'A parte do fornecedor no valor dos contratos da entidade adjudicante no ano do contrato: os preços ' +
    'dos contratos com esse fornecedor sozinho sobre os preços de todos os contratos da entidade nesse ' +
    'ano, da mesma fonte.',
  why_it_matters_pt:
    'Quando um só fornecedor recebe a maior parte do valor contratado por uma entidade num ano, a ' +
    'concorrência pode estar a funcionar mal ou a entidade depender de um único parceiro.',
  why_it_matters_en:
    "When one supplier receives most of a buyer's contract value in a year, competition may not be " +
    'working, or the buyer may depend on a single partner.',
  next_step_pt:
    'Listar os contratos da entidade com esse fornecedor no ano e os procedimentos usados, e comparar com ' +
    'anos anteriores.',
  reads_beyond_record: true,
  fields: ['buyers', 'suppliers', 'price_eur', 'published_on', 'signed_on'],
  thresholds: [
    {
      key: 'max_supplier_share',
      value: 0.5,
      unit: 'ratio',
      source:
        "munidata's default (more than half of the buyer's contract value); the measure is DIGIWHIST's winner " +
        'share (WinnerCAShareIndicatorPlugin: the winner’s total with the buyer in the year over the buyer’s total), ' +
        'which scores it without a threshold',
    },
    {
      key: 'min_buyer_contracts',
      value: 10,
      unit: 'count',
      source: "munidata's default: the buyer's priced contracts that year below which a share says little",
    },
  ],
  legal_basis: null,
  caveat_en:
    'A large share can have plain causes — a utility, a concession, a small local market, one large works ' +
    'contract. The share is of the contracts the store holds for that year from the same source (of a year held ' +
    'only in part, as the real copy’s January–February 2024, of that part). Contracts without a price are left out ' +
    'of both sums, and counted; a contract awarded to a group counts in the buyer’s total but in no member’s share.',
  caveat_pt:
    'Uma parte elevada pode ter causas simples — um serviço público essencial, uma concessão, um mercado local ' +
    'pequeno, uma grande empreitada. A parte é a dos contratos desse ano que o serviço tem da mesma fonte (de um ano ' +
    'só em parte, como janeiro–fevereiro de 2024 na cópia real, dessa parte). Os contratos sem preço ficam fora das ' +
    'duas somas, e são contados; um contrato adjudicado a um agrupamento conta no total da entidade, mas na parte de ' +
    'nenhum dos membros.',
};

/** The year whose shares a contract is judged in, and counted in: its publication's, else its signing's. */
export function shareYear(c: Pick<ContractRecord, 'published_on' | 'signed_on'>): number | null {
  const date = c.published_on ?? c.signed_on;
  return date === null ? null : Number(date.slice(0, 4));
}

export async function checkSupplierConcentration(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const year = shareYear(c);
  const values = {
    year,
    supplier_total_eur: null,
    buyer_total_eur: null,
    supplier_share: null,
  };
  if (year === null) {
    const reason = {
      en: 'The record gives no publication or signing date.',
      pt: 'O registo não indica a data de publicação nem a de celebração.',
    };
    return finding('not_assessable', reason, values);
  }
  const buyer = soleParty(c.buyers, 'buyer');
  if ('missing' in buyer) return finding('not_assessable', buyer.missing, values);
  const supplier = soleParty(c.suppliers, 'supplier');
  if ('missing' in supplier) return finding('not_assessable', supplier.missing, values);

  const ofYear = await buyerYear(ctx, c.source, buyer.nif, year);
  if (ofYear === null) return finding('not_assessable', TOO_MANY, values);
  return judge(c, year, ofYear.sums, buyer, supplier);
}

/**
 * The sums of a buyer's year, added once for every contract of the year that a buyer's answer judges (adding them
 * per contract took a large buyer's contracts times its year's): the priced contracts, their total, and per supplier
 * its contracts and their total, each added in the order of the contract list, so the figures are the same.
 */
interface YearSums {
  contracts: number;
  priced: number;
  total: number;
  /** Per supplier, also the ids of its largest contracts (one more than are cited: the one judged is left out). */
  bySupplier: Map<string, { contracts: YearContract[]; total: number; ranked: number[] }>;
}

function yearSums(ofYear: readonly YearContract[] | null): YearSums | null {
  if (ofYear === null) return null;
  const sums: YearSums = { contracts: ofYear.length, priced: 0, total: 0, bySupplier: new Map() };
  for (const x of ofYear) {
    if (x.price_eur === null) continue;
    sums.priced += 1;
    sums.total += x.price_eur;
    if (x.supplier === null) continue;
    const theirs = sums.bySupplier.get(x.supplier) ?? { contracts: [], total: 0, ranked: [] };
    theirs.contracts.push(x);
    theirs.total += x.price_eur;
    sums.bySupplier.set(x.supplier, theirs);
  }
  for (const theirs of sums.bySupplier.values()) theirs.ranked = largest(theirs.contracts, MAX_CITES + 1);
  return sums;
}

/** What the share sums of a contract of the buyer's year: its price and its one supplier (null: none or several). */
export interface YearContract {
  id: number;
  price_eur: number | null;
  supplier: string | null;
}

/**
 * The buyer's contracts of each year at the source: those published in it, and those undated but signed in it, in
 * the order of the contract list (the sums add them in that order), by year (the text before a date's first `-`).
 * From the buyer's contracts when the answer holds them, in one pass over them for all their years (a filter of all
 * of them for each year asked took a large buyer's contracts times its years); otherwise their prices alone
 * (Store.buyerPrices), not whole records: a large buyer has thousands a year.
 */
function preloadedYears(all: readonly ContractRecord[]): Map<string, YearContract[]> {
  const years = new Map<string, YearContract[]>();
  for (const x of all) {
    const date = x.published_on ?? x.signed_on;
    const dash = date?.indexOf('-') ?? -1;
    if (date === null || dash < 0) continue;
    const year = date.slice(0, dash);
    const contract = { id: x.id, price_eur: x.price_eur, supplier: soleSupplierNif(x) };
    const list = years.get(year);
    if (list) list.push(contract);
    else years.set(year, [contract]);
  }
  return years;
}

/** A buyer's year: its contracts and their sums. */
export interface BuyerYear {
  contracts: YearContract[];
  sums: YearSums;
}

/**
 * The buyer's contracts of a year at a source and their sums, once per answer (the context's memo): from the buyer's
 * contracts when the answer holds them, else as the store holds them, kept beyond one answer for the data version
 * (IntegrityCorpus.buyerYear), so that the next answer about the same year reads nothing. Detection's scope reads the
 * years new contracts join through it too (integrity-reach.ts), and hands its memo to the checks that judge them.
 * Null past MAX_READ.
 */
export function buyerYear(ctx: CheckContext, source: string, buyer: string, year: number): Promise<BuyerYear | null> {
  const withSums = (contracts: YearContract[] | null) =>
    contracts === null ? null : { contracts, sums: yearSums(contracts) as YearSums };
  return once(ctx, `buyer-year:${source}:${buyer}:${year}`, async () => {
    const preloaded = await once(ctx, `buyer-years:${source}:${buyer}`, async () => {
      const all = await preloadedBuyer(ctx, source, buyer);
      return all ? preloadedYears(all) : null;
    });
    if (preloaded) return withSums(preloaded.get(String(year)) ?? []);
    return ctx.corpus.buyerYear(
      `${source}:${buyer}:${year}`,
      async () => withSums(await storedYear(ctx, source, buyer, year)),
      (held) => held?.contracts.length ?? 1,
    );
  });
}

/**
 * The buyer's contracts of the year as the store holds them: those published in the year, and those without a
 * publication date signed in it. The undated ones are read once for every year asked of the buyer (a buyer's answer
 * and detection's scope ask for several), kept like a year's sums.
 */
async function storedYear(
  ctx: Pick<CheckContext, 'store' | 'corpus'>,
  source: string,
  buyer: string,
  year: number,
): Promise<YearContract[] | null> {
  const published = await ctx.store.buyerPrices(source, buyer, { from: `${year}-01-01`, to: `${year}-12-31` });
  const undated = await ctx.corpus.buyerYear(
    `${source}:${buyer}:undated`,
    () => ctx.store.buyerPrices(source, buyer, 'undated'),
    (rows) => Math.max(rows.length, 1),
  );
  // As many as readContracts gives up on: the answer is the same as when it read whole records.
  if (published.length >= MAX_READ || undated.length >= MAX_READ) return null;
  return [...published, ...undated.filter((u) => u.signed_on?.startsWith(`${year}-`))].map((x) => ({
    id: x.id,
    price_eur: x.price_eur,
    supplier: x.sole_supplier,
  }));
}

function judge(
  c: ContractRecord,
  year: number,
  ofYear: YearSums,
  buyer: { nif: string; name: string },
  supplier: { nif: string; name: string },
): Finding {
  const theirs = ofYear.bySupplier.get(supplier.nif) ?? { contracts: [], total: 0, ranked: [] };
  const [priced, buyerTotal, supplierTotal] = [ofYear.priced, ofYear.total, theirs.total];
  const corpus = {
    buyer_contracts: priced,
    buyer_contracts_without_price: ofYear.contracts - priced,
    supplier_contracts: theirs.contracts.length,
  };
  const share = shareOf(ofYear, supplierTotal);
  const values = {
    year,
    supplier_total_eur: cents(supplierTotal),
    buyer_total_eur: cents(buyerTotal),
    supplier_share: share,
  };
  const cites = theirs.ranked.filter((id) => id !== c.id).slice(0, MAX_CITES);
  const minimum = threshold(SUPPLIER_CONCENTRATION, 'min_buyer_contracts');
  if (priced < minimum) {
    const reason = {
      en:
        `Too few contracts to judge a share: the buyer has ${counted(priced, 'priced contract')} in ${year} held ` +
        `from this source, under the minimum of ${minimum}.`,
      pt:
        `Poucos contratos para avaliar a parte do fornecedor: a entidade tem ${counted(priced, 'contrato')} com ` +
        `preço em ${year} desta fonte, abaixo do mínimo de ${minimum}.`,
    };
    return finding('not_assessable', reason, values, { cites, corpus });
  }
  if (share === null) {
    const reason = {
      en: `The buyer's contracts in ${year} add up to ${eurosSaid(0).en}: a share of nothing cannot be told.`,
      pt: `Os contratos da entidade em ${year} somam ${eurosSaid(0).pt}: não há parte a calcular.`,
    };
    return finding('not_assessable', reason, values, { cites, corpus });
  }
  const limit = threshold(SUPPLIER_CONCENTRATION, 'max_supplier_share');
  const [part, whole, percent] = [eurosSaid(supplierTotal), eurosSaid(buyerTotal), percentSaid(share)];
  const said = {
    en:
      `${supplier.name} has ${theirs.contracts.length} of the ${priced} priced contracts of ${buyer.name} ` +
      `in ${year}: ` +
      `${part.en} of ${whole.en}, ${percent.en} of the value`,
    pt:
      `${subjectName(supplier.name)} tem ${theirs.contracts.length} dos ${priced} contratos com preço ` +
      `${ofName(buyer.name)} ` +
      `em ${year}: ` +
      `${part.pt} de ${whole.pt}, ${percent.pt} do valor`,
  };
  const limitSaid = percentSaid(limit);
  return share > limit
    ? finding(
        'flagged',
        {
          en: `${said.en}, above the threshold of ${limit * 100} %.`,
          pt: `${said.pt}, acima do limiar de ${limitSaid.pt}.`,
        },
        values,
        { cites, corpus },
      )
    : finding(
        'not_flagged',
        { en: `${said.en}, not above ${limit * 100} %.`, pt: `${said.pt}, não acima de ${limitSaid.pt}.` },
        values,
        { cites, corpus },
      );
}

/** A supplier's share of the year's priced value, to four decimals; null when the year adds up to 0 €. */
function shareOf(ofYear: YearSums, supplierTotal: number): number | null {
  return ofYear.total > 0 ? Math.round((supplierTotal / ofYear.total) * 10_000) / 10_000 : null;
}

/**
 * The suppliers whose share of the buyer's year is above the threshold, whatever the number of contracts: only their
 * contracts can be flagged. Detection's scope reads it (integrity-reach.ts) to judge again, of a year a new contract
 * joins, only the contracts whose flag it can move.
 */
export function suppliersAboveShare(ofYear: readonly YearContract[]): Set<string> {
  const sums = yearSums(ofYear) as YearSums;
  const limit = threshold(SUPPLIER_CONCENTRATION, 'max_supplier_share');
  const above = [...sums.bySupplier].filter(([, theirs]) => (shareOf(sums, theirs.total) ?? 0) > limit);
  return new Set(above.map(([nif]) => nif));
}

export const SUPPLIER_CONCENTRATION_CHECK: IntegrityCheck = {
  type: SUPPLIER_CONCENTRATION,
  assess: checkSupplierConcentration,
};
