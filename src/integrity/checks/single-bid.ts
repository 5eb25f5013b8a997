/** R018, single bid: an open or restricted procedure that drew one competitor. */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { IntegrityCheck } from '../check.js';
import type { IntegrityType } from '../methodology.js';

export const SINGLE_BID: IntegrityType = {
  key: 'single_bid',
  code: 'R018',
  version: 1,
  label_pt: 'Proposta única',
  label_en: 'Single bid',
  measures_en:
    'Whether an open or restricted procedure (OCDS method open or selective) received one bid: competition was ' +
    'invited and did not come.',
  fields: ['ocds_method', 'competitors'],
  thresholds: [],
  legal_basis: null,
  caveat_en:
    "The portal's list of competitors may be incomplete: a contract whose record names none is not assessable.",
};

const COMPETITIVE = new Set(['open', 'selective']);

export function checkSingleBid(c: ContractDetailRecord): Finding {
  const values = { ocds_method: c.ocds_method, competitors: c.competitors.length };
  if (c.ocds_method === null) return finding('not_assessable', 'The record gives no procedure type.', values);
  if (!COMPETITIVE.has(c.ocds_method)) {
    const reason = `Does not apply: a ${c.ocds_method} procedure does not invite open competition.`;
    return finding('not_flagged', reason, values);
  }
  if (c.competitors.length === 0) {
    const reason = 'The record names no competitor: how many bids the procedure drew cannot be told.';
    return finding('not_assessable', reason, values);
  }
  return c.competitors.length === 1
    ? finding('flagged', `One competitor in a ${c.ocds_method} procedure.`, values)
    : finding('not_flagged', `${c.competitors.length} competitors.`, values);
}

export const SINGLE_BID_CHECK: IntegrityCheck = { type: SINGLE_BID, assess: checkSingleBid };
