/** The shape of an integrity check, and what it may read beyond the contract (docs/integrity.md). */
import type { Regions } from '../lib/regions.js';
import type { ContractDetailRecord } from '../store/procurement-records.js';
import type { Store } from '../store/store.js';
import type { Finding } from './assessment.js';
import type { IntegrityType } from './methodology.js';

/** The store reads a check may make: the other contracts of a buyer or a supplier, their notices. */
export type IntegrityStore = Pick<Store, 'listContracts' | 'getContract' | 'getAnnouncements'>;

export interface CheckContext {
  store: IntegrityStore;
  /** The buyer's legal regime by where it is (a check that holds a contract to a regional ceiling reads it). */
  regions: Regions;
}

export interface IntegrityCheck {
  readonly type: IntegrityType;
  assess(contract: ContractDetailRecord, ctx: CheckContext): Finding | Promise<Finding>;
}
