/**
 * Portal BASE importers: the value parsers, the file readers, and whole imports into a real in-memory store —
 * the real sample in test/fixtures (SOURCES.md there), the reference's example records, and records written here in the
 * same
 * formats (JSON and CSV). Expected values come from the source texts and our data files, not from a run.
 */

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { parseCpv } from '../src/ingest/base/cpv.js';
import {
  BaseFileError,
  type BaseImportReport,
  importBaseAmendments,
  importBaseAnnouncements,
  importBaseContracts,
} from '../src/ingest/base/import-base.js';
import { parseParty } from '../src/ingest/base/parties.js';
import { makePlaceResolver, readPlaceAliases } from '../src/ingest/base/places.js';
import { ocdsMethod } from '../src/ingest/base/procedure.js';
import { readBaseFile } from '../src/ingest/base/read-file.js';
import { amount, date, euros, FieldError, items, text, wholeNumber, yesNo } from '../src/ingest/base/values.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { AdminError } from '../src/lib/admin-error.js';
import { countryFromNif, isValidNif, kindFromNif } from '../src/lib/nif.js';
import type { ContractRecord } from '../src/store/procurement-records.js';
import type { Store } from '../src/store/store.js';
import { openTestStore } from './helpers/backend.js';
import { runDataCommand as cli } from './helpers/data-cli.js';
import { testDir } from './helpers/temp-dir.js';

const FIXTURE = (name: string) => new URL(`fixtures/${name}`, import.meta.url);
const SAMPLE_TEXT = readFileSync(FIXTURE('base-contracts-sample.json'), 'utf8');
const SAMPLE: Record<string, any>[] = JSON.parse(SAMPLE_TEXT);
const REFERENCE = JSON.parse(readFileSync(FIXTURE('base-field-reference.json'), 'utf8'));
const MUNICIPALITIES = readMunicipalities();
const NOW = '2026-03-01T12:00:00Z';
const LATER = '2026-03-02T12:00:00Z';

const byCode = (code: string) => {
  const m = MUNICIPALITIES.find((x) => x.code === code);
  if (!m) throw new Error(`no municipality ${code}`);
  return m;
};

async function freshStore(): Promise<Store> {
  const { store } = await openTestStore();
  await migrate(store);
  await store.saveMunicipalities(MUNICIPALITIES);
  return store;
}

async function allContracts(store: Store): Promise<Map<string, ContractRecord>> {
  const rows = await store.listContracts({}, { limit: 1000 });
  return new Map(rows.map((r) => [r.source_id, r]));
}

/** Every row read is accepted or rejected; every accepted row was inserted, updated or unchanged (or is an orphan). */
function expectBalanced(r: BaseImportReport): void {
  expect(r.accepted + r.rejected.length).toBe(r.rows_read);
  const w = r.written[r.dataset];
  expect(w.inserted + w.updated + w.unchanged + r.orphan_amendments.count).toBe(r.accepted);
}

/** The physical line on which each top-level element of a pretty-printed JSON array starts. */
function elementLinesOf(json: string): number[] {
  return json
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l === '  {')
    .map(([, n]) => n);
}

// ------------------------------------------------------------------------------------------------ values

describe('values', () => {
  it('reads DD/MM/YYYY (with or without a time) and ISO dates, and refuses dates that do not exist', () => {
    expect(date('04/01/2024')).toBe('2024-01-04');
    expect(date('21/04/2026 00:00:00')).toBe('2026-04-21');
    expect(date('2025-07-30')).toBe('2025-07-30');
    expect(date('29/02/2024')).toBe('2024-02-29');
    expect(date('')).toBeNull();
    expect(date('NULL')).toBeNull();
    expect(date(null)).toBeNull();
    for (const bad of ['31/02/2024', '29/02/2023', '00/01/2024', '12/13/2024', '2024/01/04', 'ontem', '45295']) {
      expect(() => date(bad), bad).toThrow(FieldError);
    }
    expect(() => date('31/02/2024')).toThrow('31/02/2024 is not a date');
  });

  it('reads Sim/Não/Nao in any case', () => {
    expect(yesNo('Sim')).toBe(true);
    expect(yesNo('SIM')).toBe(true);
    expect(yesNo('Não')).toBe(false);
    expect(yesNo('nao')).toBe(false);
    expect(yesNo('NÃO')).toBe(false);
    expect(yesNo('NULL')).toBeNull();
    expect(yesNo('')).toBeNull();
    expect(() => yesNo('Talvez')).toThrow(FieldError);
  });

  it('treats NULL, empty, "-", Inexistente and the portal’s "Não aplicável." as nothing', () => {
    for (const nothing of [
      'NULL',
      'null',
      '',
      '  ',
      '-',
      'Inexistente',
      'Não aplicável.',
      'Nao aplicavel',
      null,
      undefined,
    ])
      expect(text(nothing)).toBeNull();
    expect(text('  Aquisição de serviços ')).toBe('Aquisição de serviços');
    expect(text('HIGINO PINHEIRO &amp; IRMÃO, LDA')).toBe('HIGINO PINHEIRO & IRMÃO, LDA');
  });

  it('reads amounts as JSON numbers or text with a decimal comma and thousands dots', () => {
    expect(amount(121896.0)).toBe(121896);
    expect(amount('105.000,00')).toBe(105000);
    expect(amount('105000,00')).toBe(105000);
    expect(amount('419000.0')).toBe(419000);
    expect(amount('85000.00')).toBe(85000);
    expect(amount('1.234.567')).toBe(1234567);
    expect(amount('1.234.567,89')).toBe(1234567.89);
    expect(amount('1,234,567.89')).toBe(1234567.89);
    expect(amount('2606,5')).toBe(2606.5);
    expect(amount('0.500')).toBe(0.5);
    expect(amount('Inexistente')).toBeNull();
    expect(() => amount('105.000')).toThrow('ambiguous');
    expect(() => amount('cento e cinco')).toThrow('is not a number');
    expect(() => euros('-5,00')).toThrow('negative');
    expect(euros('38015,434')).toBe(38015.43);
    expect(wholeNumber('1096')).toBe(1096);
    expect(wholeNumber(90.0)).toBe(90);
    expect(() => wholeNumber('12,5')).toThrow('whole number');
    // Periods as the portal's pages write them; another unit is refused, not converted.
    expect(wholeNumber('260 dias')).toBe(260);
    expect(wholeNumber('1 dia')).toBe(1);
    expect(amount('4.404,08 €')).toBe(4404.08);
    expect(() => wholeNumber('3 meses')).toThrow('"3 meses" is not a number');
  });

  it('splits multi-valued cells on | (and on ; when every piece is an item)', () => {
    expect(items(['a', 'NULL', 'b'])).toEqual(['a', 'b']);
    expect(items('Aquisição de bens móveis | Aquisição de serviços')).toEqual([
      'Aquisição de bens móveis',
      'Aquisição de serviços',
    ]);
    expect(items('30230000-0 - Equipamento; 48000000-8 - Software', (p) => /^\d{8}/.test(p))).toEqual([
      '30230000-0 - Equipamento',
      '48000000-8 - Software',
    ]);
    expect(items('501 - A; B Lda', (p) => /^\d{3} -/.test(p))).toEqual(['501 - A; B Lda']);
    expect(items('["x","y"]')).toEqual(['x', 'y']);
    expect(items('NULL')).toEqual([]);
  });
});

