import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type IneImportReport, importIne } from '../src/ingest/ine/import-ine.js';
import { parseIneResponse } from '../src/ingest/ine/parse.js';
import { periodToReferenceDate } from '../src/ingest/ine/period.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { IndicatorRecord } from '../src/store/records.js';
import { openTestStore } from './helpers/backend.js';
import { indicatorRecord } from './helpers/indicator-record.js';

// The verbatim INE response (indicator 0008264, 12 years × 344 geographies): test/fixtures/SOURCES.md.
const SAMPLE = readFileSync(new URL('fixtures/ine-indicator-sample.json', import.meta.url), 'utf8');
const MUNICIPALITIES = readMunicipalities();
const idOf = (code: string) => {
  const m = MUNICIPALITIES.find((x) => x.code === code);
  if (!m) throw new Error(`no municipality ${code}`);
  return m.id;
};

function indicator(source: string | null): IndicatorRecord {
  return indicatorRecord({
    key: 'birth_rate',
    name: 'Crude birth rate',
    name_pt: 'Taxa bruta de natalidade',
    category: 'demography',
    unit: 'per_1000',
    unit_display: '‰',
    source,
    value_domain: 'rate',
  });
}

async function storeWith(source: string | null = 'munidata demo (synthetic)') {
  const store = (await openTestStore()).store;
  await store.migrate();
  await store.saveMunicipalities(MUNICIPALITIES);
  await store.saveIndicators([indicator(source)]);
  return store;
}

/** Every row read is in exactly one bucket, and the placed rows add up both ways. */
function expectBalanced(r: IneImportReport): void {
  const aggregates = Object.values(r.aggregates).reduce((a, b) => a + b, 0);
  expect(r.placed.rows + aggregates + r.non_total.count + r.unknown_period_rows + r.unplaced.length).toBe(r.rows_read);
  expect(r.placed.with_value + r.placed.null_value).toBe(r.placed.rows);
  expect(r.placed.inserted + r.placed.updated + r.placed.unchanged).toBe(r.placed.rows);
}

describe('periodToReferenceDate', () => {
  it.each([
    ['2022', '2022-12-31'],
    [' 2011 ', '2011-12-31'],
    ['1.º Trimestre de 2026', '2026-03-31'],
    ['1º Trimestre de 2026', '2026-03-31'],
    ['1.º trimestre de 2026', '2026-03-31'],
    ['2.º Trimestre de 2025', '2025-06-30'],
    ['3.º Trimestre de 2025', '2025-09-30'],
    ['4.º Trimestre de 2025', '2025-12-31'],
    ['1st Quarter 2026', '2026-03-31'],
    ['1.º Semestre de 2024', '2024-06-30'],
    ['2.º Semestre de 2024', '2024-12-31'],
    ['Janeiro de 2024', '2024-01-31'],
    ['janeiro de 2024', '2024-01-31'],
    ['Fevereiro de 2024', '2024-02-29'],
    ['Fevereiro de 2023', '2023-02-28'],
    ['Fevereiro de 2000', '2000-02-29'],
    ['Fevereiro de 1900', '1900-02-28'],
    ['Março de 2024', '2024-03-31'],
    ['Abril de 2024', '2024-04-30'],
    ['Dezembro de 2023', '2023-12-31'],
    ['January 2024', '2024-01-31'],
    ['February 2024', '2024-02-29'],
    ['September of 2024', '2024-09-30'],
    ['2021/2022', '2022-08-31'],
    ['2021 / 2022', '2022-08-31'],
  ])('%s → %s', (label, date) => {
    expect(periodToReferenceDate(label)).toBe(date);
  });

  it.each([
    '',
    'Semana 3 de 2026',
    '5.º Trimestre de 2026',
    '3.º Semestre de 2024',
    'Brumário de 2024',
    '2011/2021',
    '22',
    'S7A2023',
  ])('does not guess %j', (label) => {
    expect(periodToReferenceDate(label)).toBeNull();
  });
});

