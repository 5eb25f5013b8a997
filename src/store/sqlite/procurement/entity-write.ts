/**
 * Entities written in a batch: upserted from the batch's own entity list, or created on first sight from a
 * party of a contract or an announcement (then never overwritten by a later sighting: an entity list, such as
 * the portal's entity export, is the authority on names and kinds).
 */

import type { EntityInput, Party, ProcurementWriteSummary } from '../../procurement-records.js';
import { entityColumns, listedEntity, partyEntity, sameEntity } from '../../shared/entity-row.js';
import { entityNif, searchText } from '../../shared/procurement-keys.js';
import type { Row, Sql } from './sql.js';

export class EntityWriter {
  readonly summary: ProcurementWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  readonly #sql: Sql;
  /** Municipality ids by their own tax number: a party with one of these is the municipality. */
  readonly #municipalityByNif: ReadonlyMap<string, number>;
  /** Tax numbers known to exist in this batch, so that a buyer met 5 000 times is looked up once. */
  readonly #known = new Set<string>();

  constructor(sql: Sql, municipalityByNif: ReadonlyMap<string, number>) {
    this.#sql = sql;
    this.#municipalityByNif = municipalityByNif;
  }

  upsert(input: EntityInput): void {
    const row = listedEntity(input);
    const { nif } = row;
    const existing = this.#sql('SELECT id, name, kind, country, municipality_id FROM entities WHERE nif = ?').get(nif) as Row | undefined;
    this.#known.add(nif);
    if (!existing) {
      this.#insert(row);
      return;
    }
    if (sameEntity(existing, row)) {
      this.summary.unchanged++;
      return;
    }
    this.#sql(
      'UPDATE entities SET name = @name, kind = @kind, country = @country, municipality_id = @municipality_id, name_key = @name_key, search_text = @search_text WHERE nif = @nif',
    ).run(entityColumns(row));
    if (existing.name !== row.name) this.#index(Number(existing.id), row, true);
    this.summary.updated++;
  }

  /** The party's entity tax number (creating the entity if it is new), or null for a party without one. */
  ensure(party: Party): string | null {
    const nif = entityNif(party.nif);
    if (nif === null || this.#known.has(nif)) return nif;
    this.#known.add(nif);
    if (this.#sql('SELECT 1 FROM entities WHERE nif = ?').get(nif)) return nif;
    this.#insert(partyEntity(nif, party, this.#municipalityByNif));
    return nif;
  }

  #insert(row: EntityInput): void {
    const result = this.#sql(
      `INSERT INTO entities (nif, name, kind, country, municipality_id, name_key, search_text)
       VALUES (@nif, @name, @kind, @country, @municipality_id, @name_key, @search_text)`,
    ).run(entityColumns(row));
    this.#index(Number(result.lastInsertRowid), row, false);
    this.summary.inserted++;
  }

  #index(id: number, row: EntityInput, replace: boolean): void {
    if (replace) this.#sql('DELETE FROM entities_fts WHERE rowid = ?').run(id);
    this.#sql('INSERT INTO entities_fts (rowid, text) VALUES (?, ?)').run(id, searchText(row.name, row.nif));
  }
}