describe('tax numbers and parties', () => {
  it('checks the NIF mod-11 check digit', () => {
    for (const ok of ['506899250', '507396081', '500035121', '980245974', '512021155', '123456789'])
      expect(isValidNif(ok), ok).toBe(true);
    for (const bad of ['506899251', '507396080', '12345678', '5073960810', 'abcdefghi'])
      expect(isValidNif(bad), bad).toBe(false);
    // All 308 municipality NIFs pass (SOURCES.md says so).
    expect(MUNICIPALITIES.every((m) => isValidNif(m.nif))).toBe(true);
  });

  it('reads the glued forms, keeping " - " inside names', () => {
    expect(parseParty('507396081 - EMAC - Empresa Municipal de Ambiente de Cascais, E. M., S. A.')).toEqual({
      kind: 'identified',
      nif: '507396081',
      name: 'EMAC - Empresa Municipal de Ambiente de Cascais, E. M., S. A.',
      foreign: false,
    });
    expect(parseParty('500035121-Caetano Formula, S.A.')).toMatchObject({
      nif: '500035121',
      name: 'Caetano Formula, S.A.',
    });
    expect(parseParty('500970602-RENAULT PORTUGAL SA ')).toMatchObject({
      nif: '500970602',
      name: 'RENAULT PORTUGAL SA',
    });
    expect(parseParty('504615947 - 1 - MEO - SERVIÇOS DE COMUNICAÇÕES E MULTIMÉDIA, S.A.')).toMatchObject({
      nif: '504615947',
      name: '1 - MEO - SERVIÇOS DE COMUNICAÇÕES E MULTIMÉDIA, S.A.',
    });
    expect(parseParty('- - Fornecedor Sem NIF')).toEqual({ kind: 'unidentified', name: 'Fornecedor Sem NIF' });
    expect(parseParty('RGPD - Pessoa singular')).toEqual({ kind: 'anonymised', name: 'RGPD - Pessoa singular' });
    expect(parseParty('ESB12345678 - Empresa Española SL')).toMatchObject({
      kind: 'identified',
      nif: 'ESB12345678',
      foreign: true,
    });
    // Real rows (BASE, February 2024): a foreign id with dashes is the id, not its first digits.
    expect(parseParty('52-0955532 - American Geophysical Union (AGU)')).toMatchObject({
      nif: '52-0955532',
      foreign: true,
    });
    expect(parseParty('017-36-7441 - Frederick C. Turner, Jr.')).toMatchObject({ nif: '017-36-7441', foreign: true });
    expect(() => parseParty('506899251 - Município X')).toThrow('NIF 506899251 fails the check digit');
    expect(() => parseParty('50689925 - Município X')).toThrow('not nine digits');
    expect(() => parseParty('506899250 - ')).toThrow('has no name');
  });

  it('says the kind and country of a holder from the number (and the name for 5-numbers)', () => {
    expect(kindFromNif('210000000', 'Maria')).toBe('person');
    expect(kindFromNif('600000000', 'Agrupamento de Escolas X')).toBe('public_body');
    expect(kindFromNif('510858287', 'JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA')).toBe('company');
    expect(kindFromNif('512021155', 'Instituto de Alimentação e Mercados Agrícolas, I. P. R. A.')).toBe('public_body');
    expect(kindFromNif('507123456', 'União das Freguesias de Gulpilhares e Valadares')).toBe('public_body');
    expect(kindFromNif('507123456', 'Instituto de Línguas, Lda.')).toBe('company');
    expect(kindFromNif('980245974', 'Endesa Energia, S.A. – Sucursal Portugal')).toBe('company');
    expect(kindFromNif('900000000', 'Condomínio do Prédio X')).toBe('company');
    expect(countryFromNif('510858287')).toBe('PT');
    expect(countryFromNif('980245974')).toBeNull();
  });

  it('keeps the eight digits of a CPV code', () => {
    expect(parseCpv('34144900-7 - Veículos eléctricos')).toBe('34144900');
    expect(parseCpv('34144900-7')).toBe('34144900');
    expect(parseCpv('34144900')).toBe('34144900');
    expect(parseCpv('72000000-5 - Serviços de TI: consultoria, desenvolvimento de software, Internet e apoio')).toBe(
      '72000000',
    );
    expect(() => parseCpv('3414490-7 - x')).toThrow(FieldError);
    expect(() => parseCpv('Veículos')).toThrow(FieldError);
  });
});

describe('procedure types → OCDS methods', () => {
  it.each([
    ['Concurso público', 'open'],
    ['Concurso público urgente', 'open'],
    ['Concurso público simplificado', 'open'],
    ['Concurso limitado por prévia qualificação', 'selective'],
    ['Procedimento de negociação', 'selective'],
    ['Diálogo concorrencial', 'selective'],
    ['Consulta Prévia', 'limited'],
    ['Consulta Prévia Simplificada', 'limited'],
    ['Ajuste Direto Regime Geral', 'direct'],
    ['Ajuste direto simplificado', 'direct'],
    ['Ao abrigo de acordo-quadro (art.º 258.º)', 'direct'],
    ['Ao abrigo de acordo-quadro (art.º 259.º)', 'selective'],
    ['Contratação excluída II', 'direct'],
    ['Concurso de conceção', null],
    ['Ao abrigo de acordo-quadro', null],
  ])('%s → %s', (label, method) => expect(ocdsMethod(label)).toBe(method));
});

