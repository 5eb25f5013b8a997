/**
 * What the explorer's pages and the MCP Apps views (src/channels/mcp/apps/) both draw with: elements, number
 * formats and tables. No page state here: a module of assets/draw/ runs in either host.
 */

/** `h('p', {class: 'x'}, 'text', child)`: an element; attributes starting with `on` become listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

const numberFormats = new Map();
export function formatNumber(value, digits = 2) {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  let format = numberFormats.get(digits);
  if (!format) {
    format = new Intl.NumberFormat('pt-PT', { maximumFractionDigits: digits });
    numberFormats.set(digits, format);
  }
  return format.format(value);
}

/** A count and its noun, the noun singular for one: `1 contract`, `12 345 contracts`. */
export function formatCount(count, singular, plural = `${singular}s`) {
  return `${formatNumber(count, 0)} ${count === 1 ? singular : plural}`;
}

/**
 * A value in its indicator's unit: `7,2 %`, `12 345 hab.`, `1 200 €/m²`; a unit that names things counted
 * (`unit_singular` beside it) is singular for one: `1 signal`, `2 signals`. A unit that is a reference rather than
 * a measure goes in brackets, as the signals write it: `186,3 (Portugal = 100)`, not `186,3 Portugal = 100`.
 */
export function formatValue(value, indicator) {
  if (value === null || value === undefined) return 'no data';
  if (indicator?.unit_singular) return formatCount(value, indicator.unit_singular, indicator.unit_display);
  const digits = Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 100 ? 1 : 2;
  const unit = indicator?.unit_display ?? '';
  if (!unit) return formatNumber(value, digits);
  return `${formatNumber(value, digits)} ${unit.includes(' = ') ? `(${unit})` : unit}`;
}

/** A sum to the cent, as a record states it (a contract's price): `978 451,00 €`. Charts and totals: formatEuros. */
const centsFormat = new Intl.NumberFormat('pt-PT', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
export function formatExactEuros(value) {
  return value === null || value === undefined ? '—' : `${centsFormat.format(value)} €`;
}

/** A sum rounded for a chart, a total or a list: `8361 €`, `978 mil €`, `2,5 M€`. */
export function formatEuros(value) {
  if (value === null || value === undefined) return '—';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${formatNumber(value / 1e9, 2)} mil M€`;
  if (abs >= 1e6) return `${formatNumber(value / 1e6, 1)} M€`;
  if (abs >= 1e4) return `${formatNumber(value / 1e3, 0)} mil €`;
  return `${formatNumber(value, 0)} €`;
}

const DATE = /^\d{4}-\d{2}(-\d{2})?(T|$)/;

/**
 * A table from rows and columns `{label, value(row), numeric, href(row)}`. `stack`: on a narrow screen each row
 * becomes a block of labelled lines instead of a table wider than the screen; `tall`: a long table shown open
 * scrolls inside its box.
 */
export function table(columns, rows, caption, { stack = false, tall = false } = {}) {
  const head = h(
    'tr',
    {},
    columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : null }, c.label)),
  );
  const body = rows.map((row) =>
    h(
      'tr',
      {},
      columns.map((c, i) => {
        const text = c.value(row);
        // A row whose thing has no address (a contract without a municipality) shows its text, not a broken link.
        const href = c.href?.(row);
        const content = href ? h('a', { href }, text) : text;
        // A date (2026-11-30, or a moment that starts with one) stays on one line: broken at its hyphen it reads
        // as two numbers.
        const date = typeof text === 'string' && DATE.test(text) ? 'date' : null;
        return i === 0
          ? h('th', { scope: 'row', class: date }, content)
          : h('td', { class: c.numeric ? 'num' : date, 'data-label': c.label }, content);
      }),
    ),
  );
  return h(
    'div',
    { class: tall ? 'scroll tall' : 'scroll' },
    h(
      'table',
      { class: stack ? 'stack' : null },
      caption ? h('caption', {}, caption) : null,
      h('thead', {}, head),
      h('tbody', {}, body),
    ),
  );
}
