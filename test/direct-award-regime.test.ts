/**
 * Direct-award ceilings by legal regime (docs/signals.md, "Direct-award ceilings by legal regime"): real Portal
 * BASE rows of the sample in test/fixtures (mainland and Azores), and rows written here in the same format for
 * Madeira and for a buyer whose region is unknown. The ceilings are written out again here from the docs' table.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { runDetection } from '../src/detect/run-detection.js';
import { importBaseContracts } from '../src/ingest/base/import-base.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { readRegime } from '../src/lib/direct-award-regime.js';
import type { SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { openTestStore } from './helpers/backend.js';

const SAMPLE: Record<string, any>[] = JSON.parse(
  readFileSync(new URL('fixtures/base-contracts-sample.json', import.meta.url), 'utf8'),
);
const row = (id: string) => SAMPLE.find((r) => r.idcontrato === id) as Record<string, any>;
const NOW = new Date('2024-03-01T12:00:00Z');
const key = (id: string) => `procurement:direct_award_high_value:base:${id}`;

/** Rows of the sample's format, made here: Madeira (Machico's tax number and place) and an unplaced buyer. */
const MADE = [
  {
    ...row('10556626'),
    idcontrato: '90000001',
    precoContratual: 25_000,
    adjudicante: ['511239440 - Município de Machico'],
    localExecucao: ['Portugal, Região Autónoma da Madeira, Machico'],
  },
  {
    ...row('10556626'),
    idcontrato: '90000002',
    precoContratual: 30_000,
    adjudicante: ['511239440 - Município de Machico'],
    localExecucao: ['Portugal, Região Autónoma da Madeira, Machico'],
  },
  {
    ...row('10557987'),
    idcontrato: '90000003',
    precoContratual: 37_345.78,
    adjudicante: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
  },
  {
    ...row('10557987'),
    idcontrato: '90000004',
    precoContratual: 80_000,
    adjudicante: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
  },
  {
    // A regional body (not a municipality) citing the CCP, executed in the region named down to the region only.
    ...row('10556626'),
    idcontrato: '90000005',
    precoContratual: 80_000,
    adjudicante: ['512021155 - Instituto de Alimentação e Mercados Agrícolas, I. P. R. A.'],
    localExecucao: ['Portugal, Região Autónoma dos Açores'],
  },
  {
    // A buyer that is no municipality, with places in two regions: the regime cannot be told.
    ...row('10557987'),
    idcontrato: '90000007',
    precoContratual: 37_345.78,
    adjudicante: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
    localExecucao: ['Portugal, Braga, Guimarães', 'Portugal, Região Autónoma dos Açores, Ponta Delgada'],
  },
  {
    ...row('10557987'),
    idcontrato: '90000008',
    precoContratual: 80_000,
    adjudicante: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
    localExecucao: ['Portugal, Braga, Guimarães', 'Portugal, Região Autónoma dos Açores, Ponta Delgada'],
  },
  {
    // A buyer of unknown region citing the CCP, whose record's `regime` names Madeira's decree.
    ...row('10557987'),
    idcontrato: '90000006',
    precoContratual: 30_000,
    adjudicante: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
    regime: 'Código dos Contratos Públicos (DL 111-B/2017 ) e DLR nº 34/2008/M, de 14.08',
  },
];

describe('the regime read from the legal basis and the region', () => {
  const reading =
    'a regional decree names its region; a CCP citation leaves it to the buyer region, else the general law is ' +
    'presumed; places in several regions leave it untold';
  it(reading, () => {
    expect(readRegime(row('10588244').fundamentacao, null)).toEqual({ regime: 'azores', told_by: 'legal_basis' });
    expect(readRegime(row('10588244').fundamentacao, 'national')).toEqual({ regime: 'azores', told_by: 'legal_basis' });
    expect(readRegime('Artigo 20.º, n.º 1, alínea d) do DLR n.º 34/2008/M', null)).toMatchObject({ regime: 'madeira' });
    expect(readRegime(row('10557987').fundamentacao, null)).toEqual({ regime: 'national', told_by: 'presumed' });
    expect(readRegime(row('10557987').fundamentacao, 'several')).toEqual({ regime: null, told_by: null });
    expect(readRegime(row('10557987').fundamentacao, 'madeira')).toEqual({ regime: 'madeira', told_by: 'region' });
    expect(readRegime(row('10548417').fundamentacao, 'azores')).toEqual({ regime: 'azores', told_by: 'region' });
    // The Lei n.º 30/2021 basis has a year but no region letter.
    expect(readRegime(row('10542387').fundamentacao, null).told_by).toBe('presumed');
    // However the decree is written: abbreviated, unaccented, spaced, a two-digit year, in a record's `regime`.
    for (const basis of [
      'alínea a) do artigo 20.º do DLR n.º 27/2015/A',
      'Artigo 20, alinea a) do Decreto Legislativo Regional n 27/2015/A, de 29 de dezembro',
      'Dec. Legislativo Regional n.º 27 / 2015 / A',
    ])
      expect(readRegime(basis, 'national'), basis).toEqual({ regime: 'azores', told_by: 'legal_basis' });
    for (const basis of [
      'DLR 34/2008/M',
      'DLR nº 34/08/M',
      'Código dos Contratos Públicos (DL 111-B/2017 ) e DLR nº 34/2008/M, de 14.08',
    ])
      expect(readRegime(basis, null), basis).toEqual({ regime: 'madeira', told_by: 'legal_basis' });
    // National acts, and a number followed by an alínea, name no region.
    for (const basis of [
      'Código dos Contratos Públicos (DL111-B/2017) e Lei n.º 30/2021, de 21.05',
      'Lei n.º 5/2020/a)',
    ])
      expect(readRegime(basis, null).told_by, basis).toBe('presumed');
  });
});