describe('execution places', () => {
  const resolve = makePlaceResolver(MUNICIPALITIES, readPlaceAliases());
  const code = (t: string) => {
    const p = resolve(t);
    return p.kind === 'municipality' ? p.municipality.code : p.kind;
  };

  it('has one alias for each of the 308 municipalities, every one pointing at a code we have', () => {
    const aliases = readPlaceAliases();
    expect(aliases).toHaveLength(308);
    expect(new Set(aliases.map((a) => a.code)).size).toBe(308);
    for (const a of aliases) expect(() => byCode(a.code)).not.toThrow();
  });

  it('resolves BASE spellings, accents or not, within the district', () => {
    expect(code('Portugal, Santarém, Vila Nova da Barquinha')).toBe('1420');
    expect(code('Portugal, Região Autónoma dos Açores, Angra do Heroismo')).toBe('4301');
    expect(code('Portugal, Faro, Vila Real Sto Antonio')).toBe('0816');
    expect(code('Portugal, Braganca, Freixo Espada a Cinta')).toBe('0404');
    expect(code('Portugal, Guarda, Fig. Castelo Rodrigo')).toBe('0904');
    // Not in the alias table: the fallback by accent-insensitive name.
    expect(code('Portugal, Guarda, Vila Nova de Foz Côa')).toBe('0914');
    expect(code('Portugal, Bragança, MIRANDELA')).toBe('0407');
    expect(code('Portugal, Faro, Lagoa')).toBe('0806');
    expect(code('Portugal, Região Autónoma dos Açores, Lagoa')).toBe('4201');
    expect(code('Portugal, Região Autónoma dos Açores, Calheta')).toBe('4501');
    expect(code('Portugal, Região Autónoma da Madeira, Calheta')).toBe('3101');
    expect(code('Portugal')).toBe('national');
    expect(code('Portugal, Lisboa')).toBe('district');
    expect(code('Portugal, Lisboa, Atlântida')).toBe('unresolved');
    expect(code('Portugal, Lisboa, Porto')).toBe('unresolved');
    expect(code('Portugal, Distrito não determinado')).toBe('unresolved');
    expect(code('Espanha, Madrid')).toBe('unresolved');
  });
});

describe('reading files', () => {
  it('detects the CSV delimiter and gives each record the physical line it starts on', () => {
    const csv =
      'idcontrato;objectoContrato;precoContratual\r\n1;"Linha um\r\nlinha dois";"1.000,50"\r\n\r\n' +
      '2;"Diz ""olá""; adeus";3\r\n';
    const file = readBaseFile(csv, 'csv');
    expect(file.delimiter).toBe(';');
    expect(file.records.map((r) => r.line)).toEqual([2, 5]);
    expect(file.records[0].values.get('objectocontrato')).toBe('Linha um\r\nlinha dois');
    expect(file.records[1].values.get('objectocontrato')).toBe('Diz "olá"; adeus');
    expect(readBaseFile('\uFEFFidcontrato,cpv\n1,"a, b"\n', 'csv').records[0].values.get('cpv')).toBe('a, b');
    expect(() => readBaseFile('idcontrato;x\n1;"never closed\n', 'csv')).toThrow(BaseFileError);
  });

  it('reads a JSON array, an object holding one, and JSON Lines, with the line each record starts on', () => {
    const json = JSON.stringify([{ idcontrato: '1' }, { idcontrato: '2', cpv: ['a', 'b'] }], null, 2);
    expect(readBaseFile(json, 'json').records.map((r) => r.line)).toEqual(elementLinesOf(json));
    expect(readBaseFile('{"items": [{"idcontrato": "1"}, {"idcontrato": "2"}]}', 'json').records).toHaveLength(2);
    const lines = readBaseFile('{"idcontrato": "1"}\n{"idcontrato": "2"}\n', 'json').records;
    expect(lines.map((r) => [r.line, r.values.get('idcontrato')])).toEqual([
      [1, '1'],
      [2, '2'],
    ]);
    expect(() => readBaseFile('[{"idcontrato": "1"},', 'json')).toThrow(BaseFileError);
    expect(() => readBaseFile('', 'json')).toThrow('empty');
  });
});

// -------------------------------------------------------------------------------------------- the sample

