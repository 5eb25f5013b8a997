/**
 * Which other contracts a contract new since the last integrity run can move the flags of (docs/signals.md,
 * "Integrity"). The checks that compare a contract with its buyer's others read, for the contract judged, no more than
 *  - supplier concentration: the buyer's contracts of its year (supplier-concentration.ts, `buyerYear`), of which
 *    only a supplier above the share has contracts that can flag (`suppliersAboveShare`);
 *  - repeated direct awards: the same buyer and supplier's awards from `awardsCountedFrom` its day to its day;
 *  - possible splitting: the same buyer and supplier's awards within `splittingWindow` of its day.
 * So a new contract moves, besides its own, the flags of its buyers' contracts of its year whose supplier is above
 * the share before it or with it, and of the awards of its buyer and supplier whose own windows hold its day — on
 * those types alone. Each window is the check's own function,
 * so the two cannot drift apart. A contract held before may have been summed or cited under what it said then,
 * which the journal does not keep: its buyers are judged again whole instead (integrity-scope.ts).
 */
import { awardDate, pairContracts, soleSupplierNif } from '../integrity/buyer-contracts.js';
import type { CheckContext } from '../integrity/check.js';
import { POSSIBLE_SPLITTING, splittingWindow } from '../integrity/checks/possible-splitting.js';
import { awardsCountedFrom, REPEATED_DIRECT_AWARDS } from '../integrity/checks/repeated-direct-awards.js';
import {
  buyerYear,
  SUPPLIER_CONCENTRATION,
  shareYear,
  suppliersAboveShare,
} from '../integrity/checks/supplier-concentration.js';
import type { ContractRecord } from '../store/procurement-records.js';
import type { Buyer } from './integrity-scope.js';

/**
 * What the reach's reads may weigh and still be held for the judging: whole records of the pairs, the prices of the
 * years (1,000 new contracts at a million read 7,359 and 416,648).
 */
const HELD: Read = { pairContracts: 200_000, yearContracts: 1_000_000 };

/**
 * What the new contracts reach, read from the store window by window (each buyer's year and pair once) as the checks
 * read them. Each contract to judge again is given to `add` with a type to judge it on; the buyers with more contracts
 * in a window than a check reads (MAX_READ), to be judged again whole as before, are returned, with the reads as a
 * check context's memo: judging the contracts reached then reads them no more. Past what `held` allows, the reads
 * are let go as they are made, and the memo given is empty.
 */
export async function reachOfNew(
  ctx: CheckContext,
  contracts: readonly ContractRecord[],
  add: (id: number, type: string) => void,
  held: Read = HELD,
): Promise<{ whole: Buyer[]; reads: ReadonlyMap<string, Promise<unknown>> }> {
  const whole = new Map<string, Buyer>();
  const wholly = (source: string, nif: string) => whole.set(`${source} ${nif}`, { source, nif });
  const reads = new Map<string, Promise<unknown>>();
  const read: Read = { pairContracts: 0, yearContracts: 0 };
  let holding = true;
  const reading = (): CheckContext => ({ ...ctx, memo: holding ? reads : undefined });
  const weigh = (kind: keyof Read, contracts: number) => {
    read[kind] += contracts;
    if (holding && read[kind] > held[kind]) {
      holding = false;
      reads.clear();
    }
  };

  for (const { source, buyer, year, added } of buyerYears(contracts)) {
    const ofYear = (await buyerYear(reading(), source, buyer, year))?.contracts ?? null;
    if (ofYear === null) {
      wholly(source, buyer);
      continue;
    }
    weigh('yearContracts', ofYear.length);
    // Only a supplier above the share, before the new contracts or with them, has contracts whose flag can move.
    const before = ofYear.filter((x) => !added.has(x.id));
    const moving = new Set([...suppliersAboveShare(before), ...suppliersAboveShare(ofYear)]);
    for (const x of ofYear) if (x.supplier !== null && moving.has(x.supplier)) add(x.id, SUPPLIER_CONCENTRATION.key);
  }
  for (const { source, buyer, supplier, days } of pairs(contracts)) {
    const theirs = await pairContracts(reading(), source, buyer, supplier);
    if (theirs === null) {
      wholly(source, buyer);
      continue;
    }
    weigh('pairContracts', theirs.length);
    for (const x of theirs) {
      const on = awardDate(x);
      if (on === null) continue;
      const [from, to] = splittingWindow(on);
      if (days.some((day) => day >= from && day <= to)) add(x.id, POSSIBLE_SPLITTING.key);
      const counted = awardsCountedFrom(on);
      if (days.some((day) => day >= counted && day <= on)) add(x.id, REPEATED_DIRECT_AWARDS.key);
    }
  }
  return { whole: [...whole.values()], reads };
}

/** Contracts read: the pairs' (whole records), the years' (their prices and suppliers). */
export interface Read {
  pairContracts: number;
  yearContracts: number;
}

/**
 * Each buyer's year new contracts count in (every buyer of a joint contract: each one's total holds it), with the
 * ids of those new contracts.
 */
function buyerYears(contracts: readonly ContractRecord[]) {
  const out = new Map<string, { source: string; buyer: string; year: number; added: Set<number> }>();
  for (const c of contracts) {
    const year = shareYear(c);
    if (year === null) continue;
    for (const b of c.buyers) {
      if (b.nif === null) continue;
      const key = `${c.source} ${b.nif} ${year}`;
      const held = out.get(key);
      if (held) held.added.add(c.id);
      else out.set(key, { source: c.source, buyer: b.nif, year, added: new Set([c.id]) });
    }
  }
  return out.values();
}

/**
 * Each buyer and supplier pair with the days of its new awards. The pair checks count another award only when it has
 * one buyer and one supplier, and a date.
 */
function pairs(contracts: readonly ContractRecord[]) {
  const out = new Map<string, { source: string; buyer: string; supplier: string; days: string[] }>();
  for (const c of contracts) {
    const [buyer, supplier, day] = [c.buyers.length === 1 ? c.buyers[0].nif : null, soleSupplierNif(c), awardDate(c)];
    if (buyer === null || supplier === null || day === null) continue;
    const key = `${c.source} ${buyer} ${supplier}`;
    const pair = out.get(key);
    if (pair) pair.days.push(day);
    else out.set(key, { source: c.source, buyer, supplier, days: [day] });
  }
  return out.values();
}
