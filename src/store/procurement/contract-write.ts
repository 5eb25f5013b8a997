/**
 * Contracts upserted by (source, source_id). An unchanged fingerprint is counted and left alone; a changed
 * contract keeps its id, gets its child rows (parties, CPVs, municipalities, text row) rewritten and its old
 * figures taken out of the rollups before the new ones go in. Every contract inserted or changed appends a
 * `contract` journal entry and is stamped `updated_at`; a changed contract's entry names the buyers it no longer has
 * (`departedBuyersKey`), whose flags summed it (docs/signals.md, "What is judged again").
 */

import { changeStamp } from '../changes/change-stamp.js';
import type { Change } from '../journal/journal.js';
import type { ContractInput } from '../procurement-records.js';
import { CONTRACT_ROLES, type ContractRow, contractRow, uniqueParties } from '../shared/contract-row.js';
import { contractFingerprint } from '../shared/fingerprint.js';
import { type BatchContext, writeRecords } from './batch-write.js';
import type { BulkRow } from './bulk-load.js';
import { type Held, heldRecords } from './held-records.js';
import { takeOutOfRollups } from './rollups.js';
import { soleSupplierOf } from './sole-supplier.js';

interface Pending {
  /** The stored id, or undefined for a new contract (given one when written). */
  id: number | undefined;
  /** With the write's stamp once it has one. */
  row: ContractRow & { updated_at?: string };
  parties: { role: string; position: number; nif: string | null; name: string }[];
  cpvs: string[];
  municipalityIds: number[];
}

const CHILD_TABLES = ['contract_parties', 'contract_cpvs', 'contract_municipalities'];

/**
 * Decides what each contract of the batch does; returns the write, to run once the entities are written, which
 * gives the journal entries of the contracts it inserted or changed.
 */
export async function planContracts(
  batch: BatchContext,
  inputs: readonly ContractInput[],
): Promise<() => Promise<Change[]>> {
  const { tx, summary } = batch;
  const held = await heldRecords(tx, 'contracts', inputs);
  const changed: { input: ContractInput; record: Held }[] = [];
  for (const input of inputs) {
    const record = held.change(summary.contracts, input, contractFingerprint(input));
    if (record) changed.push({ input, record });
  }
  // The parties of what changes, in batch order: their entities are created on first sight.
  await batch.entities.load(
    tx,
    changed.flatMap(({ input }) => [...input.buyers, ...input.suppliers, ...input.competitors].map((p) => p.nif)),
  );
  const pending = new Map<Held, Pending>();
  for (const { input, record } of changed) {
    const parties: Pending['parties'] = [];
    for (const [role, field] of CONTRACT_ROLES) {
      uniqueParties(input[field]).forEach((party, position) => {
        const nif = batch.entities.ensure(party);
        parties.push({ role, position, nif, name: party.name.trim() });
        if (role !== 'competitor') batch.entityQueue.add(nif);
      });
    }
    pending.set(record, {
      id: record.id,
      row: contractRow(input, record.fingerprint),
      parties,
      cpvs: input.cpvs,
      municipalityIds: [...new Set(input.municipality_ids)],
    });
  }

  return async () => {
    const { load } = batch;
    const writes = [...pending.values()];
    if (writes.length > 0) {
      const stamp = await changeStamp(tx);
      for (const w of writes) w.row = { ...w.row, updated_at: stamp };
    }
    const before = await forgetContracts(
      batch,
      writes.flatMap((w) => (w.id === undefined ? [] : [w.id])),
    );
    await writeRecords(load, 'contracts', writes);
    const parties: BulkRow[] = [];
    const cpvs: BulkRow[] = [];
    const places: BulkRow[] = [];
    for (const w of writes) {
      const id = w.id as number;
      // A buyer's row carries what supplier concentration sums of its year (schema/procurement.ts, BUYER_YEARS).
      const sole = soleSupplierOf(w.parties.filter((p) => p.role === 'supplier'));
      for (const p of w.parties) {
        const [source, supplier] = p.role === 'buyer' ? [w.row.source, sole] : [null, null];
        parties.push([id, p.role, p.position, p.nif, p.name, w.row.published_on, w.row.price_eur, source, supplier]);
      }
      for (const [position, cpv] of w.cpvs.entries()) cpvs.push([id, position, cpv]);
      for (const municipalityId of w.municipalityIds) places.push([id, municipalityId, w.row.published_on]);
      batch.rollups.add({ ...w.row, municipality_ids: w.municipalityIds });
    }
    await load.write(
      'contract_parties',
      ['contract_id', 'role', 'position', 'nif', 'name', 'published_on', 'price_eur', 'source', 'sole_supplier'],
      parties,
    );
    await load.write('contract_cpvs', ['contract_id', 'position', 'cpv'], cpvs);
    await load.write('contract_municipalities', ['contract_id', 'municipality_id', 'published_on'], places);
    if (writes.length > 0) {
      await load.indexText('contracts', tx.dialect.inList('id', '$1'), [writes.map((w) => w.id)]);
    }
    return writes.map((w) => ({
      kind: 'contract',
      id: w.id as number,
      key: departedBuyersKey(before.get(w.id as number), w.parties),
      date: w.row.published_on,
    }));
  };
}

/**
 * The tax numbers of the buyers a changed contract had and no longer has, space-separated, or null: the journal keeps
 * them so that the integrity detector judges those buyers again, though the contract is no longer theirs.
 */
function departedBuyersKey(before: ReadonlySet<string> | undefined, parties: Pending['parties']): string | null {
  if (!before) return null;
  const now = new Set(parties.flatMap((p) => (p.role === 'buyer' && p.nif !== null ? [p.nif] : [])));
  const departed = [...before].filter((nif) => !now.has(nif)).sort();
  return departed.length > 0 ? departed.join(' ') : null;
}

/**
 * Takes stored contracts' children, text rows and rollup figures away before they are rewritten; gives the buyers' tax
 * numbers each had, by contract id.
 */
async function forgetContracts(batch: BatchContext, ids: readonly number[]): Promise<Map<number, Set<string>>> {
  const buyers = new Map<number, Set<string>>();
  if (ids.length === 0) return buyers;
  const { tx } = batch;
  const inList = (column: string) => tx.dialect.inList(column, '$1');
  const parties = await tx.query(
    `SELECT contract_id, role, nif FROM contract_parties
     WHERE ${inList('contract_id')} AND role IN ('buyer', 'supplier')`,
    [ids],
  );
  for (const party of parties) {
    const nif = party.nif as string | null;
    batch.entityQueue.add(nif);
    if (party.role !== 'buyer' || nif === null) continue;
    const id = Number(party.contract_id);
    const held = buyers.get(id);
    if (held) held.add(nif);
    else buyers.set(id, new Set([nif]));
  }
  await takeOutOfRollups(tx, batch.rollups, inList('c.id'), [ids]);
  await batch.load.unindexText('contracts', inList('id'), [ids]);
  for (const table of CHILD_TABLES) await tx.run(`DELETE FROM ${table} WHERE ${inList('contract_id')}`, [ids]);
  return buyers;
}
