/** The shape of an integrity check, and what it may read beyond the contract (docs/integrity.md). */
import type { ContractDetailRecord } from '../store/procurement-records.js';
import type { Store } from '../store/store.js';
import type { Finding } from './assessment.js';
import type { IntegrityCorpus } from './corpus.js';
import type { IntegrityType } from './methodology.js';

/** The store reads a check may make: the other contracts of a buyer or a supplier, their notices. */
export type IntegrityStore = Pick<Store, 'listContracts' | 'getContract' | 'getAnnouncements'>;

export interface CheckContext {
  store: IntegrityStore;
  /** The corpus statistics a check judges against (quartiles, fences), computed once per data version (corpus.ts). */
  corpus: IntegrityCorpus;
}

export interface IntegrityCheck {
  readonly type: IntegrityType;
  assess(contract: ContractDetailRecord, ctx: CheckContext): Finding | Promise<Finding>;
}