describe('importIne with the real INE sample (0008264, Pref variant)', () => {
  it('places all 308 municipalities in each of the 12 years and reports the 36 aggregates per year', async () => {
    const store = await storeWith();
    const lisboa = idOf('1106');
    // Synthetic demo points: one INE does not have (removed by the replace), one INE overwrites.
    await store.writeObservations('birth_rate', [
      { municipality_id: lisboa, reference_date: '2010-12-31', value: 1, treatment: 'estimated' },
      { municipality_id: lisboa, reference_date: '2015-12-31', value: 99, treatment: 'estimated' },
    ]);

    const r = await importIne(store, SAMPLE, { indicator: 'birth_rate' });

    expect(r.ine.code).toBe('0008264');
    expect(r.ine.variant).toBe('Pref');
    expect(r.ine.title).toMatch(/^Taxa bruta de natalidade \(‰\) por Local de residência/);
    expect(r.mode).toBe('replace');
    expect(r.periods).toEqual(
      Array.from({ length: 12 }, (_, i) => ({
        label: String(2011 + i),
        reference_date: `${2011 + i}-12-31`,
        rows: 344,
      })),
    );
    expect(r.unknown_periods).toEqual([]);
    expect(r.rows_read).toBe(12 * 344);
    expect(r.placed).toEqual({
      rows: 12 * 308,
      with_value: 12 * 308,
      null_value: 0,
      inserted: 12 * 308 - 1,
      updated: 1,
      unchanged: 0,
      removed: 1,
    });
    // Per year: PT, 3 NUTS I, 7 NUTS II (2013), 25 NUTS III (2013) = 36 = 344 − 308.
    expect(r.aggregates).toEqual({ country: 12, nuts1: 36, nuts2: 84, nuts3: 300, parish: 0 });
    expect(r.non_total.count).toBe(0);
    expect(r.unplaced).toEqual([]);
    expectBalanced(r);

    expect(r.source).toBe('INE 0008264 — Taxa bruta de natalidade (‰)');
    const catalogue = await store.listIndicators();
    expect(catalogue.find((i) => i.key === 'birth_rate')?.source).toBe('INE 0008264 — Taxa bruta de natalidade (‰)');

    expect(await store.countObservations('birth_rate')).toBe(12 * 308);
    for (const m of MUNICIPALITIES) {
      const points = await store.series({ indicator: 'birth_rate', municipalityId: m.id, limit: 50 });
      expect(points.map((p) => p.reference_date)).toEqual(Array.from({ length: 12 }, (_, i) => `${2011 + i}-12-31`));
    }

    const at2015 = async (code: string) =>
      (
        await store.series({
          indicator: 'birth_rate',
          municipalityId: idOf(code),
          from: '2015-12-31',
          to: '2015-12-31',
          limit: 1,
        })
      )[0];
    // 1701106 Lisboa
    expect(await at2015('1106')).toMatchObject({ reference_date: '2015-12-31', value: 10, treatment: 'raw' });
    // 11B1709 Ribeira de Pena
    expect(await at2015('1709')).toMatchObject({ reference_date: '2015-12-31', value: 5.8, treatment: 'raw' });
    expect(await at2015('0606')).toMatchObject({ value: 4 }); // 16E0606 Góis, valor "4"

    // The saved sample repeats one set of values under all 12 year keys (e.g. Lisboa 10 every year): flagged.
    expect(r.warnings).toEqual([
      'periods 2011, 2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022 ' +
        'carry identical values for every municipality: check the source file',
    ]);
    await store.close();
  });

  it('is idempotent: a second import changes nothing', async () => {
    const store = await storeWith();
    await importIne(store, SAMPLE, { indicator: 'birth_rate' });
    const version = await store.dataVersion();

    const again = await importIne(store, JSON.parse(SAMPLE), { indicator: 'birth_rate' });
    expect(again.mode).toBe('merge'); // the source is INE now, no longer demo
    expect(again.placed).toMatchObject({ inserted: 0, updated: 0, unchanged: 12 * 308, removed: 0 });
    expectBalanced(again);
    expect(await store.dataVersion()).toBe(version);
    expect(await store.countObservations('birth_rate')).toBe(12 * 308);
    await store.close();
  });

  const mergeIntoAnotherSource =
    "refuses to merge into another source's series, merges with --force, and stores the estimated treatment when asked";
  it(mergeIntoAnotherSource, async () => {
    const store = await storeWith('PORDATA');
    await store.writeObservations('birth_rate', [
      { municipality_id: idOf('1106'), reference_date: '2010-12-31', value: 9.1, treatment: 'raw' },
    ]);
    await expect(importIne(store, SAMPLE, { indicator: 'birth_rate' })).rejects.toThrow(
      /holds another source's series \("PORDATA"\)/,
    );
    expect(await store.countObservations('birth_rate')).toBe(1);

    const r = await importIne(store, SAMPLE, { indicator: 'birth_rate', treatment: 'estimated', force: true });
    expect(r.mode).toBe('merge');
    expect(r.placed).toMatchObject({ inserted: 12 * 308, removed: 0 });
    expect(await store.countObservations('birth_rate')).toBe(12 * 308 + 1);
    const [first] = await store.series({ indicator: 'birth_rate', municipalityId: idOf('1106'), limit: 2 });
    expect(first).toMatchObject({ reference_date: '2010-12-31', value: 9.1 });
    expect((await store.latestPerMunicipality('birth_rate'))[0].treatment).toBe('estimated');
    await store.close();
  });

  it('refuses an indicator key that is not in the catalogue, naming the keys that are', async () => {
    const store = await storeWith();
    await expect(importIne(store, SAMPLE, { indicator: 'natality' })).rejects.toThrow(
      /unknown indicator "natality".*birth_rate/,
    );
    await store.close();
  });
});

