/**
 * Contracts upserted by (source, source_id), as in the SQLite store: an unchanged fingerprint is counted and left
 * alone; a changed contract keeps its id, gets its child rows (parties, CPVs, municipalities) rewritten and its
 * old figures taken out of the rollups before the new ones go in.
 */

import type { Change } from '../../journal/journal.js';
import type { ContractInput } from '../../procurement-records.js';
import { CONTRACT_COLUMNS, CONTRACT_ROLES, type ContractRow, contractRow, uniqueParties } from '../../shared/contract-row.js';
import { contractFingerprint } from '../../shared/fingerprint.js';
import { type CopyValue, copyRows, upsertRows } from '../copy.js';
import { allocateIds, type BatchContext, sourceKey, storedBySourceKey } from './batch.js';

interface Pending {
  /** The stored id, or undefined for a new contract (given one when written). */
  id: number | undefined;
  row: ContractRow;
  parties: { role: string; position: number; nif: string | null; name: string }[];
  cpvs: string[];
  municipalityIds: number[];
}

/**
 * Decides what each contract of the batch does; returns the write, to run once the entities are written, which
 * gives the journal entries of the contracts it inserted or changed.
 */
export async function planContracts(batch: BatchContext, inputs: readonly ContractInput[]): Promise<() => Promise<Change[]>> {
  const { sql, summary } = batch;
  const stored = await storedBySourceKey(sql, 'contracts', inputs);
  const current = new Map<string, { id: number | undefined; fingerprint: string }>(stored);
  const pending = new Map<string, Pending>();
  for (const input of inputs) {
    const key = sourceKey(input.source, input.source_id);
    const fingerprint = contractFingerprint(input);
    const held = current.get(key);
    if (held?.fingerprint === fingerprint) {
      summary.contracts.unchanged++;
      continue;
    }
    if (held) summary.contracts.updated++;
    else summary.contracts.inserted++;
    const parties: Pending['parties'] = [];
    for (const [role, field] of CONTRACT_ROLES) {
      uniqueParties(input[field]).forEach((party, position) => {
        const nif = batch.entities.ensure(party);
        parties.push({ role, position, nif, name: party.name.trim() });
        if (role !== 'competitor') batch.entityQueue.add(nif);
      });
    }
    current.set(key, { id: held?.id, fingerprint });
    pending.set(key, {
      id: held?.id,
      row: contractRow(input, fingerprint),
      parties,
      cpvs: input.cpvs,
      municipalityIds: [...new Set(input.municipality_ids)],
    });
  }

  return async () => {
    const writes = [...pending.values()];
    const replaced = writes.flatMap((w) => (w.id === undefined ? [] : [w.id]));
    await forgetContracts(batch, replaced);
    const ids = await allocateIds(sql, 'contracts', writes.length - replaced.length);
    let next = 0;
    for (const write of writes) write.id ??= ids[next++];
    await upsertRows(
      batch.client,
      'contracts',
      ['id', ...CONTRACT_COLUMNS],
      writes.map((w) => [w.id as number, ...CONTRACT_COLUMNS.map((c) => w.row[c])]),
      { key: 'id', replacing: replaced.length > 0 },
    );
    const parties: CopyValue[][] = [];
    const cpvs: CopyValue[][] = [];
    const places: CopyValue[][] = [];
    for (const w of writes) {
      const id = w.id as number;
      for (const p of w.parties) parties.push([id, p.role, p.position, p.nif, p.name, w.row.published_on, w.row.price_eur]);
      for (const [position, cpv] of w.cpvs.entries()) cpvs.push([id, position, cpv]);
      for (const municipalityId of w.municipalityIds) places.push([id, municipalityId, w.row.published_on]);
      batch.rollups.add({ ...w.row, municipality_ids: w.municipalityIds });
    }
    await copyRows(
      batch.client,
      'contract_parties',
      ['contract_id', 'role', 'position', 'nif', 'name', 'published_on', 'price_eur'],
      parties,
    );
    await copyRows(batch.client, 'contract_cpvs', ['contract_id', 'position', 'cpv'], cpvs);
    await copyRows(batch.client, 'contract_municipalities', ['contract_id', 'municipality_id', 'published_on'], places);
    return writes.map((w) => ({ kind: 'contract', id: w.id as number, key: null, date: w.row.published_on }));
  };
}

/** Takes stored contracts' children and rollup figures away before they are rewritten. */
async function forgetContracts(batch: BatchContext, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const { sql } = batch;
  const old = await sql(
    `SELECT c.published_on, c.cpv_division, c.procedure_type, c.price_eur,
       array(SELECT x.municipality_id FROM contract_municipalities x WHERE x.contract_id = c.id) AS municipality_ids,
       array(SELECT x.nif FROM contract_parties x WHERE x.contract_id = c.id AND x.role IN ('buyer', 'supplier')) AS nifs
     FROM contracts c WHERE c.id = ANY($1::integer[])`,
    [ids],
  );
  for (const row of old) {
    for (const nif of row.nifs as (string | null)[]) batch.entityQueue.add(nif);
    batch.rollups.remove({
      published_on: String(row.published_on),
      cpv_division: row.cpv_division as string | null,
      procedure_type: row.procedure_type as string | null,
      price_eur: row.price_eur as number | null,
      municipality_ids: row.municipality_ids as number[],
    });
  }
  for (const table of ['contract_parties', 'contract_cpvs', 'contract_municipalities']) {
    await sql(`DELETE FROM ${table} WHERE contract_id = ANY($1::integer[])`, [ids]);
  }
}
