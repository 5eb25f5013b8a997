/**
 * A buyer's year as supplier concentration sums it (Store.buyerPrices, docs/integrity.md): each contract's price and
 * its sole supplier, read from the buyers' rows of contract_parties, which carry the contract's source and sole
 * supplier (schema/procurement.ts, BUYER_YEARS). Written so by every import, and filled in by migration 118 for the
 * contracts a store held before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_SCHEMA } from '../src/store/postgres/migrate.js';
import { buyerPrices } from '../src/store/procurement/buyer-prices.js';
import type { BuyerPriceRecord, ContractInput, Party } from '../src/store/procurement-records.js';
import { applyMigrations } from '../src/store/sql/migration.js';
import type { SqlPort } from '../src/store/sql/port.js';
import { SQLITE_SCHEMA } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { onPostgres, openTestPort } from './helpers/backend.js';
import { contractInput, IMPORTED_AT, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';

const BUYER: Party = { nif: withCheckDigit('50600000'), name: 'Município de Exemplo' };
const OTHER_BUYER: Party = { nif: withCheckDigit('50600001'), name: 'Freguesia de Exemplo' };
const [ONE, TWO] = [withCheckDigit('51900010'), withCheckDigit('51900011')].map((nif, i) => ({
  nif,
  name: `Fornecedor ${i + 1}, Lda.`,
}));
const UNNUMBERED: Party = { nif: '', name: 'Empresa sem NIF' };

function contract(id: string, suppliers: Party[], changes: Partial<ContractInput> = {}): ContractInput {
  return contractInput(id, {
    procedure_type: 'Ajuste Direto Regime Geral',
    ocds_method: 'direct',
    buyers: [BUYER],
    suppliers,
    price_eur: 1_000,
    published_on: '2024-03-01',
    signed_on: '2024-02-20',
    execution_days: 30,
    ...changes,
  });
}

const YEAR = { from: '2024-01-01', to: '2024-12-31' };
const bySourceId = (rows: readonly BuyerPriceRecord[], ids: Map<number, string>) =>
  Object.fromEntries(rows.map((r) => [ids.get(r.id), r.sole_supplier]));

describe('a buyer year as the store reads it', () => {
  let store: Store;
  const ids = new Map<number, string>();
  beforeAll(async () => {
    ({ store } = await freshStore());
    await store.writeProcurement({
      contracts: [
        contract('one', [ONE]),
        contract('two', [ONE, TWO], { price_eur: 2_000 }),
        contract('unnumbered', [UNNUMBERED]),
        contract('none', []),
        contract('joint', [TWO], { buyers: [BUYER, OTHER_BUYER] }),
        contract('last-year', [ONE], { published_on: '2023-05-01' }),
        contract('undated', [TWO], { published_on: null, signed_on: '2024-06-01' }),
        contract('demo', [ONE], { source: 'demo' }),
      ],
      announcements: [],
      amendments: [],
    });
    for (const c of await store.listContracts({}, { limit: 100 })) ids.set(c.id, c.source_id);
  });
  afterAll(async () => store?.close());

  it('gives each contract of its year its one supplier; none for several, none, or one without a number', async () => {
    const year = await store.buyerPrices('base', BUYER.nif, YEAR);
    expect(bySourceId(year, ids)).toEqual({ one: ONE.nif, two: null, unnumbered: null, none: null, joint: TWO.nif });
    expect(year.find((r) => ids.get(r.id) === 'two')?.price_eur).toBe(2_000);
  });

  it('keeps to the source asked for and to the buyer, a joint contract under each of its buyers', async () => {
    expect(bySourceId(await store.buyerPrices('demo', BUYER.nif, YEAR), ids)).toEqual({ demo: ONE.nif });
    expect(bySourceId(await store.buyerPrices('base', OTHER_BUYER.nif, YEAR), ids)).toEqual({
      joint: TWO.nif,
    });
  });

  it('reads a contract without a publication date with its signing date', async () => {
    const [undated] = await store.buyerPrices('base', BUYER.nif, 'undated');
    expect({ id: ids.get(undated.id), signed_on: undated.signed_on, sole: undated.sole_supplier }).toEqual({
      id: 'undated',
      signed_on: '2024-06-01',
      sole: TWO.nif,
    });
  });

  it('follows a contract whose suppliers change', async () => {
    await store.writeProcurement({ contracts: [contract('two', [TWO], { price_eur: 2_000 })], announcements: [] });
    const year = await store.buyerPrices('base', BUYER.nif, YEAR);
    expect(bySourceId(year, ids).two).toBe(TWO.nif);
  });
});

describe('migration 118 on a store that already holds contracts', () => {
  const SCHEMA = onPostgres ? POSTGRES_SCHEMA : SQLITE_SCHEMA;
  const VERSION = 118;
  const at = () => '2026-12-02T00:00:00.000Z';
  let port: SqlPort;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ port, close } = await openTestPort());
    await applyMigrations(
      port,
      SCHEMA.filter((m) => m.version < VERSION),
      at,
    );
  });
  afterAll(async () => close?.());

  async function insert(sourceId: string, parties: [string, Party][]): Promise<number> {
    await port.run(
      `INSERT INTO contracts (source, source_id, fingerprint, object, contract_types, published_on, price_eur,
         search_text, imported_at)
       VALUES ('base', $1, 'f', 'Obras', $2, '2024-03-01', 500, 'obras', $3)`,
      [sourceId, onPostgres ? ['Empreitadas'] : '["Empreitadas"]', IMPORTED_AT],
    );
    const [row] = await port.query('SELECT id FROM contracts WHERE source_id = $1', [sourceId]);
    const id = Number(row.id);
    for (const [position, [role, party]] of parties.entries()) {
      await port.run(
        `INSERT INTO contract_parties (contract_id, role, position, nif, name, published_on, price_eur)
         VALUES ($1, $2, $3, $4, $5, '2024-03-01', 500)`,
        [id, role, position, party.nif, party.name],
      );
    }
    return id;
  }

  it('fills in the buyers rows: the contract source and its sole supplier, as an import writes them', async () => {
    for (const party of [BUYER, ONE, TWO]) {
      await port.run(
        `INSERT INTO entities (nif, name, kind, name_key, search_text) VALUES ($1, $2, 'company', $2, $2)`,
        [party.nif, party.name],
      );
    }
    const one = await insert('one', [
      ['buyer', BUYER],
      ['supplier', ONE],
    ]);
    const two = await insert('two', [
      ['buyer', BUYER],
      ['supplier', ONE],
      ['supplier', TWO],
    ]);
    const applied = await applyMigrations(port, SCHEMA, at);
    expect(applied.map((m) => m.version)).toContain(VERSION);

    const year = await buyerPrices(port, 'base', BUYER.nif, YEAR);
    expect(year.map((r) => [r.id, r.sole_supplier])).toEqual([
      [two, null],
      [one, ONE.nif],
    ]);
    // A supplier's row is not a buyer's: it carries neither.
    const suppliers = await port.query(
      "SELECT source, sole_supplier FROM contract_parties WHERE role = 'supplier' AND contract_id = $1",
      [one],
    );
    expect(suppliers).toEqual([{ source: null, sole_supplier: null }]);
  });
});