describe('importing the real sample (50 contracts)', () => {
  let store: Store;
  let report: BaseImportReport;
  let contracts: Map<string, ContractRecord>;

  beforeEach(async () => {
    store = await freshStore();
    report = await importBaseContracts(store, SAMPLE_TEXT, {
      format: 'json',
      fileName: 'base-contracts-sample.json',
      now: NOW,
    });
    contracts = await allContracts(store);
  });

  it('accepts all 50 and writes them once; a re-import changes nothing', async () => {
    expectBalanced(report);
    expect(report.rows_read).toBe(50);
    expect(report.rejected).toEqual([]);
    expect(report.accepted).toBe(50);
    expect(report.written.contracts).toEqual({ inserted: 50, updated: 0, unchanged: 0 });
    expect(report.places_unresolved.count).toBe(0);
    expect(contracts.size).toBe(50);
    const nifs = new Set(
      SAMPLE.flatMap((r) => [...r.adjudicante, ...r.adjudicatarios]).map((p: string) => p.slice(0, 9)),
    );
    expect(report.written.entities.inserted).toBe(nifs.size);

    const again = await importBaseContracts(store, SAMPLE_TEXT, { format: 'json', fileName: 'again.json', now: LATER });
    expectBalanced(again);
    expect(again.written.contracts).toEqual({ inserted: 0, updated: 0, unchanged: 50 });
    expect(again.written.entities).toEqual({ inserted: 0, updated: 0, unchanged: nifs.size });
    const after = await allContracts(store);
    expect(after.get('10431400')?.imported_at).toBe(contracts.get('10431400')?.imported_at);
  });

  it('puts every field of 10431400 where it belongs', async () => {
    const c = contracts.get('10431400') as ContractRecord;
    expect(c.source).toBe('base');
    expect(c.buyers).toEqual([{ nif: '506899250', name: 'Município de Vila Nova da Barquinha', withheld: false }]);
    expect(c.suppliers).toEqual([
      { nif: '510858287', name: 'JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA', withheld: false },
    ]);
    expect(c.price_eur).toBe(121896);
    expect(c.published_on).toBe('2024-01-04');
    expect(c.signed_on).toBe('2024-01-04');
    expect(c.cpv.map((x) => x.code)).toEqual(['77310000']);
    expect(c.execution_days).toBe(1096);
    expect(c.municipalities).toEqual([byCode('1420').code]);
    expect(byCode('1420').name).toBe('Vila Nova da Barquinha');
    expect(c.execution_places_text).toBe('Portugal; Portugal, Santarém, Vila Nova da Barquinha');
    expect(c.procedure_type).toBe('Concurso público');
    expect(c.ocds_method).toBe('open');
    expect(c.contract_types).toEqual(['Aquisição de serviços']);
    expect(c.object).toBe(
      'Prestação de Serviços para Requalificação, Conservação e Manutenção de Espaços Verdes do Barquinha Parque',
    );
    expect(c.legal_basis).toBe('Artigo 20.º, n.º 1, alínea b) do Código dos Contratos Públicos');
    expect(c.centralized).toBe(false);
    expect(c.framework_agreement).toBeNull();
    expect(c.green).toBeNull();
    expect(c.base_price_eur).toBeNull();
    expect(c.effective_price_eur).toBeNull();
    expect(c.link).toBe('https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=10431400');
    expect(c.imported_at).toBe(NOW);

    const buyer = await store.getEntity('506899250');
    expect(buyer).toMatchObject({
      kind: 'municipality',
      municipality: '1420',
      name: 'Município de Vila Nova da Barquinha',
    });
    expect(await store.getEntity('510858287')).toMatchObject({ kind: 'company', municipality: null });
  });

  const otherSampleShapes =
    'reads the other shapes of the sample: two suppliers, several places, frameworks, a 98-number, escaped names';
  it(otherSampleShapes, () => {
    const albufeira = contracts.get('10495713') as ContractRecord;
    expect(albufeira.suppliers.map((s) => s.nif)).toEqual(['504615947', '506370836']);
    expect(albufeira.municipalities).toEqual(['0801']);

    expect([...(contracts.get('10531263') as ContractRecord).municipalities].sort()).toEqual(['1510', '1511']);
    expect((contracts.get('10432316') as ContractRecord).municipalities).toEqual(['4301']); // "Angra do Heroismo"

    const guimaraes = contracts.get('10557987') as ContractRecord;
    expect(guimaraes.municipalities).toEqual([]); // only "Portugal"
    expect(guimaraes.execution_places_text).toBe('Portugal');
    expect(guimaraes.suppliers).toEqual([
      { nif: '980245974', name: 'Endesa Energia, S.A. – Sucursal Portugal', withheld: false },
    ]);

    const alcobaca = contracts.get('10544923') as ContractRecord;
    expect(alcobaca.framework_agreement).toBe('Acordo-Quadro para a Prestação de Serviços de Vigilância e Segurança');
    expect(alcobaca.ocds_method).toBe('selective');
    expect((contracts.get('10573734') as ContractRecord).ocds_method).toBe('direct'); // art.º 258.º

    expect((contracts.get('10569829') as ContractRecord).suppliers[0].name).toBe('HIGINO PINHEIRO & IRMÃO, LDA');
    expect((contracts.get('10513491') as ContractRecord).cpv.map((x) => x.code)).toEqual(['32000000', '51300000']);
    expect((contracts.get('10578639') as ContractRecord).contract_types).toEqual([
      'Aquisição de serviços',
      'Locação de bens móveis',
      'Sociedade',
    ]);
    expect((contracts.get('10561717') as ContractRecord).legal_basis).toBeNull();

    // Every record: its buyer, price, dates and first CPV as the source has them.
    for (const r of SAMPLE) {
      const c = contracts.get(r.idcontrato) as ContractRecord;
      expect(c.buyers[0].nif, r.idcontrato).toBe(r.adjudicante[0].slice(0, 9));
      expect(c.price_eur, r.idcontrato).toBe(r.precoContratual);
      const [d, m, y] = r.dataPublicacao.split('/');
      expect(c.published_on, r.idcontrato).toBe(`${y}-${m}-${d}`);
      expect(c.cpv[0].code, r.idcontrato).toBe(r.cpv[0].slice(0, 8));
      expect(c.execution_days, r.idcontrato).toBe(r.prazoExecucao);
    }
  });
});

// ------------------------------------------------------------------------------- records written here

const FULL = REFERENCE.contracts.example_full_record_2025;

/** Records in the official JSON shape, each a case: id → what it tests. */
function ownContracts(): Record<string, any>[] {
  return [
    FULL, // 1: the 39-field record as published
    {
      // 2: text numbers with decimal commas, NULLs, Sim/Nao, anonymised and unidentified suppliers, glued competitor
      idcontrato: '20000001',
      nAnuncio: '',
      tipoContrato: ['Aquisição de bens móveis'],
      idprocedimento: '8000001',
      tipoprocedimento: 'Consulta Prévia',
      objectoContrato: 'Aquisição de equipamento informático',
      descContrato: 'NULL',
      adjudicante: ['501102752 - Município de Amarante'],
      adjudicatarios: ['RGPD - Pessoa singular', '- - Fornecedor Sem NIF', '516068121-Tek4life SA'],
      dataPublicacao: '05/01/2026',
      dataCelebracaoContrato: '02/01/2026 00:00:00',
      precoContratual: '105.000,00',
      cpv: ['30230000-0'],
      prazoExecucao: '30',
      localExecucao: ['Portugal, Porto, Amarante'],
      fundamentacao: 'NULL',
      ProcedimentoCentralizado: 'Nao',
      numAcordoQuadro: '',
      DescrAcordoQuadro: 'NULL',
      precoBaseProcedimento: '105000,00',
      dataDecisaoAdjudicacao: '-',
      dataFechoContrato: '27/03/2026',
      PrecoTotalEfetivo: '99.500,50',
      concorrentes: ['514181435-GROWSKILLS UNIPESSOAL, LDA', '516068121-Tek4life SA'],
      ContratEcologico: 'Sim',
    },
    { ...FULL, idcontrato: '20000003', adjudicante: ['506899251 - Município Inventado'] }, // 3: bad NIF
    { ...FULL, idcontrato: '20000004', dataPublicacao: '31/02/2024' }, // 4: bad date
    { ...FULL, idcontrato: undefined }, // 5: no id
    {
      // 6: places that resolve to nothing, kept as text
      ...FULL,
      idcontrato: '20000006',
      localExecucao: ['Portugal, Lisboa, Atlântida', 'Portugal, Distrito não determinado'],
    },
    {
      // 7: BASE's abbreviated spellings, a name only our fallback knows, a district alone
      ...FULL,
      idcontrato: '20000007',
      localExecucao: [
        'Portugal, Faro, Vila Real Sto Antonio',
        'Portugal, Guarda, Vila Nova de Foz Côa',
        'Portugal, Lisboa',
      ],
    },
    { ...FULL, idcontrato: '20000008', precoContratual: 'cento e cinco' }, // 8: not a number
    { ...FULL, idcontrato: '11623631', objectoContrato: 'a repeat' }, // 9: same id as record 1
    { ...FULL, idcontrato: '20000010', ContratEcologico: 'Talvez', cpv: ['Veículos'] }, // 10: two bad fields
  ];
}

