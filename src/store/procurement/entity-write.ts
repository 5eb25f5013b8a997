/**
 * Entities written in a batch: upserted from the batch's own entity list, or created on first sight from a party
 * of a contract or an announcement (then never overwritten by a later sighting: an entity list, such as the
 * portal's entity export, is the authority on names and kinds). The stored entities that the batch's list and its
 * new or changed records name are read set-wise (`load`); the decisions are taken in memory, in batch order, and
 * the new and changed entities written at once (`flush`), before the rows that refer to them.
 */

import type { EntityInput, Party, ProcurementWriteSummary } from '../procurement-records.js';
import { ENTITY_COLUMNS, entityColumns, listedEntity, partyEntity, sameEntity } from '../shared/entity-row.js';
import { entityNif } from '../shared/procurement-keys.js';
import type { Row, SqlPort } from '../sql/port.js';
import type { BulkLoad, BulkRow } from './bulk-load.js';

export class EntityWriter {
  readonly summary: ProcurementWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  /** Municipality ids by their own tax number: a party with one of these is the municipality. */
  readonly #municipalityByNif: ReadonlyMap<string, number>;
  readonly #stored = new Map<string, Row>();
  /** Tax numbers looked for in the store already (found or not). */
  readonly #asked = new Set<string>();
  /** New or changed entities, as they will be written. */
  readonly #written = new Map<string, EntityInput>();

  constructor(municipalityByNif: ReadonlyMap<string, number>) {
    this.#municipalityByNif = municipalityByNif;
  }

  /**
   * Reads the stored entities among these tax numbers (as parties give them), before `upsert` or `ensure` meets
   * them; each number is read once per batch.
   */
  async load(tx: SqlPort, nifs: Iterable<string>): Promise<void> {
    const wanted = new Set<string>();
    for (const given of nifs) {
      const nif = entityNif(given);
      if (nif !== null && !this.#asked.has(nif)) wanted.add(nif);
    }
    if (wanted.size === 0) return;
    for (const nif of wanted) this.#asked.add(nif);
    for (const row of await tx.query(
      `SELECT nif, name, kind, country, municipality_id FROM entities WHERE ${tx.dialect.inList('nif', '$1')}`,
      [[...wanted]],
    )) {
      this.#stored.set(String(row.nif), row);
    }
  }

  upsert(input: EntityInput): void {
    const row = listedEntity(input);
    const { nif } = row;
    const current = this.#written.get(nif) ?? this.#stored.get(nif);
    if (!current) this.summary.inserted++;
    else if (sameEntity(current, row)) {
      this.summary.unchanged++;
      return;
    } else this.summary.updated++;
    this.#written.set(nif, row);
  }

  /** The party's entity tax number (creating the entity if it is new), or null for a party without one. */
  ensure(party: Party): string | null {
    const nif = entityNif(party.nif);
    if (nif === null || this.#written.has(nif) || this.#stored.has(nif)) return nif;
    this.#written.set(nif, partyEntity(nif, party, this.#municipalityByNif));
    this.summary.inserted++;
    return nif;
  }

  /** Writes the new and changed entities, and the text rows of the new ones and of those renamed. */
  async flush(tx: SqlPort, load: BulkLoad): Promise<void> {
    const added: BulkRow[] = [];
    const changed: BulkRow[] = [];
    const indexed: string[] = [];
    const renamed: string[] = [];
    for (const entity of this.#written.values()) {
      const columns = entityColumns(entity);
      const values = ENTITY_COLUMNS.map((c) => columns[c]);
      const stored = this.#stored.get(entity.nif);
      if (!stored) added.push(values);
      else changed.push(values);
      if (!stored || stored.name !== entity.name) indexed.push(entity.nif);
      if (stored && stored.name !== entity.name) renamed.push(entity.nif);
    }
    const named = tx.dialect.inList('nif', '$1');
    if (renamed.length > 0) await load.unindexText('entities', named, [renamed]);
    await load.write('entities', ENTITY_COLUMNS, added);
    await load.write('entities', ENTITY_COLUMNS, changed, 'nif');
    if (indexed.length > 0) await load.indexText('entities', named, [indexed]);
    this.#written.clear();
  }
}
