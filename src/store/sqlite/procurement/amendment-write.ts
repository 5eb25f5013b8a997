/**
 * One amendment upserted by (source, source_id), attached to the contract with the same source and the given
 * contract source id. An amendment whose contract is not in the store (nor earlier in the batch) is an orphan:
 * reported, not written. An inserted or changed amendment appends an `amendment` journal entry.
 */
import type { AmendmentInput } from '../../procurement-records.js';
import { AMENDMENT_COLUMNS, amendmentRow } from '../../shared/amendment-row.js';
import { amendmentFingerprint } from '../../shared/fingerprint.js';
import { appendChange } from './append-change.js';
import type { BatchContext } from './batch.js';
import type { Row } from './sql.js';

const INSERT = `INSERT INTO amendments (${AMENDMENT_COLUMNS.join(', ')}) VALUES (${AMENDMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE = `UPDATE amendments SET ${AMENDMENT_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;

export function writeAmendment(batch: BatchContext, input: AmendmentInput): void {
  const { sql, summary } = batch;
  const contract = sql('SELECT id FROM contracts WHERE source = ? AND source_id = ?').get(input.source, input.contract_source_id) as
    | Row
    | undefined;
  if (!contract) {
    summary.orphan_amendments.push(input.source_id);
    return;
  }
  const fingerprint = amendmentFingerprint(input);
  const old = sql('SELECT id, fingerprint FROM amendments WHERE source = ? AND source_id = ?').get(input.source, input.source_id) as
    | Row
    | undefined;
  if (old?.fingerprint === fingerprint) {
    summary.amendments.unchanged++;
    return;
  }
  const row = amendmentRow(input, Number(contract.id), fingerprint);
  let id: number;
  if (old) {
    id = Number(old.id);
    sql(UPDATE).run({ ...row, id });
    summary.amendments.updated++;
  } else {
    id = Number(sql(INSERT).run(row).lastInsertRowid);
    summary.amendments.inserted++;
  }
  appendChange(sql, 'amendment', id, null, row.date);
}