function expectOwnContractsOutcome(report: BaseImportReport, lines: number[]): void {
  expectBalanced(report);
  expect(report.rows_read).toBe(10);
  expect(report.accepted).toBe(4);
  const rejected = new Map(report.rejected.map((r) => [r.record, r]));
  expect([...rejected.keys()].sort((a, b) => a - b)).toEqual([3, 4, 5, 8, 9, 10]);
  for (const [record, r] of rejected) expect(r.line, `record ${record}`).toBe(lines[record - 1]);
  expect(rejected.get(3)).toMatchObject({
    source_id: '20000003',
    reason: 'adjudicante: NIF 506899251 fails the check digit',
  });
  expect(rejected.get(4)).toMatchObject({ source_id: '20000004', reason: 'dataPublicacao: 31/02/2024 is not a date' });
  expect(rejected.get(5)).toMatchObject({ source_id: null, reason: 'idcontrato missing' });
  expect(rejected.get(8)?.reason).toBe('precoContratual: "cento e cinco" is not a number');
  expect(rejected.get(9)?.reason).toBe(`idcontrato 11623631 repeats the record on line ${lines[0]}`);
  expect(rejected.get(10)?.reason).toContain('ContratEcologico: "Talvez" is not Sim or Não');
  expect(rejected.get(10)?.reason).toContain('cpv: "Veículos" is not a CPV code');
  expect(report.places_unresolved.count).toBe(2);
  expect(report.places_unresolved.examples.map((e) => e.text)).toEqual([
    'Portugal, Lisboa, Atlântida',
    'Portugal, Distrito não determinado',
  ]);
  expect(report.places_unresolved.examples[0]).toMatchObject({ source_id: '20000006', line: lines[5] });
}

async function expectOwnContractsStored(store: Store): Promise<void> {
  const contracts = await allContracts(store);
  expect([...contracts.keys()].sort()).toEqual(['11623631', '20000001', '20000006', '20000007']);

  const full = contracts.get('11623631') as ContractRecord;
  expect(full).toMatchObject({
    procedure_id: '7569044',
    announcement_number: '10331/2025',
    object: 'CPUB004DTEDGA2025 - Aquisição de Viaturas Ligeiras',
    description: 'CPUB004DTEDGA2025 - Aquisição de Viaturas Ligeiras',
    procedure_type: 'Concurso público',
    ocds_method: 'open',
    contract_types: ['Aquisição de bens móveis'],
    buyers: [
      { nif: '507396081', name: 'EMAC - Empresa Municipal de Ambiente de Cascais, E. M., S. A.', withheld: false },
    ],
    suppliers: [{ nif: '500970602', name: 'Renault Portugal, S.A.', withheld: false }],
    competitors: [
      { nif: '500035121', name: 'Caetano Formula, S.A.', withheld: false },
      { nif: '500970602', name: 'RENAULT PORTUGAL SA', withheld: false },
      { nif: '500239037', name: 'Toyota Caetano Portugal, SA', withheld: false },
    ],
    price_eur: 127206.6,
    base_price_eur: 419000,
    effective_price_eur: null, // 0.0 on an open contract: not reported yet
    published_on: '2025-08-05',
    signed_on: '2025-07-30',
    awarded_on: '2025-07-02',
    closed_on: null,
    execution_days: 90,
    municipalities: ['1105'],
    framework_agreement: null,
    legal_basis: 'Artigo 20.º, n.º 1, alínea a) do Código dos Contratos Públicos',
    green: false,
    centralized: false,
    link: 'https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=11623631',
  });
  expect(full.cpv.map((c) => c.code)).toEqual(['34144900']);
  expect(await store.getEntity('507396081')).toMatchObject({ kind: 'company', municipality: null });

  const commas = contracts.get('20000001') as ContractRecord;
  expect(commas).toMatchObject({
    procedure_id: '8000001',
    announcement_number: null,
    description: null,
    ocds_method: 'limited',
    price_eur: 105000,
    base_price_eur: 105000,
    effective_price_eur: 99500.5,
    signed_on: '2026-01-02',
    awarded_on: null,
    closed_on: '2026-03-27',
    execution_days: 30,
    municipalities: ['1301'],
    legal_basis: null,
    centralized: false,
    green: true,
    buyers: [{ nif: '501102752', name: 'Município de Amarante', withheld: false }],
    suppliers: [
      { nif: null, name: 'Pessoa singular', withheld: true },
      { nif: null, name: 'Fornecedor Sem NIF', withheld: false },
      { nif: '516068121', name: 'Tek4life SA', withheld: false },
    ],
    competitors: [
      { nif: '514181435', name: 'GROWSKILLS UNIPESSOAL, LDA', withheld: false },
      { nif: '516068121', name: 'Tek4life SA', withheld: false },
    ],
  });
  expect(commas.cpv.map((c) => c.code)).toEqual(['30230000']);
  expect(await store.getEntity('501102752')).toMatchObject({ kind: 'municipality', municipality: '1301' });

  const nowhere = contracts.get('20000006') as ContractRecord;
  expect(nowhere.municipalities).toEqual([]);
  expect(nowhere.execution_places_text).toBe('Portugal, Lisboa, Atlântida; Portugal, Distrito não determinado');
  expect([...(contracts.get('20000007') as ContractRecord).municipalities].sort()).toEqual(['0816', '0914']);
}

