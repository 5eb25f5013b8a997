/**
 * One contract upserted by (source, source_id). An unchanged fingerprint stops here; a changed contract keeps
 * its id and gets its child rows (parties, CPVs, municipalities, text index) rewritten, and its old figures
 * taken out of the rollups before the new ones go in. Either way it appends a `contract` journal entry.
 */
import type { ContractInput } from '../../procurement-records.js';
import { CONTRACT_COLUMNS, CONTRACT_ROLES, type ContractRow, contractRow, uniqueParties } from '../../shared/contract-row.js';
import { contractFingerprint } from '../../shared/fingerprint.js';
import type { RollupFacts } from '../../shared/rollup-deltas.js';
import { appendChange } from './append-change.js';
import type { BatchContext } from './batch.js';
import type { Row } from './sql.js';

export function writeContract(batch: BatchContext, input: ContractInput): void {
  const { sql, summary } = batch;
  const fingerprint = contractFingerprint(input);
  const old = sql(
    'SELECT id, fingerprint, published_on, cpv_division, procedure_type, price_eur FROM contracts WHERE source = ? AND source_id = ?',
  ).get(input.source, input.source_id) as Row | undefined;
  if (old?.fingerprint === fingerprint) {
    summary.contracts.unchanged++;
    return;
  }
  const row = sqliteRow(contractRow(input, fingerprint));
  let id: number;
  if (old) {
    id = Number(old.id);
    forgetContract(batch, id, old);
    sql(UPDATE_CONTRACT).run(...CONTRACT_COLUMNS.map((c) => row[c]), id);
    summary.contracts.updated++;
  } else {
    id = Number(sql(INSERT_CONTRACT).run(CONTRACT_COLUMNS.map((c) => row[c])).lastInsertRowid);
    summary.contracts.inserted++;
  }
  appendChange(sql, 'contract', id, null, row.published_on);

  const addParty = sql(
    'INSERT INTO contract_parties (contract_id, role, position, nif, name, published_on, price_eur) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const [role, field] of CONTRACT_ROLES) {
    uniqueParties(input[field]).forEach((party, position) => {
      const nif = batch.entities.ensure(party);
      addParty.run(id, role, position, nif, party.name.trim(), row.published_on, row.price_eur);
      if (role !== 'competitor') batch.entityQueue.add(nif);
    });
  }
  const addCpv = sql('INSERT INTO contract_cpvs (contract_id, position, cpv) VALUES (?, ?, ?)');
  for (const [position, cpv] of input.cpvs.entries()) addCpv.run(id, position, cpv);
  const municipalityIds = [...new Set(input.municipality_ids)];
  const addPlace = sql('INSERT INTO contract_municipalities (contract_id, municipality_id, published_on) VALUES (?, ?, ?)');
  for (const municipalityId of municipalityIds) addPlace.run(id, municipalityId, row.published_on);
  sql('INSERT INTO contracts_fts (rowid, text) VALUES (?, ?)').run(id, row.search_text);
  batch.rollups.add({ ...row, municipality_ids: municipalityIds });
}

/** Takes a stored contract's children, text entry and rollup figures away before it is rewritten. */
function forgetContract(batch: BatchContext, id: number, old: Row): void {
  const { sql } = batch;
  for (const party of sql("SELECT nif FROM contract_parties WHERE contract_id = ? AND role IN ('buyer', 'supplier')").all(id) as Row[]) {
    batch.entityQueue.add(party.nif as string | null);
  }
  const municipalityIds = (sql('SELECT municipality_id FROM contract_municipalities WHERE contract_id = ?').all(id) as Row[]).map((r) =>
    Number(r.municipality_id),
  );
  batch.rollups.remove({ ...(old as unknown as RollupFacts), municipality_ids: municipalityIds });
  for (const table of ['contract_parties', 'contract_cpvs', 'contract_municipalities']) {
    sql(`DELETE FROM ${table} WHERE contract_id = ?`).run(id);
  }
  sql('DELETE FROM contracts_fts WHERE rowid = ?').run(id);
}

// Positional parameters: binding 29 values by name costs more than the rest of the insert's JavaScript.
const INSERT_CONTRACT = `INSERT INTO contracts (${CONTRACT_COLUMNS.join(', ')}) VALUES (${CONTRACT_COLUMNS.map(() => '?').join(', ')})`;
const UPDATE_CONTRACT = `UPDATE contracts SET ${CONTRACT_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;

/** The shared row in SQLite's types: it has no list or boolean columns, so a list is JSON text and a flag 0 or 1. */
function sqliteRow(row: ContractRow) {
  const flag = (value: boolean | null) => (value === null ? null : Number(value));
  return { ...row, contract_types: JSON.stringify(row.contract_types), green: flag(row.green), centralized: flag(row.centralized) };
}