/** A documented-variant (`Dados`) response built from the shapes in test/fixtures/ine-api-reference.json. */
function dadosResponse(
  rows: Record<string, Record<string, string>[]>,
  sucesso: unknown = { Verdadeiro: [{ Msg: 'OK' }] },
) {
  return [
    {
      IndicadorCod: '0099999',
      // In ‰, the unit of birth_rate, which these tests import into (a unit that contradicts it is refused).
      IndicadorDsg: 'Indicador de teste (‰) por Local de residência (NUTS - 2024) e Sexo; Trimestral',
      MetaInfUrl: 'https://www.ine.pt/bddXplorer/htdocs/minfo.jsp?var_cd=0099999&lingua=PT',
      DataExtracao: '2026-05-01T10:00:00.000+01:00',
      DataUltimoAtualizacao: '2026-04-15',
      UltimoPref: '1.º Trimestre de 2026',
      Dados: rows,
      Sucesso: sucesso,
    },
  ];
}

const total = { dim_3: 'T', dim_3_t: 'HM' };
const men = { dim_3: '1', dim_3_t: 'H' };

describe('importIne with synthetic responses', () => {
  const synthetic = dadosResponse({
    '1.º Trimestre de 2026': [
      { geocod: 'PT', geodsg: 'Portugal', ...total, valor: '100' },
      { geocod: '1', geodsg: 'Continente', ...total, valor: '90' },
      { geocod: '1A', geodsg: 'Grande Lisboa', ...total, valor: '20' },
      { geocod: '1A0', geodsg: 'Grande Lisboa', ...total, valor: '20' },
      { geocod: '1A01106', geodsg: 'Lisboa', ...total, ind_string: '12,5', valor: '12.5' },
      { geocod: '1A01106', geodsg: 'Lisboa', ...men, valor: '6.1' },
      { geocod: '1A0110656', geodsg: 'Arroios', ...total, valor: '1.2' },
      { geocod: '11A1312', geodsg: 'Porto', ...total, sinal_conv: '¿', sinal_conv_desc: 'Dado confidencial' },
      { geocod: '1120303', geodsg: 'Braga', ...total, valor: '1,5' },
      { geocod: '1A09999', geodsg: 'Nenhures', ...total, valor: '3' },
      { geocod: '3001106', geodsg: 'Lisboa?', ...total, valor: '3' },
      { geocod: 'XYZ12', geodsg: 'Estranho', ...total, valor: '3' },
    ],
    '4.º Trimestre de 2025': [
      { geocod: '1A01106', geodsg: 'Lisboa', ...total, valor: '11' },
      { geocod: '1A01106', geodsg: 'Lisboa', ...men, valor: '5' },
    ],
    'Semana 3 de 2026': [{ geocod: '1A01106', geodsg: 'Lisboa', ...total, valor: '1' }],
  });

  it('reads the Dados variant: totals placed, confidential as null, every other row reported', async () => {
    const store = await storeWith();
    const r = await importIne(store, JSON.stringify(synthetic), { indicator: 'birth_rate' });

    expect(r.ine).toMatchObject({ code: '0099999', variant: 'Dados', last_updated: '2026-04-15' });
    expect(r.source).toBe('INE 0099999 — Indicador de teste (‰)');
    expect(r.periods).toEqual([
      { label: '4.º Trimestre de 2025', reference_date: '2025-12-31', rows: 1 },
      { label: '1.º Trimestre de 2026', reference_date: '2026-03-31', rows: 11 },
      { label: 'Semana 3 de 2026', reference_date: null, rows: 1 },
    ]);
    expect(r.unknown_periods).toEqual(['Semana 3 de 2026']);
    expect(r.unknown_period_rows).toBe(1);
    expect(r.rows_read).toBe(15);
    expect(r.non_total).toEqual({ count: 2, by_category: { 'dim_3=1': 2 } });
    expect(r.aggregates).toEqual({ country: 1, nuts1: 1, nuts2: 1, nuts3: 1, parish: 1 });
    expect(r.placed).toMatchObject({ rows: 4, with_value: 2, null_value: 2, inserted: 4 });
    expect(r.null_values).toEqual({
      by_sign: { '¿ Dado confidencial': 1, '(no sign)': 1 },
      unreadable: [{ period: '1.º Trimestre de 2026', geocod: '1120303', valor: '1,5' }],
    });
    expect(r.unplaced).toEqual([
      {
        period: '1.º Trimestre de 2026',
        geocod: '1A09999',
        geodsg: 'Nenhures',
        reason: 'unknown municipality code (DICO) 9999',
      },
      {
        period: '1.º Trimestre de 2026',
        geocod: '3001106',
        geodsg: 'Lisboa?',
        reason: 'NUTS prefix 300 does not fit municipality 1106',
      },
      { period: '1.º Trimestre de 2026', geocod: 'XYZ12', geodsg: 'Estranho', reason: 'unrecognised geocode' },
    ]);
    expect(r.warnings).toEqual([]);
    expectBalanced(r);

    const lisboa = await store.series({ indicator: 'birth_rate', municipalityId: idOf('1106'), limit: 10 });
    expect(lisboa.map((p) => [p.reference_date, p.value])).toEqual([
      ['2025-12-31', 11],
      ['2026-03-31', 12.5],
    ]);
    const porto = await store.series({ indicator: 'birth_rate', municipalityId: idOf('1312'), limit: 10 });
    expect(porto).toMatchObject([{ reference_date: '2026-03-31', value: null }]);
    await store.close();
  });

  it('selects other categories with the dimensions option', async () => {
    const store = await storeWith();
    const r = await importIne(store, synthetic, { indicator: 'birth_rate', dimensions: { '3': '1' } });
    expect(r.placed).toMatchObject({ rows: 2, with_value: 2 });
    expect(r.non_total.count).toBe(13); // every total row, of all three periods
    expectBalanced(r);
    const lisboa = await store.series({ indicator: 'birth_rate', municipalityId: idOf('1106'), limit: 10 });
    expect(lisboa.map((p) => p.value)).toEqual([5, 6.1]);

    await expect(importIne(store, synthetic, { indicator: 'birth_rate', dimensions: { dim_4: 'T' } })).rejects.toThrow(
      /no dimension dim_4 \(its dimensions: dim_3\)/,
    );
    await store.close();
  });

  const dimensionTotal =
    'takes as a dimension’s total its T, else the one category labelled so, else nothing (and says which it took)';
  it(dimensionTotal, () => {
    const housing = (labels: Record<string, string>) =>
      dadosResponse({
        '2024': Object.entries(labels).map(([code, label]) => ({
          geocod: '1A01106',
          geodsg: 'Lisboa',
          dim_3: code,
          dim_3_t: label,
          valor: '1',
        })),
      });
    const [byLabel] = parseIneResponse(housing({ H1: 'Total', H11: 'Novos', H12: 'Existentes' }));
    expect(byLabel.dimensions).toEqual({ dim_3: { code: 'H1', label: 'Total', chosen: 'label' } });
    expect(byLabel.observations.map((o) => o.dims.dim_3)).toEqual(['H1']);
    expect(byLabel.non_total.by_category).toEqual({ 'dim_3=H11': 1, 'dim_3=H12': 1 });
    const [sexes] = parseIneResponse(housing({ '1': 'H', '2': 'M', '9': 'HM' }));
    expect(sexes.dimensions.dim_3).toEqual({ code: '9', label: 'HM', chosen: 'label' });
    // Two categories labelled as a total, or none: not guessed — T stands, and every row is non-total.
    const [twoTotals] = parseIneResponse(housing({ A: 'Total', B: 'Total geral' }));
    expect(twoTotals.dimensions.dim_3).toEqual({ code: 'T', label: null, chosen: 'T' });
    expect(twoTotals.observations).toEqual([]);
    // A category asked for wins over the total.
    const [asked] = parseIneResponse(housing({ H1: 'Total', H12: 'Existentes' }), { dimensions: { dim_3: 'H12' } });
    expect(asked.dimensions.dim_3).toEqual({ code: 'H12', label: 'Existentes', chosen: 'asked' });
  });

  it('reports a duplicate row for one municipality and date instead of writing it twice', async () => {
    const store = await storeWith();
    const r = await importIne(
      store,
      dadosResponse({
        '2024': [
          { geocod: '1701106', geodsg: 'Lisboa', valor: '1' },
          { geocod: '1A01106', geodsg: 'Lisboa', valor: '2' },
        ],
      }),
      { indicator: 'birth_rate' },
    );
    expect(r.placed).toMatchObject({ rows: 1, inserted: 1 });
    expect(r.unplaced).toEqual([
      { period: '2024', geocod: '1A01106', geodsg: 'Lisboa', reason: 'duplicate of 1701106 (2024)' },
    ]);
    expectBalanced(r);
    await store.close();
  });

  it('turns a Sucesso.Falso block into an error carrying INE’s message', async () => {
    const store = await storeWith();
    const failed = [{ Sucesso: { Falso: [{ Msg: 'Código não válido' }] } }];
    await expect(importIne(store, failed, { indicator: 'birth_rate' })).rejects.toThrow(
      'INE returned an error: Código não válido',
    );
    expect(() => parseIneResponse(dadosResponse({}, { Falso: [{ Msg: 'Dimensão inválida' }] }))).toThrow(
      'INE returned an error for indicator 0099999: Dimensão inválida',
    );
    expect(() => parseIneResponse('<html>')).toThrow(/not JSON/);
    expect(() => parseIneResponse([{ IndicadorCod: '0008264' }])).toThrow(/neither "Dados" nor "Pref"/);
    await store.close();
  });

  it('accepts a single object and refuses a choice it cannot make among several indicators', async () => {
    const one = dadosResponse({ '2024': [{ geocod: '1701106', geodsg: 'Lisboa', valor: '1' }] })[0];
    expect(parseIneResponse(one)).toHaveLength(1);
    const store = await storeWith();
    const two = [one, { ...one, IndicadorCod: '0088888' }];
    await expect(importIne(store, two, { indicator: 'birth_rate' })).rejects.toThrow(
      /2 INE indicators \(0099999, 0088888\)/,
    );
    const r = await importIne(store, two, { indicator: 'birth_rate', ineCode: '0088888' });
    expect(r.ine.code).toBe('0088888');
    await store.close();
  });

  it('leaves the demo series alone when nothing can be placed', async () => {
    const store = await storeWith();
    await store.writeObservations('birth_rate', [
      { municipality_id: 1, reference_date: '2020-12-31', value: 7, treatment: 'estimated' },
    ]);
    const r = await importIne(
      store,
      dadosResponse({ 'Semana 1 de 2024': [{ geocod: '1701106', geodsg: 'Lisboa', valor: '1' }] }),
      {
        indicator: 'birth_rate',
      },
    );
    expect(r.placed.rows).toBe(0);
    expect(r.warnings).toContain('no municipal observation could be placed: nothing was written');
    expect(r.source).toBe('munidata demo (synthetic)');
    expect(await store.countObservations('birth_rate')).toBe(1);
    expectBalanced(r);
    await store.close();
  });
});
