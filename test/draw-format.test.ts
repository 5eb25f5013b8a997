/**
 * The numbers the explorer and the MCP app views print (assets/draw/dom.js): Portuguese grouping, and a count's noun
 * singular for one ("1 contracts" read as a slip in the buyer's integrity panel), and a record's sums to the cent.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a browser module of plain JavaScript, without types
import { formatCount, formatEuros, formatExactEuros, formatValue } from '../assets/draw/dom.js';

describe('formatCount', () => {
  it('says one thing in the singular and any other count in the plural, grouped as in Portuguese', () => {
    expect(formatCount(1, 'contract')).toBe('1 contract');
    expect(formatCount(0, 'contract')).toBe('0 contracts');
    expect(formatCount(12_345, 'contract')).toBe('12\u00a0345 contracts');
    expect(formatCount(2, 'process', 'processes')).toBe('2 processes');
  });
});

describe('formatValue', () => {
  it('names a count of things in the singular for one, when its unit says what one is', () => {
    const signals = { unit_display: 'signals', unit_singular: 'signal' };
    expect(formatValue(1, signals)).toBe('1 signal');
    expect(formatValue(2, signals)).toBe('2 signals');
    expect(formatValue(7.25, { unit_display: '%' })).toBe('7,25 %');
  });
});

describe('formatEuros', () => {
  it('gives small sums whole and larger ones in thousands and millions', () => {
    expect(formatEuros(8_360.85)).toBe('8361 €');
    expect(formatEuros(978_451)).toBe('978 mil €');
    expect(formatEuros(2_500_000)).toBe('2,5 M€');
    expect(formatEuros(null)).toBe('—');
  });
});

describe('formatExactEuros', () => {
  it("gives a record's sum to the cent, as the portal states it, not rounded as a chart's", () => {
    expect(formatExactEuros(978_451)).toBe('978\u00a0451,00 €');
    expect(formatExactEuros(8_360.85)).toBe('8360,85 €');
    expect(formatExactEuros(0)).toBe('0,00 €');
    expect(formatExactEuros(null)).toBe('—');
  });
});
