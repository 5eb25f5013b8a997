/**
 * The number form of the console's figures (a match's score, a rule's least confidence): the form every page of
 * the service writes a number in — the explorer's and the MCP Apps views' `formatNumber` (assets/draw/dom.js),
 * Portuguese decimals, at most two: `0,85`, `12 345`. The console is rendered here, the explorer in the browser, and
 * src/ does not import assets/ (docs/architecture.md, Layout): test/number-forms.test.ts holds the two to one form.
 */
const formats = new Map<number, Intl.NumberFormat>();

/** A number with at most `digits` decimals, as the explorer writes it; `—` for none. */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  let format = formats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('pt-PT', { maximumFractionDigits: digits });
    formats.set(digits, format);
  }
  return format.format(value);
}

/**
 * A count of requests, changes or items in the same form, a whole number: `99 749`, `100 000`, and `1234`, since
 * Portuguese groups thousands from five digits on (CLDR's pt-PT, as the explorer writes them) — never `99,749`,
 * which a reader of `0,85` takes for ninety-nine and a bit.
 */
export function formatCount(value: number): string {
  return formatNumber(value, 0);
}
