/**
 * One number form across the service's pages: the console (server-rendered, src/lib/number-forms.ts) writes a score
 * or a confidence exactly as the explorer and the MCP Apps views do (assets/draw/dom.js, in the browser), so that
 * `0,85` on one is never `0.85` on the other.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a browser module without types; its number formats need no DOM.
import { formatNumber as explorerNumber } from '../assets/draw/dom.js';
import { formatCount, formatNumber } from '../src/lib/number-forms.js';

const FIGURES = [0, 0.5, 0.85, 0.9, 0.955, 1, 12.3456, 1234.5, 12345.678, -0.25, null, undefined, Number.NaN];

describe('the number form of the console and the explorer', () => {
  it('writes every figure the same, at each number of decimals', () => {
    for (const digits of [0, 1, 2]) {
      for (const value of FIGURES)
        expect(formatNumber(value, digits), `${value}, ${digits}`).toBe(explorerNumber(value, digits));
    }
  });

  it('writes a count as the explorer writes a whole number: grouped by spaces from five digits on', () => {
    for (const value of [7, 1234, 99_749, 100_000]) expect(formatCount(value)).toBe(explorerNumber(value, 0));
    expect(formatCount(99_749)).toBe('99\u00a0749');
    expect(formatCount(1234)).toBe('1234');
  });

  it('writes a confidence with a decimal comma, as the explorer does', () => {
    expect(formatNumber(0.85)).toBe('0,85');
    expect(formatNumber(0.9)).toBe('0,9');
  });
});
