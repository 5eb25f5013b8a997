/**
 * Entities written in a batch, as in the SQLite store: upserted from the batch's own entity list, or created on
 * first sight from a party of a contract or an announcement (then never overwritten by a later sighting). The
 * stored entities a batch names are read once (`load`); the decisions are taken in memory, in batch order, and
 * the new and changed entities written at once (`flush`), before the rows that refer to them.
 */

import type pg from 'pg';
import type { EntityInput, Party, ProcurementWriteSummary } from '../../procurement-records.js';
import { ENTITY_COLUMNS, entityColumns, listedEntity, partyEntity, sameEntity } from '../../shared/entity-row.js';
import { entityNif } from '../../shared/procurement-keys.js';
import { upsertRows } from '../copy.js';
import type { Row, Sql } from '../db.js';

export class EntityWriter {
  readonly summary: ProcurementWriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  /** Municipality ids by their own tax number: a party with one of these is the municipality. */
  readonly #municipalityByNif: ReadonlyMap<string, number>;
  readonly #stored = new Map<string, Row>();
  /** New or changed entities, as they will be written. */
  readonly #written = new Map<string, EntityInput>();

  constructor(municipalityByNif: ReadonlyMap<string, number>) {
    this.#municipalityByNif = municipalityByNif;
  }

  /** Reads the stored entities among these tax numbers (as parties give them). */
  async load(sql: Sql, nifs: Iterable<string>): Promise<void> {
    const wanted = [...new Set([...nifs].flatMap((nif) => entityNif(nif) ?? []))];
    if (wanted.length === 0) return;
    for (const row of await sql('SELECT nif, name, kind, country, municipality_id FROM entities WHERE nif = ANY($1::text[])', [wanted])) {
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

  async flush(client: pg.PoolClient): Promise<void> {
    const rows = [...this.#written.values()].map((e) => {
      const columns = entityColumns(e);
      return ENTITY_COLUMNS.map((c) => columns[c]);
    });
    const replacing = [...this.#written.keys()].some((nif) => this.#stored.has(nif));
    await upsertRows(client, 'entities', ENTITY_COLUMNS, rows, { key: 'nif', replacing });
    this.#written.clear();
  }
}
