/**
 * Real-format rows that differ from the samples the way the portal's and INE's rows do (test/fixtures/SOURCES.md,
 * "Variant rows"): the 39-field record and the minimised ones of the field reference, the API's and the portal
 * pages' spellings of amounts, periods and dates, empty and missing optional fields, several CPVs, buyers and
 * suppliers, places as the portal spells them, the Azores' and Madeira's regimes written the ways legal bases
 * write them, framework call-offs, amendments and notices; INE answers of other indicators (NUTS 2024, two
 * dimensions, a total coded H1, quarters and months, the marks of a missing value). Each row imports or is refused
 * naming its line, its id and the field; values land where the record says; a direct award is judged by its
 * regime; importing again, syncing and detecting again change nothing. On both stores.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { runDetection } from '../src/detect/run-detection.js';
import {
  type BaseImportReport,
  importBaseAmendments,
  importBaseAnnouncements,
  importBaseContracts,
} from '../src/ingest/base/import-base.js';
import { importIne } from '../src/ingest/ine/import-ine.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { PoliteClient } from '../src/ingest/sync/polite-client.js';
import { syncBase } from '../src/ingest/sync/sync-base.js';
import { syncIne } from '../src/ingest/sync/sync-ine.js';
import { AdminError } from '../src/lib/admin-error.js';
import type { ContractRecord } from '../src/store/procurement-records.js';
import type { SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { openTestStore } from './helpers/backend.js';
import { runDataCommand } from './helpers/data-cli.js';
import { type ReplayServer, startReplayServer } from './helpers/replay-server.js';
import { testDir } from './helpers/temp-dir.js';
import { startTestApp } from './helpers/test-app.js';
import { zipOf } from './helpers/zip.js';

const FIXTURE_PATH = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const FIXTURE = (name: string) => readFileSync(FIXTURE_PATH(name));
const CONTRACTS_TEXT = FIXTURE('base-contracts-variants.json').toString('utf8');
const CONTRACTS: Record<string, any>[] = JSON.parse(CONTRACTS_TEXT);
const MUNICIPALITIES = readMunicipalities();
const IMPORTED_AT = '2026-10-01T12:00:00Z';
const NOW = new Date('2026-10-01T12:00:00Z');

/** The physical line on which each record of a pretty-printed JSON array starts. */
const LINES = CONTRACTS_TEXT.split('\n').flatMap((l, i) => (l === '  {' ? [i + 1] : []));
const lineOf = (record: number) => LINES[record - 1];

async function freshStore(): Promise<Store> {
  const { store } = await openTestStore();
  await migrate(store);
  await store.saveMunicipalities(MUNICIPALITIES);
  return store;
}

async function contractsById(store: Store): Promise<Map<string, ContractRecord>> {
  return new Map((await store.listContracts({}, { limit: 1000 })).map((c) => [c.source_id, c]));
}

/** Every row read is accepted or rejected; every accepted row was inserted, updated or unchanged (or is an orphan). */
function expectBalanced(r: BaseImportReport): void {
  expect(r.accepted + r.rejected.length).toBe(r.rows_read);
  const w = r.written[r.dataset];
  expect(w.inserted + w.updated + w.unchanged + r.orphan_amendments.count).toBe(r.accepted);
}

