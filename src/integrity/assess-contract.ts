/** Every integrity check on one contract, in the catalogue's order (docs/integrity.md). */
import type { ContractDetailRecord } from '../store/procurement-records.js';
import { type Assessment, type Finding, toAssessment } from './assessment.js';
import { COST_OVERRUN, checkCostOverrun } from './checks/cost-overrun.js';
import { checkDelay, DELAY } from './checks/delay.js';
import { checkPriceAtBase, PRICE_AT_BASE } from './checks/price-at-base.js';
import { checkSingleBid, SINGLE_BID } from './checks/single-bid.js';
import type { IntegrityType } from './methodology.js';

const CHECKS: readonly { type: IntegrityType; check: (c: ContractDetailRecord) => Finding }[] = [
  { type: SINGLE_BID, check: checkSingleBid },
  { type: PRICE_AT_BASE, check: checkPriceAtBase },
  { type: COST_OVERRUN, check: checkCostOverrun },
  { type: DELAY, check: checkDelay },
];

export const INTEGRITY_TYPES: readonly IntegrityType[] = CHECKS.map((c) => c.type);

export function assessContract(contract: ContractDetailRecord): Assessment[] {
  return CHECKS.map(({ type, check }) => toAssessment(type, check(contract), [contract.id]));
}