/** A CSV cell: quoted when it needs to be. */
function cell(value: unknown, delimiter: string): string {
  const s = value === undefined || value === null ? '' : Array.isArray(value) ? value.join(' | ') : String(value);
  return s.includes(delimiter) || s.includes('"') || s.includes('\n') ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The same records as a CSV export: one column per field, multi-valued cells joined with " | ". */
function toCsv(records: Record<string, any>[], delimiter: string, columns: string[]): { csv: string; lines: number[] } {
  const out = [columns.map((c) => cell(c, delimiter)).join(delimiter)];
  const lines: number[] = [];
  let line = 2;
  for (const r of records) {
    const row = columns.map((c) => cell(r[c], delimiter)).join(delimiter);
    lines.push(line);
    line += row.split('\n').length;
    out.push(row);
  }
  return { csv: `${out.join('\r\n')}\r\n`, lines };
}

const FULL_COLUMNS = REFERENCE.contracts.fields.map((f: { name: string }) => f.name) as string[];

describe('importing records written in the same formats', () => {
  it('JSON: every field lands where it belongs, bad rows are reported with their line and reason', async () => {
    const store = await freshStore();
    const json = JSON.stringify(ownContracts(), null, 2);
    const report = await importBaseContracts(store, json, { format: 'json', fileName: 'own.json', now: NOW });
    expectOwnContractsOutcome(report, elementLinesOf(json));
    await expectOwnContractsStored(store);
    expect(report.written.contracts).toEqual({ inserted: 4, updated: 0, unchanged: 0 });

    const again = await importBaseContracts(store, json, { format: 'json', fileName: 'own.json', now: LATER });
    expect(again.written.contracts).toEqual({ inserted: 0, updated: 0, unchanged: 4 });
    expect(again.written.entities.inserted + again.written.entities.updated).toBe(0);
  });

  it.each([';', ','])('CSV with "%s": the same outcome, lines are physical lines', async (delimiter) => {
    const records = ownContracts();
    records[1] = { ...records[1], objectoContrato: 'Aquisição de equipamento informático\n(segunda linha)' };
    const { csv, lines } = toCsv(records, delimiter, FULL_COLUMNS);
    expect(lines[2]).toBe(lines[1] + 2); // the multi-line record pushes the next one down
    const store = await freshStore();
    const report = await importBaseContracts(store, csv, { format: 'csv', fileName: 'own.csv', now: NOW });
    expect(report.delimiter).toBe(delimiter);
    expectOwnContractsOutcome(report, lines);
    await expectOwnContractsStored(store);
    const again = await importBaseContracts(store, csv, { format: 'csv', fileName: 'own.csv', now: LATER });
    expect(again.written.contracts).toEqual({ inserted: 0, updated: 0, unchanged: 4 });
  });

  const flattenedCsv =
    'CSV in the flattened xlsx-export column set (15 fields) gives the same contracts as the JSON sample';
  it(flattenedCsv, async () => {
    const columns = REFERENCE.flattened_xlsx_export_2024_fields as string[];
    expect(columns).toHaveLength(15);
    const { csv } = toCsv(SAMPLE, ';', columns);
    const fromCsv = await freshStore();
    const report = await importBaseContracts(fromCsv, csv, { format: 'csv', fileName: 'flat.csv', now: NOW });
    expect(report.accepted).toBe(50);
    const fromJson = await freshStore();
    await importBaseContracts(fromJson, SAMPLE_TEXT, { format: 'json', fileName: 'sample.json', now: NOW });
    const strip = (m: Map<string, ContractRecord>) =>
      // The id and the change instant are each store's own (docs/api.md, Syncing), not the contract's.
      [...m.values()]
        .map(({ id: _id, updated_at: _at, ...rest }) => rest)
        .sort((a, b) => a.source_id.localeCompare(b.source_id));
    expect(strip(await allContracts(fromCsv))).toEqual(strip(await allContracts(fromJson)));
    // And re-importing the JSON over the CSV's contracts changes nothing: same records.
    const over = await importBaseContracts(fromCsv, SAMPLE_TEXT, {
      format: 'json',
      fileName: 'sample.json',
      now: LATER,
    });
    expect(over.written.contracts).toEqual({ inserted: 0, updated: 0, unchanged: 50 });
  });

  it('CSV in the simplified variant (buyer in two columns)', async () => {
    const columns = REFERENCE.simplified_csv_variant_seen_in_course_material as string[];
    const csv = [
      columns.join(','),
      '10431400,,Concurso público,Prestação de Serviços,04/01/2024,04/01/2024,"121896,00",1096,506899250,' +
        'Município de Vila Nova da Barquinha,"Artigo 20.º, n.º 1, alínea b) do Código dos Contratos Públicos"',
      '10431401,,Ajuste Direto Regime Geral,Outra coisa,04/01/2024,04/01/2024,100,10,506899251,Município Inventado,',
    ].join('\n');
    const store = await freshStore();
    const report = await importBaseContracts(store, csv, { format: 'csv', fileName: 'simple.csv', now: NOW });
    expectBalanced(report);
    expect(report.rejected).toEqual([
      {
        line: 3,
        record: 2,
        source_id: '10431401',
        reason: 'NIPC_entidade_comunicante: NIF 506899251 fails the check digit',
      },
    ]);
    const c = (await allContracts(store)).get('10431400') as ContractRecord;
    expect(c).toMatchObject({
      buyers: [{ nif: '506899250', name: 'Município de Vila Nova da Barquinha', withheld: false }],
      suppliers: [],
      price_eur: 121896,
      execution_days: 1096,
      ocds_method: 'open',
      legal_basis: 'Artigo 20.º, n.º 1, alínea b) do Código dos Contratos Públicos',
    });
  });

  it('a later file with a changed record updates it, and only it', async () => {
    const store = await freshStore();
    await importBaseContracts(store, SAMPLE_TEXT, { format: 'json', fileName: 'sample.json', now: NOW });
    const changed = SAMPLE.map((r) => (r.idcontrato === '10431400' ? { ...r, precoContratual: 130000 } : r));
    const report = await importBaseContracts(store, JSON.stringify(changed), {
      format: 'json',
      fileName: 'changed.json',
      now: LATER,
    });
    expect(report.written.contracts).toEqual({ inserted: 0, updated: 1, unchanged: 49 });
    const c = (await allContracts(store)).get('10431400') as ContractRecord;
    expect(c.price_eur).toBe(130000);
    expect(c.imported_at).toBe(LATER);
  });
});

// ----------------------------------------------------------------------------------------- announcements

describe('announcements', () => {
  const municipal = {
    nAnuncio: '200/2026',
    IdIncm: '419944999',
    dataPublicacao: '05/01/2026',
    nifEntidade: '501102752',
    designacaoEntidade: 'Município de Amarante',
    descricaoAnuncio: 'Empreitada de requalificação do mercado municipal',
    url: 'https://diariodarepublica.pt/dr/detalhe/anuncio-procedimento/200-2026',
    tipoActo: 'Anúncio de procedimento',
    tiposContrato: ['Empreitadas de obras públicas'],
    PrecoBase: '1.234.567,89',
    CPVs: ['45000000-7 - Construção', '45454000'],
    modeloAnuncio: 'Concurso público',
    CriterAmbient: 'Não',
    PrazoPropostas: 30,
    DataLimitePropostas: '10/02/2026',
  };

  const referenceExamples =
    "imports the reference's example records and our own; the minimised one has no entity and is rejected";
  it(referenceExamples, async () => {
    const records = [
      REFERENCE.announcements.example_record_2025,
      REFERENCE.announcements.example_minimised_record_2026,
      municipal,
    ];
    const json = JSON.stringify(records, null, 2);
    const store = await freshStore();
    const report = await importBaseAnnouncements(store, json, { format: 'json', fileName: 'anuncios.json', now: NOW });
    expectBalanced(report);
    expect(report.accepted).toBe(2);
    expect(report.rejected).toEqual([
      { line: elementLinesOf(json)[1], record: 2, source_id: '100/2026', reason: 'nifEntidade missing' },
    ]);
    expect(report.written.announcements).toEqual({ inserted: 2, updated: 0, unchanged: 0 });

    const list = await store.listAnnouncements({ order: 'published' }, { limit: 10 });
    const iama = list.find((a) => a.source_id === 'JORAA-96/2025');
    expect(iama).toMatchObject({
      published_on: '2025-02-25',
      deadline_on: '2025-03-11', // 25/02/2025 + PrazoPropostas 14 days
      buyer: { nif: '512021155', name: 'Instituto de Alimentação e Mercados Agrícolas, I. P. R. A.', withheld: false },
      object: 'Concurso público para aquisição de serviços de viagens e alojamento para o IAMA, IPRA.',
      base_price_eur: 85000,
      contract_types: ['Aquisição de serviços'],
      procedure_type: 'Concurso público',
      municipalities: [],
      district: null,
      link: 'https://jo.azores.gov.pt/#/ato/90eadaf1-9449-4c7f-bbb8-ebcbc8ea7d45',
    });
    expect(iama?.cpv.map((c) => c.code)).toEqual(['63510000']);
    expect(await store.getEntity('512021155')).toMatchObject({ kind: 'public_body' });

    const amarante = list.find((a) => a.source_id === '200/2026');
    expect(amarante).toMatchObject({
      deadline_on: '2026-02-10',
      base_price_eur: 1234567.89,
      municipalities: ['1301'],
      district: 'Porto',
      buyer: { nif: '501102752', name: 'Município de Amarante', withheld: false },
    });
    expect(amarante?.cpv.map((c) => c.code)).toEqual(['45000000', '45454000']);

    const again = await importBaseAnnouncements(store, json, { format: 'json', fileName: 'anuncios.json', now: LATER });
    expect(again.written.announcements).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
  });

  it('CSV announcements: Inexistente base price, a bad NIF and a bad deadline are told apart', async () => {
    const columns = Object.keys(municipal);
    const rows = [
      { ...municipal, nAnuncio: '201/2026', PrecoBase: 'Inexistente', DataLimitePropostas: '' },
      { ...municipal, nAnuncio: '202/2026', nifEntidade: '501102753' },
      { ...municipal, nAnuncio: '203/2026', DataLimitePropostas: '30/02/2026' },
    ];
    const { csv, lines } = toCsv(rows, ';', columns);
    const store = await freshStore();
    const report = await importBaseAnnouncements(store, csv, { format: 'csv', fileName: 'anuncios.csv', now: NOW });
    expectBalanced(report);
    expect(report.rejected).toEqual([
      { line: lines[1], record: 2, source_id: '202/2026', reason: 'nifEntidade: NIF 501102753 fails the check digit' },
      { line: lines[2], record: 3, source_id: '203/2026', reason: 'DataLimitePropostas: 30/02/2026 is not a date' },
    ]);
    const [a] = await store.listAnnouncements({ order: 'published' }, { limit: 10 });
    // deadline_on: 05/01 + 30 days
    expect(a).toMatchObject({ source_id: '201/2026', base_price_eur: null, deadline_on: '2026-02-04' });
  });
});

// ------------------------------------------------------------------------------------------- amendments

describe('amendments', () => {
  const contract = {
    idcontrato: '12430731',
    objectoContrato: 'Aquisição de serviços de limpeza',
    adjudicante: ['501102752 - Município de Amarante'],
    adjudicatarios: ['516068121 - Tek4life SA'],
    dataPublicacao: '10/03/2026',
    precoContratual: 35000,
    localExecucao: ['Portugal, Porto, Amarante'],
  };
  const [first, second] = REFERENCE.contract_modifications.example_minimised_records_2026;

  it('writes the modifications of known contracts with stable ids; orphans are reported, not written', async () => {
    const store = await freshStore();
    await importBaseContracts(store, JSON.stringify([contract]), { format: 'json', fileName: 'c.json', now: NOW });
    const records = [
      { ...first, modifContratoFundamento: 'Trabalhos complementares', modifContratoTipoAto: 'Modificação objetiva' },
      second,
      { idcontrato: '99999999', modifContratoData: '01/05/2026 00:00:00', modifContratoPrecoAlterado: 10 },
      { idcontrato: '12430731', modifContratoData: '31/04/2026 00:00:00', modifContratoPrecoAlterado: 1 },
      { modifContratoData: '01/05/2026 00:00:00', modifContratoPrecoAlterado: 1 },
      { idcontrato: '12430731', modifContratoData: '04/05/2026 00:00:00', modifContratoPrecoAlterado: '40.000,00' },
    ];
    const json = JSON.stringify(records, null, 2);
    const lines = elementLinesOf(json);
    const report = await importBaseAmendments(store, json, { format: 'json', fileName: 'modificacoes.json', now: NOW });
    expectBalanced(report);
    expect(report.rejected).toEqual([
      {
        line: lines[3],
        record: 4,
        source_id: '12430731',
        reason: 'modifContratoData: 31/04/2026 00:00:00 is not a date',
      },
      { line: lines[4], record: 5, source_id: null, reason: 'idcontrato missing' },
    ]);
    expect(report.orphan_amendments).toEqual({
      count: 1,
      items: [{ line: lines[2], source_id: '99999999/2026-05-01/1', contract: '99999999' }],
    });
    expect(report.written.amendments).toEqual({ inserted: 3, updated: 0, unchanged: 0 });

    const [c] = await store.listContracts({}, { limit: 5 });
    const detail = await store.getContract(c.id);
    expect(detail?.amendments.map((a) => [a.source_id, a.date, a.new_price_eur, a.reason])).toEqual([
      ['12430731/2026-04-21/1', '2026-04-21', 38015.43, 'Trabalhos complementares'],
      ['12430731/2026-05-04/1', '2026-05-04', 38015.43, null],
      ['12430731/2026-05-04/2', '2026-05-04', 40000, null],
    ]);
    expect(detail?.amendments.map((a) => a.previous_price_eur)).toEqual([35000, 38015.43, 38015.43]);
    expect(
      detail?.amendments.every(
        (a) => a.link === 'https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=12430731',
      ),
    ).toBe(true);

    const again = await importBaseAmendments(store, json, {
      format: 'json',
      fileName: 'modificacoes.json',
      now: LATER,
    });
    expect(again.written.amendments).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    expect(again.orphan_amendments.count).toBe(1);
  });

  it('an amendments file whose contracts are all unknown writes nothing', async () => {
    const store = await freshStore();
    const { csv } = toCsv(
      [first, second],
      ';',
      REFERENCE.contract_modifications.fields.map((f: { name: string }) => f.name),
    );
    const report = await importBaseAmendments(store, csv, { format: 'csv', fileName: 'modificacoes.csv', now: NOW });
    expectBalanced(report);
    expect(report.orphan_amendments.count).toBe(2);
    expect(report.written.amendments).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
    expect(await store.listAmendments({}, { limit: 10 })).toEqual([]);
  });
});

// --------------------------------------------------------------------------------------------- failures

describe('a failing file leaves no trace', () => {
  it('a store error in the middle of the write rolls the whole file back', async () => {
    const store = await freshStore();
    // The batch's contract list throws when the store reaches its 30th element, i.e. inside its transaction,
    // after it has written the first 29.
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop !== 'writeProcurement')
          return Reflect.get(target, prop, receiver).bind?.(target) ?? Reflect.get(target, prop, receiver);
        return (batch: any) => {
          const contracts = new Proxy(batch.contracts as unknown[], {
            get(list, key, r) {
              if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) >= 29)
                throw new Error('disk full (simulated)');
              return Reflect.get(list, key, r);
            },
          });
          return target.writeProcurement({ ...batch, contracts });
        };
      },
    });
    await expect(
      importBaseContracts(failing, SAMPLE_TEXT, { format: 'json', fileName: 'sample.json', now: NOW }),
    ).rejects.toThrow('disk full (simulated)');
    expect(await store.listContracts({}, { limit: 10 })).toEqual([]);
    expect(await store.getEntity('506899250')).toBeUndefined();
    // Nothing was left behind: the same file now inserts everything.
    const report = await importBaseContracts(store, SAMPLE_TEXT, { format: 'json', fileName: 'sample.json', now: NOW });
    expect(report.written.contracts).toEqual({ inserted: 50, updated: 0, unchanged: 0 });
  });

  it('a file that cannot be parsed, or is of another kind, is refused before the store is touched', async () => {
    const store = await freshStore();
    await expect(
      importBaseContracts(store, '[{"idcontrato": "1",', { format: 'json', fileName: 'x', now: NOW }),
    ).rejects.toThrow(BaseFileError);
    await expect(
      importBaseContracts(store, 'idcontrato;x\n1;"open\n', { format: 'csv', fileName: 'x', now: NOW }),
    ).rejects.toThrow(BaseFileError);
    const announcements = JSON.stringify([REFERENCE.announcements.example_record_2025]);
    await expect(
      importBaseContracts(store, announcements, { format: 'json', fileName: 'x', now: NOW }),
    ).rejects.toThrow('does not look like a BASE contracts file');
    await expect(importBaseAmendments(store, SAMPLE_TEXT, { format: 'json', fileName: 'x', now: NOW })).rejects.toThrow(
      'does not look like a BASE amendments file',
    );
    expect(await store.listContracts({}, { limit: 10 })).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------- CLI

describe('munidata import base-*', () => {
  const dir = testDir('munidata-base-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a file (format from its name), prints the report, lists rejected rows', async () => {
    const store = await freshStore();
    const file = join(dir, 'contratos.csv');
    const { csv } = toCsv(ownContracts(), ';', FULL_COLUMNS);
    writeFileSync(file, csv);
    const report = JSON.parse(await cli(store, ['--json', 'import', 'base-contracts', file]));
    expect(report).toMatchObject({ dataset: 'contracts', format: 'csv', rows_read: 10, accepted: 4 });
    expect(report.rejected).toHaveLength(6);
    const human = await cli(store, ['import', 'base-contracts', file]);
    expect(human).toContain('rows read 10: 4 accepted, 6 rejected');
    expect(human).toContain('contracts: 0 inserted, 0 updated, 4 unchanged');
    expect(human).toContain('adjudicante: NIF 506899251 fails the check digit');

    const json = join(dir, 'export.data');
    writeFileSync(json, SAMPLE_TEXT);
    const sample = JSON.parse(await cli(store, ['--json', 'import', 'base-contracts', json, '--format', 'json']));
    expect(sample.written.contracts.inserted).toBe(50);
  });

  it('refuses (exit 2) a file it cannot read or parse, writing nothing', async () => {
    const store = await freshStore();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[{"idcontrato": ');
    await expect(cli(store, ['import', 'base-contracts', broken])).rejects.toThrow(AdminError);
    await expect(cli(store, ['import', 'base-amendments', join(dir, 'missing.csv')])).rejects.toThrow(/cannot read/);
    await expect(cli(store, ['import', 'base-announcements', join(dir, 'export.data')])).rejects.toThrow(/--format/);
    expect(await store.listContracts({}, { limit: 10 })).toEqual([]);
  });
});