describe('BASE contracts in the shapes real rows come in', () => {
  let store: Store;
  let report: BaseImportReport;
  let contracts: Map<string, ContractRecord>;

  beforeAll(async () => {
    store = await freshStore();
    report = await importBaseContracts(store, CONTRACTS_TEXT, {
      format: 'json',
      fileName: 'variants.json',
      now: IMPORTED_AT,
    });
    contracts = await contractsById(store);
  }, 120_000);
  afterAll(() => store.close());

  it('imports every well-formed row and refuses the others, each with its line, its id and the field at fault', () => {
    expectBalanced(report);
    expect(report.rows_read).toBe(CONTRACTS.length);
    expect(report.accepted).toBe(26);
    expect(report.written.contracts).toEqual({ inserted: 26, updated: 0, unchanged: 0 });
    expect(report.rejected).toEqual([
      {
        line: lineOf(27),
        record: 27,
        source_id: '30000901',
        reason: 'adjudicante: {"nif":"505170876","id":177,"description":"Município de Lagos"} is not text',
      },
      {
        line: lineOf(28),
        record: 28,
        source_id: '30000902',
        reason: 'precoContratual: "105.000" is ambiguous (thousands dot or decimal point?)',
      },
      {
        line: lineOf(29),
        record: 29,
        source_id: '30000903',
        reason: 'dataCelebracaoContrato: 31/02/2024 is not a date',
      },
      {
        line: lineOf(30),
        record: 30,
        source_id: '30000904',
        reason: 'adjudicatarios: NIF 508559872 fails the check digit',
      },
      { line: lineOf(31), record: 31, source_id: null, reason: 'idcontrato missing' },
      { line: lineOf(32), record: 32, source_id: '30000905', reason: 'prazoExecucao: "3 meses" is not a number' },
      {
        line: lineOf(33),
        record: 33,
        source_id: '30000001',
        reason: `idcontrato 30000001 repeats the record on line ${lineOf(4)}`,
      },
    ]);
    // Nothing of a refused row is written: its id is absent, and the repeat did not overwrite the first record.
    for (const id of ['30000901', '30000902', '30000903', '30000904', '30000905'])
      expect(contracts.has(id), id).toBe(false);
    expect(contracts.size).toBe(26);
    expect(contracts.get('30000001')?.price_eur).toBe(1_198_888.57);
  });

  it('the 39-field record of the field reference: every field where it belongs', async () => {
    const c = contracts.get('11623631') as ContractRecord;
    expect(c).toMatchObject({
      price_eur: 127_206.6,
      base_price_eur: 419_000,
      effective_price_eur: null, // 0.0 on an open contract: not reported yet
      published_on: '2025-08-05',
      awarded_on: '2025-07-02',
      signed_on: '2025-07-30',
      closed_on: null,
      execution_days: 90,
      municipalities: ['1105'], // "Portugal, Lisboa, Cascais"
      procedure_type: 'Concurso público',
      ocds_method: 'open',
      framework_agreement: null, // "NULL"
      legal_basis: 'Artigo 20.º, n.º 1, alínea a) do Código dos Contratos Públicos',
      centralized: false,
      green: false,
      announcement_number: '10331/2025',
      procedure_id: '7569044',
    });
    expect(c.cpv.map((x) => x.code)).toEqual(['34144900']);
    expect(c.buyers).toEqual([
      { nif: '507396081', name: 'EMAC - Empresa Municipal de Ambiente de Cascais, E. M., S. A.', withheld: false },
    ]);
    expect(c.competitors.map((p) => p.nif)).toEqual(['500035121', '500970602', '500239037']);
    // A municipal company is not the municipality: its entity has no municipality of its own.
    expect(await store.getEntity('507396081')).toMatchObject({ municipality: null });
  });

  it('amounts, periods and dates as the API and the portal pages write them', () => {
    expect(contracts.get('30000001')).toMatchObject({
      price_eur: 1_198_888.57, // "1.198.888,57"
      base_price_eur: 1_250_000, // "1250000,00"
      effective_price_eur: null, // "0,00" while open
      execution_days: 365, // "365"
      published_on: '2025-08-05',
    });
    expect(contracts.get('30000002')).toMatchObject({
      price_eur: 4404.08, // "4.404,08 €"
      execution_days: 260, // "260 dias"
      published_on: '2026-04-28', // "28-04-2026"
      signed_on: '2026-04-16', // "2026-04-16"
      framework_agreement: null, // "Não aplicável."
      closed_on: null, // "NULL"
      effective_price_eur: null,
      municipalities: ['0909'], // "Portugal, Guarda, Meda"
    });
    expect(contracts.get('30000003')?.signed_on).toBe('2024-01-03'); // "03/01/2024 00:00:00"
    expect(contracts.get('30000102')?.price_eur).toBe(80_000); // "80.000,00"
    expect(contracts.get('30000401')?.price_eur).toBe(25_000); // "25000,00"
    // A closed contract keeps its effective price; the minimised record of 2026 has no publication date.
    expect(contracts.get('12380006')).toMatchObject({
      price_eur: 2606,
      base_price_eur: 2606.67,
      effective_price_eur: 2606,
      closed_on: '2026-03-27',
      published_on: null,
      signed_on: '2026-01-02',
    });
  });

  it('missing and empty optional fields are nothing, not errors', () => {
    expect(contracts.get('30000004')).toMatchObject({
      procedure_type: null,
      ocds_method: null,
      contract_types: [],
      cpv: [],
      suppliers: [],
      published_on: null,
      signed_on: null,
      execution_days: null,
      municipalities: [],
      execution_places_text: null,
      legal_basis: null,
      centralized: null,
      framework_agreement: null,
      effective_price_eur: null,
      price_eur: 14_955.5,
    });
    // The minimised record without a buyer: its suppliers, one of them named with " - " inside.
    expect(contracts.get('12026866')).toMatchObject({
      buyers: [],
      price_eur: 120_310,
      municipalities: ['0313'],
      suppliers: [
        { nif: '514181435', name: 'GROWSKILLS UNIPESSOAL, LDA', withheld: false },
        { nif: '504615947', name: '1 - MEO - SERVIÇOS DE COMUNICAÇÕES E MULTIMÉDIA, S.A.', withheld: false },
      ],
    });
  });

  const severalParties =
    'several CPVs, buyers and suppliers; suppliers without a tax number stay on the contract, never as entities';
  it(severalParties, async () => {
    expect(contracts.get('30000001')?.cpv.map((x) => x.code)).toEqual(['45233140', '45233142', '45233161']);
    const joint = contracts.get('30000003') as ContractRecord;
    expect(joint.buyers.map((b) => b.nif)).toEqual(['505170876', '505309939']);
    expect(joint.suppliers.map((s) => [s.nif, s.name])).toEqual([
      [null, 'Pessoa singular'],
      [null, 'Fornecedor Sem NIF'],
      ['980245974', 'Endesa Energia, S.A. – Sucursal Portugal'],
    ]);
    // "RGPD - …": the portal withheld the person's identity; "- - …": the source simply gives no tax number.
    expect(joint.suppliers.map((s) => s.withheld)).toEqual([true, false, false]);
    expect(joint.cpv.map((x) => x.code)).toEqual(['65310000', '09310000']);
    expect(joint.centralized).toBe(true);
    expect((await store.lookupEntities('Fornecedor Sem NIF', 10)).map((e) => e.name)).not.toContain(
      'Fornecedor Sem NIF',
    );
    expect(await store.getEntity('505309939')).toMatchObject({ kind: 'municipality', municipality: '0811' });
    const buyerOf = (nif: string) => store.listContracts({ buyer: nif }, { limit: 100 });
    expect((await buyerOf('505309939')).map((c) => c.source_id)).toEqual(['30000003']);
  });

  it('places: the portal’s spellings, a place repeated, a district that is none, abroad', () => {
    expect(contracts.get('30000001')?.municipalities).toEqual(['0807', '0811', '0816']); // … "Vila Real Sto Antonio"
    expect(contracts.get('30000003')?.municipalities).toEqual(['0807', '0811']); // Lagos twice
    expect(contracts.get('30000005')?.municipalities).toEqual(['0402', '0904', '1711']); // Braganca, Fig., Sta
    expect(contracts.get('30000006')?.municipalities).toEqual(['3101']); // Calheta of Madeira
    expect(contracts.get('30000007')?.municipalities).toEqual(['4501']); // Calheta of the Azores (São Jorge)
    expect(contracts.get('30000104')?.municipalities).toEqual(['4101']); // "Regiao Autonoma dos Acores, Vila do Porto"
    // What resolves to no municipality is kept as text and counted, with the row it came from.
    expect(contracts.get('30000005')?.execution_places_text).toContain('Espanha');
    expect(report.places_unresolved).toEqual({
      count: 2,
      examples: [
        { text: 'Portugal, Distrito não determinado', line: lineOf(8), source_id: '30000005' },
        { text: 'Espanha', line: lineOf(8), source_id: '30000005' },
      ],
    });
  });

  const frameworkCallOffs =
    'framework call-offs keep their agreement; ' +
    'a regional regime named only by the record’s `regime` joins its legal basis';
  it(frameworkCallOffs, () => {
    expect(contracts.get('30000501')).toMatchObject({
      procedure_type: 'Ao abrigo de acordo-quadro (art.º 258.º)',
      ocds_method: 'direct',
      framework_agreement: 'Acordo-Quadro para a Prestação de Serviços de Vigilância e Segurança',
    });
    expect(contracts.get('30000205')?.legal_basis).toBe(
      'Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos; ' +
        'regime: Código dos Contratos Públicos (DL 111-B/2017 ) e DLR nº 34/2008/M, de 14.08',
    );
    // The national regime adds nothing the basis does not say.
    expect(contracts.get('30000001')?.legal_basis).toBe(
      'Artigo 20.º, n.º 1, alínea b) do Código dos Contratos Públicos',
    );
  });
});

