/**
 * One contract upserted by (source, source_id). An unchanged fingerprint stops here; a changed contract keeps
 * its id and gets its child rows (parties, CPVs, municipalities, text index) rewritten, and its old figures
 * taken out of the rollups before the new ones go in. Either way it appends a `contract` journal entry.
 */
import type { ContractInput, Party } from '../../procurement-records.js';
import { appendChange } from '../signals/journal.js';
import type { BatchContext } from './batch.js';
import { contractFingerprint } from './fingerprint.js';
import { entityNif, procedureKey, searchText } from './keys.js';
import type { RollupFacts } from './rollups.js';
import type { Row } from './sql.js';

const ROLES = [
  ['buyer', 'buyers'],
  ['supplier', 'suppliers'],
  ['competitor', 'competitors'],
] as const;

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
  const row = contractRow(input, fingerprint);
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
  for (const [role, field] of ROLES) {
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

/** A party listed twice under one role (same tax number) is one party; parties without a number are kept as listed. */
function uniqueParties(parties: readonly Party[]): Party[] {
  const seen = new Set<string>();
  return parties.filter((party) => {
    const nif = entityNif(party.nif);
    if (nif === null) return true;
    if (seen.has(nif)) return false;
    seen.add(nif);
    return true;
  });
}

const CONTRACT_COLUMNS = [
  'source',
  'source_id',
  'fingerprint',
  'procedure_id',
  'announcement_number',
  'object',
  'description',
  'procedure_type',
  'procedure_key',
  'ocds_method',
  'contract_types',
  'cpv_main',
  'cpv_division',
  'base_price_eur',
  'price_eur',
  'effective_price_eur',
  'published_on',
  'awarded_on',
  'signed_on',
  'closed_on',
  'execution_days',
  'execution_places_text',
  'framework_agreement',
  'legal_basis',
  'green',
  'centralized',
  'link',
  'search_text',
  'imported_at',
] as const;
// Positional parameters: binding 29 values by name costs more than the rest of the insert's JavaScript.
const INSERT_CONTRACT = `INSERT INTO contracts (${CONTRACT_COLUMNS.join(', ')}) VALUES (${CONTRACT_COLUMNS.map(() => '?').join(', ')})`;
const UPDATE_CONTRACT = `UPDATE contracts SET ${CONTRACT_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`;

/** The stored row. Fields a producer left undefined are stored as null rather than failing the batch. */
function contractRow(c: ContractInput, fingerprint: string) {
  const cpvMain = c.cpvs[0] ?? null;
  const flag = (value: boolean | null | undefined) => (value === null || value === undefined ? null : Number(value));
  return {
    source: c.source,
    source_id: c.source_id,
    fingerprint,
    procedure_id: c.procedure_id ?? null,
    announcement_number: c.announcement_number ?? null,
    object: c.object,
    description: c.description ?? null,
    procedure_type: c.procedure_type ?? null,
    procedure_key: c.procedure_type ? procedureKey(c.procedure_type) : null,
    ocds_method: c.ocds_method ?? null,
    contract_types: JSON.stringify(c.contract_types),
    cpv_main: cpvMain,
    cpv_division: cpvMain === null ? null : cpvMain.slice(0, 2),
    base_price_eur: c.base_price_eur ?? null,
    price_eur: c.price_eur ?? null,
    effective_price_eur: c.effective_price_eur ?? null,
    published_on: c.published_on ?? '',
    awarded_on: c.awarded_on ?? null,
    signed_on: c.signed_on ?? null,
    closed_on: c.closed_on ?? null,
    execution_days: c.execution_days ?? null,
    execution_places_text: c.execution_places_text ?? null,
    framework_agreement: c.framework_agreement ?? null,
    legal_basis: c.legal_basis ?? null,
    green: flag(c.green),
    centralized: flag(c.centralized),
    link: c.link ?? null,
    search_text: searchText(c.object, c.description),
    imported_at: c.imported_at,
  } satisfies Record<(typeof CONTRACT_COLUMNS)[number], unknown>;
}
