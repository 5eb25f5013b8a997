/**
 * The texts of indicator signals, word for word (docs/signals.md, "Indicator rules"): values as stored (a whole
 * number keeps its zeros, decimals lose only their trailing zeros) and periods as the series counts them (a monthly
 * series' December is a month, an annual series' point a year).
 */
import { describe, expect, it } from 'vitest';
import { indicatorSignals } from '../src/detect/indicator-signals.js';
import { Places } from '../src/detect/places.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { Frequency, IndicatorRecord, MunicipalityRecord, ObservationRow } from '../src/store/records.js';
import type { SignalInput } from '../src/store/signal-records.js';
import { indicatorRecord } from './helpers/indicator-record.js';

const PORTO_SANTO = readMunicipalities().find((m) => m.code === '3201') as MunicipalityRecord;

function indicator(frequency: Frequency, unit_display: string | null): IndicatorRecord {
  return indicatorRecord({ key: 'stays', name: 'Overnight stays', name_pt: 'Dormidas', unit_display, frequency });
}

function signals(ind: IndicatorRecord, points: [string, number][]): SignalInput[] {
  const rows: ObservationRow[] = points.map(([reference_date, value]) => ({
    municipality_id: PORTO_SANTO.id,
    reference_date,
    value,
    value_norm: null,
    treatment: 'raw',
  }));
  const ctx = { today: '2026-12-01', places: new Places([PORTO_SANTO]) };
  return indicatorSignals(ind, new Map([[PORTO_SANTO.id, rows]]), ctx, new Map());
}

const of = (all: SignalInput[], type: string, date: string) =>
  all.find((s) => s.type === type && s.event_date === date) as SignalInput;

describe('indicator signal texts', () => {
  // A monthly series: a jump into December, one out of it into January, and January a record over December.
  const monthly = signals(indicator('monthly', 'n.º'), [
    ['2017-08-31', 900],
    ['2017-09-30', 950],
    ['2017-10-31', 980],
    ['2017-11-30', 1000],
    ['2017-12-31', 4640],
    ['2018-01-31', 18690],
  ]);

  it('write a whole number with all its digits, in both languages and in the evidence', () => {
    const record = of(monthly, 'indicator_record', '2018-01-31');
    expect(record.summary_pt).toBe(
      'Em janeiro de 2018, o indicador «Dormidas» no Porto Santo foi de 18 690, o valor mais alto dos 6 períodos da ' +
        'série; o anterior máximo era 4 640 (dezembro de 2017).',
    );
    expect(record.summary_en).toBe(
      "In January 2018, “Overnight stays” in Porto Santo stood at 18,690, the highest value of the series' 6 " +
        'periods; the previous record was 4,640 (December 2017).',
    );
    expect(record.evidence[0].excerpt_pt).toBe(
      'Porto Santo, janeiro de 2018: 18 690 (máximo anterior: 4 640 (dezembro de 2017)).',
    );
  });

  it('name a monthly series’ December by its month, not by the year alone', () => {
    const intoJanuary = of(monthly, 'indicator_jump', '2018-01-31');
    expect(intoJanuary.summary_pt).toBe(
      'No Porto Santo, o indicador «Dormidas» subiu de 4 640 (dezembro de 2017) para 18 690 (janeiro de 2018), ' +
        'uma variação de +302,8 %.',
    );
    const intoDecember = of(monthly, 'indicator_jump', '2017-12-31');
    expect(intoDecember.title_pt).toBe('Dormidas: +364,0 % no Porto Santo (dezembro de 2017)');
    expect(intoDecember.title_en).toBe('Overnight stays: +364.0% in Porto Santo (December 2017)');
    expect(intoDecember.summary_en).toBe(
      'In Porto Santo, “Overnight stays” rose from 1,000 (November 2017) to 4,640 (December 2017), a change of ' +
        '+364.0%.',
    );
  });

  it('name an annual series’ point by its year, and drop only the trailing zeros of decimals', () => {
    const annual = signals(indicator('annual', '%'), [
      ['2019-12-31', 20.5],
      ['2020-12-31', 21.25],
      ['2021-12-31', 30],
      ['2022-12-31', 30.1],
      ['2023-12-31', 1230.4],
    ]);
    const record = of(annual, 'indicator_record', '2023-12-31');
    expect(record.title_pt).toBe('Dormidas: máximo da série no Porto Santo (2023)');
    expect(record.summary_pt).toBe(
      'Em 2023, o indicador «Dormidas» no Porto Santo foi de 1 230,4 %, o valor mais alto dos 5 períodos da série; ' +
        'o anterior máximo era 30,1 % (2022).',
    );
    expect(of(annual, 'indicator_jump', '2021-12-31').summary_pt).toBe(
      'No Porto Santo, o indicador «Dormidas» subiu de 21,25 % (2020) para 30 % (2021), uma variação de +41,2 %.',
    );
  });

  it('set an index’s base and the period in one pair of parentheses: "64,3 (Portugal = 100, 2011)"', () => {
    const index = signals(indicator('annual', 'Portugal = 100'), [
      ['1993-12-31', 60],
      ['2011-12-31', 64.3],
      ['2021-12-31', 82.6],
      ['2022-12-31', 83],
      ['2023-12-31', 110.5],
    ]);
    const jump = of(index, 'indicator_jump', '2021-12-31');
    expect(jump.summary_pt).toBe(
      'No Porto Santo, o indicador «Dormidas» subiu de 64,3 (Portugal = 100, 2011) para 82,6 (Portugal = 100, 2021), ' +
        'uma variação de +28,5 %.',
    );
    expect(jump.summary_en).toContain('rose from 64.3 (Portugal = 100, 2011) to 82.6 (Portugal = 100, 2021)');
    expect(of(index, 'indicator_record', '2023-12-31').summary_pt).toContain(
      'o anterior máximo era 83 (Portugal = 100, 2022).',
    );
  });
});
