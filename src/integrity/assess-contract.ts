/** Every integrity check on one contract, in the catalogue's order (docs/integrity.md). */
import type { ContractDetailRecord } from '../store/procurement-records.js';
import { type Assessment, toAssessment } from './assessment.js';
import type { CheckContext, IntegrityCheck } from './check.js';
import { COST_OVERRUN_CHECK } from './checks/cost-overrun.js';
import { DELAY_CHECK } from './checks/delay.js';
import { EXCESSIVE_UNSUCCESSFUL_BIDS_CHECK } from './checks/excessive-unsuccessful-bids.js';
import { HETEROGENEOUS_SUPPLIER_CHECK } from './checks/heterogeneous-supplier.js';
import { POSSIBLE_SPLITTING_CHECK } from './checks/possible-splitting.js';
import { PRICE_AT_BASE_CHECK } from './checks/price-at-base.js';
import { REPEATED_DIRECT_AWARDS_CHECK } from './checks/repeated-direct-awards.js';
import { SHORT_PERIOD_VS_COMPARABLE_CHECK } from './checks/short-period-vs-comparable.js';
import { SHORT_SUBMISSION_PERIOD_CHECK } from './checks/short-submission-period.js';
import { SINGLE_BID_CHECK } from './checks/single-bid.js';
import { SUPPLIER_CONCENTRATION_CHECK } from './checks/supplier-concentration.js';
import type { IntegrityType } from './methodology.js';

/** The catalogue: one entry per integrity type, in the order answers list them. */
const CHECKS: readonly IntegrityCheck[] = [
  SHORT_SUBMISSION_PERIOD_CHECK,
  SHORT_PERIOD_VS_COMPARABLE_CHECK,
  SINGLE_BID_CHECK,
  PRICE_AT_BASE_CHECK,
  COST_OVERRUN_CHECK,
  DELAY_CHECK,
  EXCESSIVE_UNSUCCESSFUL_BIDS_CHECK,
  HETEROGENEOUS_SUPPLIER_CHECK,
  SUPPLIER_CONCENTRATION_CHECK,
  REPEATED_DIRECT_AWARDS_CHECK,
  POSSIBLE_SPLITTING_CHECK,
];

export const INTEGRITY_TYPES: readonly IntegrityType[] = CHECKS.map((c) => c.type);

/**
 * Every check on the contract, or those of the types `only` names. `flaggedOnly`: the assessments of the types it is
 * flagged on, the others left out (detection from scratch writes nothing else: at a million contracts, ten million
 * assessments would be made only to be dropped).
 */
export async function assessContract(
  contract: ContractDetailRecord,
  ctx: CheckContext,
  only?: ReadonlySet<string>,
  flaggedOnly = false,
): Promise<Assessment[]> {
  const out: Assessment[] = [];
  for (const check of CHECKS) {
    if (only && !only.has(check.type.key)) continue;
    const assessed = check.assess(contract, ctx);
    // A check that reads nothing answers at once: awaited, it would cost a turn of the microtask queue, a million
    // times each in a detection at a million contracts.
    const found = assessed instanceof Promise ? await assessed : assessed;
    if (flaggedOnly && found.state !== 'flagged') continue;
    out.push(toAssessment(check.type, found, contract.id));
  }
  return out;
}
