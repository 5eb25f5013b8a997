/**
 * The case of a procurement record: the case its procedure's signals are grouped in, named by the key the
 * detector gives it (src/ingest/signals/procedure-case.ts) — an announcement's own, a contract's procedure (its
 * notice, else its procedure id, else itself), an amendment its contract's. A record whose procedure has no
 * signal has no case. Looked up only for the items a rule matched, once per key.
 */

import { announcementCaseKey, contractCaseKey } from '../detect/procedure-case.js';
import type { AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import type { SignalWriteStore } from '../store/store.js';

export function announcementCase(a: AnnouncementRecord): string {
  return announcementCaseKey(a.source, a.source_id);
}

/** The case of a contract, and of its amendments. */
export function contractCase(c: ContractRecord): string {
  return contractCaseKey(c).key;
}

/** The ids of the cases with these keys (keys without a case are left out). */
export async function caseIds(
  store: Pick<SignalWriteStore, 'findCaseId'>,
  keys: Iterable<string>,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const key of new Set(keys)) {
    const id = await store.findCaseId(key);
    if (id !== undefined) found.set(key, id);
  }
  return found;
}