describe('direct_award_high_value on real rows', () => {
  let store: Store;
  let signals: Map<string, SignalRecord>;

  beforeAll(async () => {
    ({ store } = await openTestStore());
    await migrate(store);
    await store.saveMunicipalities(readMunicipalities());
    const text = JSON.stringify([...SAMPLE, ...MADE]);
    const report = await importBaseContracts(store, text, {
      format: 'json',
      fileName: 'sample.json',
      now: NOW.toISOString(),
    });
    expect(report.rejected).toEqual([]);
    await runDetection(store, { now: NOW });
    const all = await store.listSignals({ types: ['direct_award_high_value'] }, { limit: 1000 });
    signals = new Map(all.map((s) => [s.key, s]));
  }, 120_000);

  const azoresAward =
    'the Azores: Angra do Heroísmo’s 74 928 € award under art. 20.º a) of DLR 27/2015/A is under the regional 75 000 €';
  it(azoresAward, () => {
    expect(row('10588244').precoContratual).toBe(74_928);
    expect(signals.has(key('10588244'))).toBe(false);
  });

  const mainlandAward =
    'the mainland: Guimarães’ 37 345,78 € ajuste direto (art. 24.º CCP) is over the national 20 000 €, ' +
    'at full confidence';
  it(mainlandAward, () => {
    const s = signals.get(key('10557987')) as SignalRecord;
    expect(s).toBeDefined();
    expect(s.summary_pt).toContain('excede o limite de 20 000 €');
    expect(s.summary_pt).toContain('Código dos Contratos Públicos');
    expect(s.confidence).toBe(0.95);
  });

  it('no other real row of the sample is flagged: every other ajuste direto is under its ceiling', () => {
    const flagged = [...signals.keys()].filter((k) => !k.includes(':9000000'));
    expect(flagged).toEqual([key('10557987')]);
  });

  it('Madeira: 27 000 € (the CCP’s 20 000 € × 1,35) for goods and services', () => {
    expect(signals.has(key('90000001'))).toBe(false);
    const s = signals.get(key('90000002')) as SignalRecord;
    expect(s.summary_pt).toContain('excede o limite de 27 000 €');
    expect(s.summary_en).toContain('Madeira');
  });

  it('the region named without a municipality, and a record’s regional `regime`, tell the regime too', () => {
    const azores = signals.get(key('90000005')) as SignalRecord;
    expect(azores.summary_pt).toContain(
      'excede o limite de 75 000 € do ajuste direto para bens e serviços no regime da Região Autónoma dos Açores',
    );
    const madeira = signals.get(key('90000006')) as SignalRecord;
    expect(madeira.summary_pt).toContain('excede o limite de 27 000 €');
    expect(madeira.summary_pt).toContain(
      'Fundamento invocado: Artigo 24.º, n.º 1, alínea c) do Código dos Contratos Públicos; regime: Código',
    );
  });

  const presumedRegime =
    'nothing ties the buyer to a region (no municipality, "Portugal" alone): the general law’s 20 000 € is ' +
    'presumed, at a confidence 0.20 lower, saying so';
  it(presumedRegime, () => {
    const s = signals.get(key('90000003')) as SignalRecord;
    expect(s.summary_pt).toContain('excede o limite de 20 000 € do ajuste direto para bens e serviços');
    expect(s.summary_pt).toContain('presumido (nada no registo liga a entidade aos Açores ou à Madeira)');
    expect(s.summary_en).toContain('presumed');
    expect(s.confidence).toBeCloseTo(0.95 - 0.1 - 0.2, 5); // unplaced (municipality) and the regime
  });

  const untoldRegime =
    'places in two regions: the regime cannot be told; only above the highest ceiling (75 000 €), at a confidence ' +
    '0.20 lower, saying so';
  it(untoldRegime, () => {
    expect(signals.has(key('90000007'))).toBe(false);
    const s = signals.get(key('90000008')) as SignalRecord;
    expect(s.summary_pt).toContain('excede o limite de 75 000 €');
    expect(s.summary_pt).toContain('não se apura');
    expect(s.confidence).toBeCloseTo(0.95 - 0.2, 5); // placed, but not in one region
  });
});
