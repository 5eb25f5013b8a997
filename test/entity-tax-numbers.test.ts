/**
 * What an entity's tax number lets the service say (docs/data.md, "Placeholders and what a tax number cannot tell"),
 * with the two parties of the real Portal BASE file that showed it: `000000000 - Whistleblower Software ApS` (nine
 * digits no one holds, once served as a Portuguese company) and `017-36-7441 - Frederick C. Turner, Jr.` (a natural
 * person under a foreign id, served as a company). Through the API, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../src/core/operation.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { ContractInput, Party } from '../src/store/procurement-records.js';
import { contractInput, withCheckDigit } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

const PORTO = readMunicipalities().find((m) => m.code === '1312') ?? readMunicipalities()[0];
const PLACEHOLDER: Party = { nif: '000000000', name: 'Whistleblower Software ApS' };
const FOREIGN_PERSON: Party = { nif: '017-36-7441', name: 'Frederick C. Turner, Jr.' };
const WITHHELD: Party = { nif: '', name: 'RGPD - Maria Silva' };

function contract(id: string, supplier: Party): ContractInput {
  return contractInput(id, {
    procedure_type: 'Ajuste Direto Regime Geral',
    ocds_method: 'direct',
    cpvs: ['72000000'],
    buyers: [{ nif: PORTO.nif, name: `Município do ${PORTO.name}` }],
    suppliers: [supplier],
    price_eur: 1867,
    published_on: '2024-02-20',
    signed_on: '2024-02-15',
    execution_days: 365,
    municipality_ids: [PORTO.id],
  });
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  const fresh = await freshStore();
  await fresh.store.writeProcurement({
    contracts: [
      contract('10587810', PLACEHOLDER),
      contract('10576111', FOREIGN_PERSON),
      contract('10500001', WITHHELD),
    ],
    announcements: [],
    amendments: [],
  });
  t = await startTestApp({ store: fresh.store, dbPath: fresh.dbPath });
  key = t.keys.premium;
}, 120_000);
afterAll(() => t?.close());

const get = async (path: string) => {
  const res = await t.get(path, { key });
  expect(res.status, res.body.slice(0, 300)).toBe(200);
  return res.json;
};

describe('entities: what the tax number says, and what it does not', () => {
  it('does not present the placeholder 000000000 as a Portuguese tax number', async () => {
    const entity = await get('/v1/procurement/entities/000000000');
    expect(entity).toMatchObject({
      name: 'Whistleblower Software ApS',
      country: null,
      nif_kind: 'placeholder',
      kind_assumed: true,
    });
    expect(entity.note).toMatch(/^000000000 is not a tax number anyone holds: the portal shows it where none/);
    const listed = (await get('/v1/procurement/entities?q=Whistleblower')).items;
    expect(listed.map((e: { country: string | null; nif_kind: string }) => [e.country, e.nif_kind])).toEqual([
      [null, 'placeholder'],
    ]);
    // The lookup, where a typed name or number is resolved to an entity, says it too (the same words).
    for (const q of ['Whistleblower', '000000000']) {
      const [entry] = await get(`/v1/procurement/lookup/entities?q=${q}`);
      expect(entry, q).toMatchObject({ nif: '000000000', nif_kind: 'placeholder', kind_assumed: true });
      expect(entry.note, q).toBe(entity.note);
    }
    // OCDS names the party rather than filing it in the Portuguese tax register.
    const release = JSON.stringify(await get('/v1/procurement/ocds/releases?supplier=000000000'));
    expect(release).not.toContain('PT-NIF-000000000');
    expect(release).toContain('"id":"NAME-whistleblower-software-aps"');
  });

  it('says the kind of a foreign id is a default, not a finding', async () => {
    const entity = await get('/v1/procurement/entities/017-36-7441');
    expect(entity).toMatchObject({ kind: 'company', country: null, nif_kind: 'foreign', kind_assumed: true });
    expect(entity.note).toMatch(/whether the holder is a company or a natural person/);
    const [entry] = await get('/v1/procurement/lookup/entities?q=Frederick%20Turner');
    expect(entry).toMatchObject({ nif: '017-36-7441', nif_kind: 'foreign', kind_assumed: true, note: entity.note });
  });

  it('has nothing to note of a Portuguese number, whose kind it reads', async () => {
    const council = await get(`/v1/procurement/entities/${PORTO.nif}`);
    expect(council).toMatchObject({ kind: 'municipality', country: 'PT', nif_kind: 'portuguese' });
    expect(council).toMatchObject({ kind_assumed: false, note: null });
    const [entry] = await get(`/v1/procurement/lookup/entities?q=${PORTO.nif}`);
    expect(entry).toMatchObject({ nif: PORTO.nif, nif_kind: 'portuguese', kind_assumed: false, note: null });
  });
});

describe('contract parties: the same words as their entities', () => {
  const facts = ({ nif_kind, kind_assumed, note }: Record<string, unknown>) => ({ nif_kind, kind_assumed, note });

  it('marks the supplier 000000000 a placeholder, on the list and the detail, as its entity does', async () => {
    const entity = await get('/v1/procurement/entities/000000000');
    const [listed] = (await get('/v1/procurement/contracts?supplier=000000000')).items;
    expect(listed.suppliers).toHaveLength(1);
    expect(listed.suppliers[0]).toMatchObject({ nif: '000000000', name: PLACEHOLDER.name, withheld: false });
    expect(facts(listed.suppliers[0])).toEqual(facts(entity));
    const detail = await get(`/v1/procurement/contracts/${listed.id}`);
    expect(facts(detail.suppliers[0])).toEqual(facts(entity));
    // The council that bought is a Portuguese number: nothing to note.
    expect(facts(detail.buyers[0])).toEqual({ nif_kind: 'portuguese', kind_assumed: false, note: null });
  });

  it('says a foreign id is one; a withheld person has no number, and so nothing to say of one', async () => {
    const entity = await get('/v1/procurement/entities/017-36-7441');
    const [foreign] = (await get('/v1/procurement/contracts?supplier=017-36-7441')).items;
    expect(facts(foreign.suppliers[0])).toEqual(facts(entity));
    const withheld = (await get('/v1/procurement/contracts')).items.flatMap((c: any) => c.suppliers);
    expect(withheld.find((p: any) => p.withheld)).toEqual({
      nif: null,
      name: 'Maria Silva',
      withheld: true,
      nif_kind: null,
      kind_assumed: null,
      note: null,
    });
  });
});

describe('a mistyped tax number is refused as one, on every channel', () => {
  // Porto's own number with its last digit changed: nine digits that no record can hold (the importer refuses them).
  const last = Number(PORTO.nif[8]);
  const MISTYPED = `${PORTO.nif.slice(0, 8)}${(last + 1) % 10}`;
  const op = (name: string) => t.app.registry.get(name) as AnyOperation;
  const CALLS: [string, Record<string, unknown>, string][] = [
    ['procurement_entity_profile', { nif: MISTYPED }, 'nif'],
    ['procurement_entity_red_flags', { nif: MISTYPED, from: '2024-01-01' }, 'nif'],
    ['procurement_contracts', { buyer: MISTYPED }, 'buyer'],
    ['procurement_contracts', { supplier: MISTYPED }, 'supplier'],
    ['procurement_ocds_releases', { buyer: MISTYPED }, 'buyer'],
  ];

  it('answers 422 naming the parameter and the check digit, not "no such entity" or an empty list', async () => {
    for (const [name, input, field] of CALLS) {
      for (const channel of CHANNEL_NAMES) {
        const answer = await callOn(t, channel, op(name), input, key);
        const where = `${name} ${field} on ${channel}`;
        expect(answer?.kind, `${where}: ${answer?.body}`).toBe('validation-error');
        expect(answer?.fields, where).toEqual([field]);
        expect(answer?.formProblem, where).toBeUndefined();
        expect(answer?.body, where).toContain('check digit');
      }
    }
    const rest = await t.get(`/v1/procurement/entities/${MISTYPED}/red-flags`, { key });
    expect(rest.status).toBe(422);
    expect(rest.json.detail).toBe(
      'nif: fails the check digit (the ninth, computed from the first eight): check the number',
    );
  });

  it('still looks up a number that passes, a placeholder and a foreign id', async () => {
    expect((await t.get(`/v1/procurement/entities/${PORTO.nif}/red-flags`, { key })).status).toBe(200);
    expect((await t.get('/v1/procurement/contracts?supplier=000000000', { key })).status).toBe(200);
    expect((await t.get('/v1/procurement/entities/017-36-7441', { key })).status).toBe(200);
    // A number that passes and that no record names is still not found.
    const unknown = await t.get(`/v1/procurement/entities/${withCheckDigit('50999999')}/red-flags`, { key });
    expect(unknown.status).toBe(404);
  });
});
