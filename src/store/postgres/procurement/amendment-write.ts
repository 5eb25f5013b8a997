/**
 * Amendments upserted by (source, source_id), attached to the contract with the same source and the given
 * contract source id (stored, or written earlier in the batch). One whose contract is in neither is an orphan:
 * reported, not written.
 */

import type { Change } from '../../journal/journal.js';
import type { AmendmentInput } from '../../procurement-records.js';
import { AMENDMENT_COLUMNS, amendmentRow } from '../../shared/amendment-row.js';
import { amendmentFingerprint } from '../../shared/fingerprint.js';
import { upsertRows } from '../copy.js';
import { allocateIds, type BatchContext, sourceKey, storedBySourceKey } from './batch.js';

/** Writes the batch's amendments; gives the journal entries of those inserted or changed. */
export async function writeAmendments(batch: BatchContext, inputs: readonly AmendmentInput[]): Promise<Change[]> {
  if (inputs.length === 0) return [];
  const { sql, summary } = batch;
  const contracts = await storedBySourceKey(
    sql,
    'contracts',
    inputs.map((m) => ({ source: m.source, source_id: m.contract_source_id })),
  );
  const current = new Map<string, { id: number | undefined; fingerprint: string }>(await storedBySourceKey(sql, 'amendments', inputs));
  const pending = new Map<string, { id: number | undefined; row: ReturnType<typeof amendmentRow> }>();
  for (const input of inputs) {
    const contract = contracts.get(sourceKey(input.source, input.contract_source_id));
    if (!contract) {
      summary.orphan_amendments.push(input.source_id);
      continue;
    }
    const key = sourceKey(input.source, input.source_id);
    const fingerprint = amendmentFingerprint(input);
    const held = current.get(key);
    if (held?.fingerprint === fingerprint) {
      summary.amendments.unchanged++;
      continue;
    }
    if (held) summary.amendments.updated++;
    else summary.amendments.inserted++;
    current.set(key, { id: held?.id, fingerprint });
    pending.set(key, {
      id: held?.id,
      row: amendmentRow(input, contract.id, fingerprint),
    });
  }
  const writes = [...pending.values()];
  const replacing = writes.some((w) => w.id !== undefined);
  const ids = await allocateIds(sql, 'amendments', writes.filter((w) => w.id === undefined).length);
  let next = 0;
  for (const write of writes) write.id ??= ids[next++];
  await upsertRows(
    batch.client,
    'amendments',
    ['id', ...AMENDMENT_COLUMNS],
    writes.map((w) => [w.id as number, ...AMENDMENT_COLUMNS.map((c) => w.row[c])]),
    { key: 'id', replacing },
  );
  return writes.map((w) => ({ kind: 'amendment', id: w.id as number, key: null, date: w.row.date }));
}
