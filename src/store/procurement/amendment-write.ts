/**
 * Amendments upserted by (source, source_id), attached to the contract with the same source and the given
 * contract source id (stored, or written earlier in the batch). One whose contract is in neither is an orphan:
 * reported, not written. Every amendment inserted or changed appends an `amendment` journal entry.
 */

import type { Change } from '../journal/journal.js';
import type { AmendmentInput } from '../procurement-records.js';
import { amendmentRow } from '../shared/amendment-row.js';
import { amendmentFingerprint } from '../shared/fingerprint.js';
import { type BatchContext, writeRecords } from './batch-write.js';
import { type Held, heldRecords } from './held-records.js';

/** Writes the batch's amendments; gives the journal entries of those inserted or changed. */
export async function writeAmendments(batch: BatchContext, inputs: readonly AmendmentInput[]): Promise<Change[]> {
  if (inputs.length === 0) return [];
  const { tx, summary } = batch;
  const contracts = await heldRecords(
    tx,
    'contracts',
    inputs.map((m) => ({ source: m.source, source_id: m.contract_source_id })),
  );
  const held = await heldRecords(tx, 'amendments', inputs);
  const pending = new Map<Held, { id: number | undefined; row: ReturnType<typeof amendmentRow> }>();
  for (const input of inputs) {
    const contractId = contracts.get(input.source, input.contract_source_id)?.id;
    if (contractId === undefined) {
      summary.orphan_amendments.push(input.source_id);
      continue;
    }
    const record = held.change(summary.amendments, input, amendmentFingerprint(input));
    if (record) pending.set(record, { id: record.id, row: amendmentRow(input, contractId, record.fingerprint) });
  }
  const writes = [...pending.values()];
  await writeRecords(batch.load, 'amendments', writes);
  return writes.map((w) => ({ kind: 'amendment', id: w.id as number, key: null, date: w.row.date }));
}
