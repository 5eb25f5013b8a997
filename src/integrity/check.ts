/** The shape of an integrity check, and what it may read beyond the contract (docs/integrity.md). */
import type { Regions } from '../lib/regions.js';
import type { ContractDetailRecord } from '../store/procurement-records.js';
import type { Store } from '../store/store.js';
import type { Finding } from './assessment.js';
import type { IntegrityCorpus } from './corpus.js';
import type { IntegrityType } from './methodology.js';

/**
 * The store reads a check may make: the other contracts of a buyer or a supplier, their notices and amendments, and
 * the corpus of notices' submission periods.
 */
export type IntegrityStore = Pick<
  Store,
  'listContracts' | 'getContract' | 'getAnnouncements' | 'noticePeriods' | 'contractAmendments' | 'buyerPrices'
>;

export interface CheckContext {
  store: IntegrityStore;
  /** The buyer's legal regime by where it is (a check that holds a contract to a regional ceiling reads it). */
  regions: Regions;
  /** The corpus statistics a check judges against (quartiles, fences), computed once per data version (corpus.ts). */
  corpus: IntegrityCorpus;
  /**
   * Reads kept for the length of one answer (see `once`): a buyer's answer assesses many contracts against the same
   * corpus statistics, and two checks may read the same notice. Without it every read is made anew.
   */
  memo?: Map<string, Promise<unknown>>;
}

/** `read()` once per answer under `key` when the context keeps a memo; anew otherwise. */
export function once<T>(ctx: CheckContext, key: string, read: () => Promise<T>): Promise<T> {
  if (!ctx.memo) return read();
  const kept = ctx.memo.get(key) as Promise<T> | undefined;
  if (kept) return kept;
  const reading = read();
  ctx.memo.set(key, reading);
  return reading;
}

export interface IntegrityCheck {
  readonly type: IntegrityType;
  assess(contract: ContractDetailRecord, ctx: CheckContext): Finding | Promise<Finding>;
}
