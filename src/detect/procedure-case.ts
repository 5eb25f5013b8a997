/**
 * The case of a procurement signal: one contracting procedure, from its notice to its contracts and their
 * amendments. A contract joins its announcement's case (by notice number, when the announcement is in the
 * store), else the case of its procedure id, else a case of its own; an amendment joins its contract's case.
 *
 * The signal that opens the case is its `origin`, the others `update`s: the notice's tender_open when there is a
 * notice; otherwise the contract's first signal (contract_awarded, else direct_award_high_value); otherwise (a
 * contract too small to signal) its first price-changing amendment. The case type is the origin's type, the same
 * on every signal of the case, so whichever signal creates the case names it the same way.
 */

import type { CaseRelationship } from '../lib/vocabulary.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import type { SignalCaseRef } from '../store/signal-records.js';

export const PROCUREMENT = 'procurement';

/** `procurement:<type>:<source>:<source id>`: stable across runs and stores. */
export function procurementSignalKey(type: string, source: string, sourceId: string): string {
  return `${PROCUREMENT}:${type}:${source}:${sourceId}`;
}

/** The procedure a contract belongs to, and whether a notice (an announcement in the store) opened it. */
export function contractCaseKey(c: ContractRecord): { key: string; announced: boolean } {
  if (c.announcement_id !== null && c.announcement_number) {
    return { key: announcementCaseKey(c.source, c.announcement_number), announced: true };
  }
  if (c.procedure_id) return { key: `${PROCUREMENT}:${c.source}:procedure:${c.procedure_id}`, announced: false };
  return { key: `${PROCUREMENT}:${c.source}:contract:${c.source_id}`, announced: false };
}

export function announcementCaseKey(source: string, noticeNumber: string): string {
  return `${PROCUREMENT}:${source}:announcement:${noticeNumber}`;
}

export function announcementCase(a: AnnouncementRecord, type: 'tender_open' | 'deadline_closing'): SignalCaseRef {
  return ref(announcementCaseKey(a.source, a.source_id), 'tender_open', type === 'tender_open' ? 'origin' : 'update');
}

/**
 * The case of a contract's signal of `type`, given the types the contract signals (`contractTypes`, in
 * CONTRACT_SIGNAL_ORDER order).
 */
export function contractCase(c: ContractRecord, type: string, contractTypes: readonly string[]): SignalCaseRef {
  const { key, announced } = contractCaseKey(c);
  if (announced) return ref(key, 'tender_open', 'update');
  const opening = contractTypes[0] ?? type;
  return ref(key, opening, type === opening ? 'origin' : 'update');
}

/**
 * The case of an amendment's signal: `contractTypes` are the types its contract signals; `firstAmendment`
 * the id of the contract's first price-changing amendment.
 */
export function amendmentCase(
  c: ContractRecord,
  m: AmendmentRecord,
  contractTypes: readonly string[],
  firstAmendment: number | undefined,
): SignalCaseRef {
  const { key, announced } = contractCaseKey(c);
  if (announced) return ref(key, 'tender_open', 'update');
  if (contractTypes.length > 0) return ref(key, contractTypes[0], 'update');
  return ref(key, 'contract_amended', firstAmendment === undefined || firstAmendment === m.id ? 'origin' : 'update');
}

function ref(key: string, type: string, relationship: CaseRelationship): SignalCaseRef {
  return { key, type, family: PROCUREMENT, relationship };
}