describe('a whole load of every dataset, detection, and the same again', () => {
  let store: Store;
  const reports: Record<string, BaseImportReport> = {};
  let signals: Map<string, SignalRecord>;
  const signalKey = (id: string) => `procurement:direct_award_high_value:base:${id}`;

  const importAll = async (now: string) => ({
    contracts: await importBaseContracts(store, CONTRACTS_TEXT, { format: 'json', fileName: 'variants.json', now }),
    csv: await importBaseContracts(store, FIXTURE('base-contracts-variants.csv'), {
      format: 'csv',
      fileName: 'variants.csv',
      now,
    }),
    announcements: await importBaseAnnouncements(store, FIXTURE('base-announcements-variants.json'), {
      format: 'json',
      fileName: 'notices.json',
      now,
    }),
    amendments: await importBaseAmendments(store, FIXTURE('base-amendments-variants.json'), {
      format: 'json',
      fileName: 'mods.json',
      now,
    }),
  });

  beforeAll(async () => {
    store = await freshStore();
    Object.assign(reports, await importAll(IMPORTED_AT));
    await runDetection(store, { now: NOW });
    const all = await store.listSignals({ types: ['direct_award_high_value'] }, { limit: 1000 });
    signals = new Map(all.map((s) => [s.key, s]));
  }, 120_000);
  afterAll(() => store.close());

  const spreadsheetCsv =
    'a spreadsheet’s CSV (Windows-1252, “;”, cells joined with “ | ”, a quoted line break) reads like the JSON';
  it(spreadsheetCsv, async () => {
    const csv = reports.csv;
    expectBalanced(csv);
    expect(csv).toMatchObject({ format: 'csv', delimiter: ';', rows_read: 4, accepted: 4, rejected: [] });
    const c = (await contractsById(store)).get('30001003') as ContractRecord;
    expect(c.object).toBe('Requalificação da Avenida dos Descobrimentos; 2.ª fase\n(troço nascente)');
    expect(c.price_eur).toBe(1_198_888.57);
    expect(c.suppliers.map((s) => s.nif)).toEqual(['508559871', '500120501']);
    expect(c.cpv.map((x) => x.code)).toEqual(['45233140', '45233142']);
    expect(c.municipalities).toEqual(['0807', '0811']);
    expect((await contractsById(store)).get('30001004')?.municipalities).toEqual(['0816']); // "Vila Real Sto Antonio"
  });

  const regionalNotices =
    'notices: the regional journal’s numbers, a base price of “Inexistente”, a deadline from the proposal period';
  it(regionalNotices, async () => {
    const r = reports.announcements;
    expectBalanced(r);
    // The minimised record of 2026 names no publishing entity: refused, saying so.
    expect(r.rejected).toEqual([
      { line: expect.any(Number), record: 2, source_id: '100/2026', reason: 'nifEntidade missing' },
    ]);
    const byId = new Map(
      (await store.listAnnouncements({ order: 'published' }, { limit: 100 })).map((a) => [a.source_id, a]),
    );
    expect(byId.get('JORAA-96/2025')).toMatchObject({
      base_price_eur: 85_000,
      published_on: '2025-02-25',
      deadline_on: '2025-03-11',
    });
    expect(byId.get('1523/2024')).toMatchObject({
      base_price_eur: 1_250_000,
      deadline_on: '2024-03-16', // 15/02/2024 + 30 days ("30"), no DataLimitePropostas
      municipalities: ['0807'],
      district: 'Faro',
    });
    expect(byId.get('1523/2024')?.cpv.map((x) => x.code)).toEqual(['45233140', '45233142']);
    expect(byId.get('JORAA-12/2024')).toMatchObject({
      base_price_eur: null, // "Inexistente"
      deadline_on: '2024-03-11',
      buyer: { nif: '512012814', name: 'Município de Ponta Delgada', withheld: false }, // "NIF - name" in nifEntidade
      municipalities: ['4203'],
      district: 'Região Autónoma dos Açores',
    });
  });

  const amendmentShapes =
    'amendments: two on one day, a price as text, an id as a number, one without a date, orphans reported';
  it(amendmentShapes, async () => {
    const r = reports.amendments;
    expectBalanced(r);
    expect(r.rejected).toEqual([]);
    expect(r.orphan_amendments.items.map((o) => o.contract)).toEqual(['12430731', '12430731']);
    const mods = await store.listAmendments({}, { limit: 100 });
    const byId = new Map(mods.map((m) => [m.source_id, m]));
    expect(byId.get('11623631/2025-10-15/1')).toMatchObject({
      previous_price_eur: 127_206.6,
      new_price_eur: 131_022.8, // "131.022,80"
      reason: 'Artigo 370.º do Código dos Contratos Públicos',
    });
    expect(byId.get('11623631/2025-10-15/2')).toMatchObject({ previous_price_eur: 131_022.8, new_price_eur: 132_000 });
    expect(byId.get('30000001/undated/1')).toMatchObject({
      date: null,
      new_price_eur: null,
      reason: 'Prorrogação de prazo',
    });
    expect(mods).toHaveLength(3);
  });

  it('the same files again change nothing, and neither does a second detection', async () => {
    const again = await importAll('2026-10-02T12:00:00Z');
    for (const [name, r] of Object.entries(again)) {
      const w = r.written[r.dataset];
      expect(w.inserted + w.updated, name).toBe(0);
      expect(r.written.entities.inserted + r.written.entities.updated, name).toBe(0);
    }
    const second = await runDetection(store, { now: NOW });
    expect(second.signals).toMatchObject({ inserted: 0, updated: 0 });
  });

  // ------------------------------------------------------------------------------------------------ regimes

  const azoresCeiling =
    'the Azores: 75 000 € for goods and services, however the decree is written, by the basis or the buyer’s region';
  it(azoresCeiling, () => {
    expect(signals.has(signalKey('30000101'))).toBe(false); // 60 000 €, "Decreto Legislativo Regional n.º 27/2015/A"
    expect(signals.has(signalKey('30000104'))).toBe(false); // 74 000 €, "alinea a) … Regional n 27/2015/A", unaccented
    expect(signals.has(signalKey('30000106'))).toBe(false); // 60 000 €, "Dec. Legislativo Regional", buyer unplaced
    expect(signals.has(signalKey('30001001'))).toBe(false); // 74 928 €, the sample's Angra row, from CSV
    expect(signals.has(signalKey('30000105'))).toBe(false); // works, 140 000 € < 150 000 €
    const over = signals.get(signalKey('30000102')) as SignalRecord; // "alínea a) do artigo 20.º do DLR n.º 27/2015/A"
    expect(over.summary_pt).toContain('excede o limite de 75 000 €');
    expect(over.summary_pt).toContain('Região Autónoma dos Açores');
    expect(over.confidence).toBe(0.95);
    // A regional body citing the CCP, executed "Portugal, Região Autónoma dos Açores": the region tells the regime.
    const regional = signals.get(signalKey('30000103')) as SignalRecord;
    expect(regional.summary_pt).toContain(
      'excede o limite de 75 000 € do ajuste direto para bens e serviços no regime da Região Autónoma dos Açores',
    );
    expect(regional.summary_pt).not.toContain('não se apura');
  });

  it('Madeira: 27 000 €, told by the buyer, by the decree in the basis, or by the record’s regime', () => {
    expect(signals.has(signalKey('30000201'))).toBe(false); // Funchal, 25 000 €
    expect(signals.has(signalKey('30000203'))).toBe(false); // 26 000 €, "Decreto Legislativo Regional n.º 34/2008/M"
    for (const id of ['30000202', '30000204', '30000205', '30001002']) {
      const s = signals.get(signalKey(id)) as SignalRecord;
      expect(s, id).toBeDefined();
      expect(s.summary_pt, id).toContain('excede o limite de 27 000 €');
      expect(s.summary_en, id).toContain('Madeira regional regime');
    }
  });

  const presumedRegime =
    'a buyer nothing ties to a region (a municipal company, "Portugal" alone) is held to the general law’s ' +
    '20 000 €, presumed, at a lower confidence, saying so';
  it(presumedRegime, () => {
    for (const id of ['30000301', '30000302']) {
      const s = signals.get(signalKey(id)) as SignalRecord;
      expect(s.summary_pt, id).toContain('excede o limite de 20 000 €');
      expect(s.summary_pt, id).toContain('presumido (nada no registo liga a entidade aos Açores ou à Madeira)');
      expect(s.confidence, id).toBeCloseTo(0.95 - 0.1 - 0.2, 5); // no municipality, and the regime presumed
    }
  });

  it('the mainland: the CCP’s 20 000 € and 30 000 €; framework call-offs have no ceiling', () => {
    expect(signals.get(signalKey('30000401'))?.summary_pt).toContain('excede o limite de 20 000 €');
    expect(signals.has(signalKey('30000402'))).toBe(false); // works, 29 000 € < 30 000 €
    expect(signals.has(signalKey('30001004'))).toBe(false); // 19 850 €
    expect(signals.has(signalKey('30000501'))).toBe(false); // 200 000 € under art.º 258.º: not an ajuste direto
    expect([...signals.keys()].sort()).toEqual(
      ['30000102', '30000103', '30000202', '30000204', '30000205', '30000301', '30000302', '30000401', '30001002']
        .map(signalKey)
        .sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------------- INE

const POPULATION = 'ine-variant-population-0012917.json';
const HOUSING = 'ine-variant-housing-0012234.json';
const BANK = 'ine-variant-bank-valuation-0012248.json';
const idOf = (code: string) => MUNICIPALITIES.find((m) => m.code === code)?.id as number;

describe('INE answers of other indicators, through `munidata import ine`', () => {
  let store: Store;
  const importIneFile = async (args: string[]) =>
    JSON.parse(await runDataCommand(store, ['--json', 'import', 'ine', ...args]));
  const values = async (indicator: string, code: string) =>
    (await store.series({ indicator, municipalityId: idOf(code), limit: 100 })).map((p) => [p.reference_date, p.value]);

  beforeAll(async () => {
    store = await freshStore();
  }, 120_000);
  afterAll(() => store.close());

  const population0012917 =
    'population 0012917: NUTS 2024 geocodes of every level, two dimensions, the Azores and Madeira, a missing value';
  it(population0012917, async () => {
    const r = await importIneFile([FIXTURE_PATH(POPULATION)]);
    expect(r).toMatchObject({
      indicator: 'population',
      ine: { code: '0012917', variant: 'Dados', last_updated: '2026-07-17' },
      source: 'INE 0012917 — População residente (N.º)',
      rows_read: 26,
      aggregates: { country: 2, nuts1: 2, nuts2: 2, nuts3: 2, parish: 2 },
      non_total: { count: 4, by_category: { 'dim_3=1': 2, 'dim_3=2': 2 } },
      placed: { rows: 12, with_value: 11, null_value: 1, inserted: 12 },
      null_values: { by_sign: { x: 1 }, unreadable: [] },
      unplaced: [],
      warnings: [],
    });
    // The catalogue's filters (data/indicators.json): both sexes, every age.
    expect(r.dimensions).toEqual({
      dim_3: { code: 'T', label: 'HM', chosen: 'asked' },
      dim_4: { code: 'T', label: 'Total', chosen: 'asked' },
    });
    expect(r.periods).toEqual([
      { label: '2023', reference_date: '2023-12-31', rows: 11 }, // the rows of the categories taken
      { label: '2024', reference_date: '2024-12-31', rows: 11 },
    ]);
    expect(await values('population', '1312')).toEqual([
      ['2023-12-31', 267_236],
      ['2024-12-31', 270_487],
    ]);
    expect(await values('population', '1106')).toEqual([
      ['2023-12-31', 567_131],
      ['2024-12-31', 575_739],
    ]);
    expect(await values('population', '4101')).toEqual([
      ['2023-12-31', 5552],
      ['2024-12-31', 5571],
    ]);
    expect(await values('population', '3103')).toEqual([
      ['2023-12-31', 105_919],
      ['2024-12-31', null],
    ]);
    const again = await importIneFile([FIXTURE_PATH(POPULATION)]);
    expect(again.placed).toMatchObject({ rows: 12, inserted: 0, updated: 0, unchanged: 12 });
  });

  const housing0012234 =
    'housing 0012234: a code of no catalogue indicator is refused, ' +
    'forced it takes the dimension’s total by its label (H1)';
  it(housing0012234, async () => {
    await expect(importIneFile([FIXTURE_PATH(HOUSING)])).rejects.toThrow(
      /0012234, which no catalogue indicator has .*--indicator KEY/,
    );
    await expect(importIneFile([FIXTURE_PATH(HOUSING), '--indicator', 'median_housing_price_m2'])).rejects.toThrow(
      /"median_housing_price_m2" is INE 0012255 in the catalogue/,
    );
    const r = await importIneFile([FIXTURE_PATH(HOUSING), '--indicator', 'median_housing_price_m2', '--force']);
    expect(r.dimensions).toEqual({ dim_3: { code: 'H1', label: 'Total', chosen: 'label' } });
    expect(r).toMatchObject({
      rows_read: 22,
      aggregates: { country: 2 },
      non_total: { count: 12, by_category: { 'dim_3=H11': 6, 'dim_3=H12': 6 } },
      placed: { rows: 8, with_value: 6, null_value: 2 },
      null_values: { by_sign: { '¿ Dado confidencial': 2 } },
    });
    expect(r.periods.map((p: { reference_date: string }) => p.reference_date)).toEqual(['2025-12-31', '2026-03-31']);
    expect(await values('median_housing_price_m2', '1106')).toEqual([
      ['2025-12-31', 4815],
      ['2026-03-31', 4888],
    ]);

    // Another category, asked for by name: the dwellings already existing (H12).
    const existing = await importIneFile([
      FIXTURE_PATH(HOUSING),
      '--indicator',
      'median_housing_price_m2',
      '--force',
      '--dimension',
      'dim_3=H12',
    ]);
    expect(existing.dimensions).toEqual({ dim_3: { code: 'H12', label: 'Existentes', chosen: 'asked' } });
    expect(existing.placed).toMatchObject({ rows: 4, updated: 4 });
    expect(await values('median_housing_price_m2', '1106')).toEqual([
      ['2025-12-31', 4697],
      ['2026-03-31', 4750],
    ]);
    await expect(importIneFile([FIXTURE_PATH(HOUSING), '--force', '--dimension', 'H12'])).rejects.toThrow(
      /--dimension takes dim_N=CODE/,
    );
  });

  const unlabelledTotal =
    'a dimension whose total is neither coded T nor labelled: nothing written, ' +
    'and the report says which categories there were';
  it(unlabelledTotal, async () => {
    const unlabelled = JSON.parse(FIXTURE(HOUSING).toString('utf8'));
    for (const rows of Object.values(unlabelled[0].Dados) as Record<string, unknown>[][])
      for (const row of rows) delete row.dim_3_t;
    const before = await store.countObservations('median_rent_m2');
    const r = await importIne(store, unlabelled, { indicator: 'median_rent_m2', force: true });
    expect(r.placed.rows).toBe(0);
    expect(r.non_total.count).toBe(r.rows_read);
    expect(r.warnings).toContain('no municipal observation could be placed: nothing was written');
    expect(r.warnings.join('\n')).toMatch(
      new RegExp(
        String.raw`every row is of another category than dim_3=T: dim_3=H1 \(10 rows\), dim_3=H11 \(6 rows\)` +
          '.*choose the category that is the total with --dimension dim_N=CODE',
      ),
    );
    expect(await store.countObservations('median_rent_m2')).toBe(before);
  });

  it('bank valuation 0012248: months, €/m², and every mark of a missing value stored as a null point', async () => {
    const r = await importIneFile([FIXTURE_PATH(BANK)]);
    expect(r).toMatchObject({
      indicator: 'median_bank_valuation_m2',
      rows_read: 18,
      aggregates: { country: 2, nuts1: 2, nuts2: 2, nuts3: 2, parish: 0 },
      placed: { rows: 10, with_value: 5, null_value: 5, inserted: 10 },
      null_values: { by_sign: { '¿ Dado confidencial': 1, '-': 2, '(no sign)': 2 }, unreadable: [] },
    });
    expect(r.dimensions).toEqual({ dim_3: { code: 'T', label: 'Total', chosen: 'T' } });
    expect(await values('median_bank_valuation_m2', '1609')).toEqual([
      ['2026-06-30', null],
      ['2026-07-31', 1522],
    ]);
    expect(await values('median_bank_valuation_m2', '3201')).toEqual([
      ['2026-06-30', null],
      ['2026-07-31', null],
    ]);
  });
});

// ---------------------------------------------------------------------------------------- the command line

describe('`munidata import base` tells the dataset from the file, and reads the portal’s ZIP', () => {
  const dir = testDir('munidata-variants-');
  let store: Store;
  beforeAll(async () => {
    store = await freshStore();
  }, 120_000);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusedRowsReported =
    'contracts, notices and modifications by their fields; ' +
    'the human report lists each refused row with its line and id';
  it(refusedRowsReported, async () => {
    const contracts = JSON.parse(
      await runDataCommand(store, ['--json', 'import', 'base', FIXTURE_PATH('base-contracts-variants.json')]),
    );
    expect(contracts).toMatchObject({ dataset: 'contracts', rows_read: 33, accepted: 26 });
    const notices = JSON.parse(
      await runDataCommand(store, ['--json', 'import', 'base', FIXTURE_PATH('base-announcements-variants.json')]),
    );
    expect(notices).toMatchObject({ dataset: 'announcements', rows_read: 4, accepted: 3 });
    const mods = JSON.parse(
      await runDataCommand(store, ['--json', 'import', 'base', FIXTURE_PATH('base-amendments-variants.json')]),
    );
    expect(mods).toMatchObject({ dataset: 'amendments', rows_read: 5, accepted: 5 });
    const csv = JSON.parse(
      await runDataCommand(store, ['--json', 'import', 'base', FIXTURE_PATH('base-contracts-variants.csv')]),
    );
    expect(csv).toMatchObject({ dataset: 'contracts', format: 'csv', accepted: 4 });

    const human = await runDataCommand(store, ['import', 'base', FIXTURE_PATH('base-contracts-variants.json')]);
    expect(human).toContain('rows read 33: 26 accepted, 7 rejected');
    expect(human).toContain('contracts: 0 inserted, 0 updated, 26 unchanged');
    expect(human).toContain(`line ${lineOf(32)} [30000905]: prazoExecucao: "3 meses" is not a number`);
    expect(human).toContain(`line ${lineOf(31)}: idcontrato missing`);

    const other = join(dir, 'entidades.json');
    writeFileSync(other, JSON.stringify([{ nifEntidade: '512021155', desigEntidade: 'IAMA', numContratos: 505 }]));
    await expect(runDataCommand(store, ['import', 'base', other])).rejects.toThrow(
      /no BASE file we know.*it has: nifEntidade/,
    );
  });

  const yearZip =
    'a year’s ZIP as dados.gov.pt publishes it imports like the JSON inside; a damaged archive is refused, ' +
    'nothing written';
  it(yearZip, async () => {
    const fresh = await freshStore();
    try {
      const zip = join(dir, 'contratos2025.zip');
      writeFileSync(zip, zipOf('Contratos2025.json', FIXTURE('base-contracts-variants.json')));
      const report = JSON.parse(await runDataCommand(fresh, ['--json', 'import', 'base-contracts', zip]));
      expect(report).toMatchObject({
        file: `${zip}:Contratos2025.json`,
        dataset: 'contracts',
        rows_read: 33,
        accepted: 26,
      });
      expect(report.written.contracts.inserted).toBe(26);

      const damaged = join(dir, 'cortado.zip');
      writeFileSync(damaged, readFileSync(zip).subarray(0, 200));
      await expect(runDataCommand(fresh, ['import', 'base', damaged])).rejects.toThrow(AdminError);
      await expect(runDataCommand(fresh, ['import', 'base', damaged])).rejects.toThrow(/cortado\.zip: ZIP: /);
      // The portal's XLSX copy of a year is a ZIP as well: refused, saying what to take instead.
      const workbook = join(dir, 'contratos2025.xlsx');
      writeFileSync(workbook, zipOf('xl/workbook.xml', Buffer.from('<workbook/>')));
      await expect(runDataCommand(fresh, ['import', 'base', workbook])).rejects.toThrow(
        /is an Excel workbook \(XLSX\), which is not read/,
      );
      expect(await fresh.listContracts({}, { limit: 100 })).toHaveLength(26);
    } finally {
      await fresh.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------- syncing

describe('`munidata sync` over the variants, replayed by a local server', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = () => new PoliteClient({ pauseMs: 0, baseDelayMs: 1, retries: 2, sleep: async () => {} });

  const syncIneCategories =
    'sync ine asks for the catalogue’s categories one period at a time and stores what the import stores';
  it(syncIneCategories, async () => {
    const answer = JSON.parse(FIXTURE(POPULATION).toString('utf8'))[0];
    server = await startReplayServer((url) => {
      const year = url.searchParams.get('Dim1')?.replace(/^S7A/, '') ?? '';
      if (!(year in answer.Dados))
        return {
          body: JSON.stringify([{ IndicadorCod: '0012917', Sucesso: { Falso: [{ Msg: 'Dados não disponíveis' }] } }]),
        };
      return { body: JSON.stringify([{ ...answer, Dados: { [year]: answer.Dados[year] } }]) };
    });
    const store = await freshStore();
    try {
      const report = await syncIne(store, {
        client: client(),
        baseUrl: server.url,
        indicators: ['population'],
        since: '2023',
        now: new Date('2025-06-01T00:00:00Z'),
      });
      expect(report.ok).toBe(true);
      expect(report.indicators[0].periods.map((p) => [p.period, p.status, p.inserted])).toEqual([
        ['2023', 'imported', 6],
        ['2024', 'imported', 6],
        ['2025', 'not published', 0],
      ]);
      for (const path of server.requests) expect(path).toMatch(/varcd=0012917&Dim1=S7A202[345]&lang=PT&Dim3=T&Dim4=T$/);
      expect(
        (await store.series({ indicator: 'population', municipalityId: idOf('1312'), limit: 10 })).map((p) => p.value),
      ).toEqual([267_236, 270_487]);
    } finally {
      await store.close();
    }
  });

  it('sync base imports the variants’ ZIP whole: the same rows accepted and refused as the import', async () => {
    const zip = zipOf('Contratos2025.json', FIXTURE('base-contracts-variants.json'));
    server = await startReplayServer((url) => {
      if (url.pathname.includes('contratos-de')) {
        return {
          body: JSON.stringify({
            resources: [
              { title: 'Contratos 2025 (JSON)', format: 'zip', url: `${server?.url}/files/contratos2025.zip` },
            ],
          }),
        };
      }
      if (url.pathname.startsWith('/api/1/datasets/')) return { body: JSON.stringify({ resources: [] }) };
      return { body: zip };
    });
    const store = await freshStore();
    try {
      const report = await syncBase(store, {
        client: client(),
        baseUrl: `${server.url}/api/1/datasets`,
        since: '2025',
        now: NOW,
      });
      expect(report.ok).toBe(true);
      expect(report.files).toEqual([
        expect.objectContaining({
          dataset: 'contracts',
          year: 2025,
          status: 'imported',
          rows_read: 33,
          accepted: 26,
          rejected: 7,
          inserted: 26,
        }),
      ]);
      expect((await store.listContracts({ source: 'base' }, { limit: 100 })).length).toBe(26);
    } finally {
      await store.close();
    }
  });
});

// -------------------------------------------------------------------------------------------- the answers

describe('what a caller reads after the import and `munidata detect`', () => {
  const regionalSignals =
    'REST: the regional contracts’ signals name their regime, and the unplaced ones say theirs is presumed';
  it(regionalSignals, async () => {
    const { store, dbPath } = await openTestStore();
    await migrate(store);
    await store.saveMunicipalities(MUNICIPALITIES);
    await importBaseContracts(store, CONTRACTS_TEXT, { format: 'json', fileName: 'variants.json', now: IMPORTED_AT });
    await runDetection(store, { now: NOW });
    const app = await startTestApp({ store, dbPath });
    try {
      const azores = await app.get('/v1/signals?type=direct_award_high_value&municipality=ponta-delgada');
      expect(azores.status).toBe(200);
      expect(azores.json.items.map((s: { title_pt: string }) => s.title_pt)).toEqual([
        'Ajuste direto de 80 000 €: Aquisição de hipoclorito de sódio para tratamento de água ' +
          '(Município de Ponta Delgada)',
      ]);
      expect(azores.json.items[0].synthetic).toBe(false);
      const funchal = await app.get('/v1/signals?type=direct_award_high_value&municipality=Funchal');
      expect(funchal.json.items).toHaveLength(1);
      expect(funchal.json.items[0].summary_pt).toContain(
        'excede o limite de 27 000 € do ajuste direto para bens e serviços no regime da Região Autónoma da Madeira',
      );
      const all = await app.get('/v1/signals?type=direct_award_high_value&limit=100');
      const presumed = all.json.items.filter((s: { summary_pt: string }) => s.summary_pt.includes('presumido'));
      expect(
        presumed.map((s: { municipality_id: unknown; amount_eur: number }) => [s.municipality_id, s.amount_eur]).sort(),
      ).toEqual([
        [null, 50_000],
        [null, 90_000],
      ]);
      expect(presumed[0].confidence).toBeLessThan(azores.json.items[0].confidence);

      const list = await app.get('/v1/procurement/contracts?source=base&municipality=meda');
      expect(list.json.items).toHaveLength(1);
      expect(list.json.items[0]).toMatchObject({ price_eur: 4404.08, synthetic: false });
      const detail = await app.get(`/v1/procurement/contracts/${list.json.items[0].id}`);
      expect(detail.json).toMatchObject({ execution_days: 260, framework_agreement: null, signed_on: '2026-04-16' });
    } finally {
      await app.close();
    }
  });
});
