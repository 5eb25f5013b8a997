/**
 * The figures of the red flags' reasons as each language writes them (src/integrity/said.ts): a share too small to
 * show at one decimal is said to be under 0.1 %, never `0 %`, which a reader takes for none.
 */
import { describe, expect, it } from 'vitest';
import { counted, eurosSaid, percentSaid } from '../src/integrity/said.js';

describe('percentages', () => {
  it('write one decimal in each language, and a tiny share as under 0.1 %', () => {
    expect(percentSaid(0.125)).toEqual({ en: '12.5 %', pt: '12,5 %' });
    expect(percentSaid(0.5)).toEqual({ en: '50 %', pt: '50 %' });
    // 983,70 € of 13 511 208,25 €: a real supplier's share of a hospital's year, 0.007 %.
    expect(percentSaid(983.7 / 13_511_208.25)).toEqual({ en: 'under 0.1 %', pt: 'menos de 0,1 %' });
    expect(percentSaid(0)).toEqual({ en: '0 %', pt: '0 %' });
  });
});

describe('counts and euros', () => {
  it('say one in the singular and write euros as each language does', () => {
    expect(counted(1, 'contrato')).toBe('1 contrato');
    expect(counted(3, 'divisão CPV', 'divisões CPV')).toBe('3 divisões CPV');
    expect(eurosSaid(20_000)).toEqual({ en: '€20,000', pt: '20 000 €' });
  });
});
