/**
 * Honest colour scales for the indicator map (docs/explorer.md):
 * - sequential (light → dark, ColorBrewer YlGnBu) for counts, amounts and levels, and for any indicator without
 *   a direction;
 * - diverging around the national median for rates, ratios and indices that have a direction (ColorBrewer PuOr,
 *   readable by colour-blind people): purple on the better side, orange on the worse, the median at the centre;
 * - classes by quantiles (each class holds about as many municipalities) or equal intervals, and the legend says which.
 */
import { formatNumber, formatValue, h } from './dom.js';

const CLASSES = 6;
/** ColorBrewer PuOr, 6 classes, from orange to purple. */
const ORANGE_TO_PURPLE = ['#b35806', '#f1a340', '#fee0b6', '#d8daeb', '#998ec3', '#542788'];
const RATE_DOMAINS = new Set(['rate', 'ratio', 'index', 'signed']);

export function isDiverging(indicator) {
  return (
    indicator.direction !== 'neutral' &&
    RATE_DOMAINS.has(indicator.value_domain) &&
    indicator.treatment !== 'normalized'
  );
}

/**
 * The classes of a set of values: `breaks` (ascending thresholds), `colors` (one per class) and `classOf(value)`.
 * `method` is `quantile` or `equal`; `centre` (the national median) anchors a diverging scale; `palestApart` keeps
 * the palest colour of a sequential scale out of its classes, for a value drawn apart from them.
 */
export function classify(values, { indicator, method, centre, palestApart = false }) {
  const sorted = values.filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  const diverging = isDiverging(indicator) && centre !== null && centre !== undefined;
  let breaks;
  let colors;
  if (diverging) {
    const below = sorted.filter((v) => v < centre);
    const above = sorted.filter((v) => v >= centre);
    const half = CLASSES / 2;
    const lowBreaks = method === 'equal' ? equalBreaks(sorted[0] ?? centre, centre, half) : quantileBreaks(below, half);
    const highBreaks =
      method === 'equal' ? equalBreaks(centre, sorted.at(-1) ?? centre, half) : quantileBreaks(above, half);
    breaks = [...lowBreaks, centre, ...highBreaks];
    // Low values first: purple (better) on the low side when lower is better, orange (worse) otherwise.
    colors = indicator.direction === 'higher_is_better' ? [...ORANGE_TO_PURPLE] : [...ORANGE_TO_PURPLE].reverse();
  } else {
    // Values with many ties (small counts) give equal quantiles: a class is never empty by construction.
    // and a threshold at the lowest value would leave the first class empty.
    breaks = [
      ...new Set(
        method === 'equal' ? equalBreaks(sorted[0] ?? 0, sorted.at(-1) ?? 0, CLASSES) : quantileBreaks(sorted, CLASSES),
      ),
    ].filter((b) => b > (sorted[0] ?? 0));
    // One value alone (one class) takes a colour from the middle of the scheme: its palest would be near the
    // background, as if nothing were there.
    // `palestApart`: the scheme's palest is left to a value drawn apart (the integrity map's 0 %), and the classes
    // start one step darker, so that the two are never confused.
    const skip = palestApart ? 1 : 0;
    colors =
      breaks.length === 0
        ? [d3.schemeYlGnBu[CLASSES][CLASSES / 2]]
        : [...d3.schemeYlGnBu[Math.max(3, breaks.length + 1 + skip)]].slice(skip, breaks.length + 1 + skip);
  }
  const classOf = (value) => {
    if (value === null || value === undefined) return -1;
    let i = 0;
    while (i < breaks.length && value >= breaks[i]) i++;
    return i;
  };
  return { breaks, colors, classOf, diverging, method, min: sorted[0], max: sorted.at(-1) };
}

/** The n−1 inner thresholds that split sorted values into n classes of about equal count. */
function quantileBreaks(sorted, n) {
  if (sorted.length === 0) return [];
  const breaks = [];
  for (let i = 1; i < n; i++) breaks.push(d3.quantileSorted(sorted, i / n));
  return breaks;
}

function equalBreaks(min, max, n) {
  const breaks = [];
  for (let i = 1; i < n; i++) breaks.push(min + ((max - min) * i) / n);
  return breaks;
}

/**
 * The legend: one swatch per class with its range in the indicator's unit, then no data and stale (`stale`: false,
 * or the words for it).
 */
export function legend(scale, indicator, counts, { missing = 'no data', stale = true } = {}) {
  const { breaks, colors } = scale;
  // Things counted (`unit_singular`: signals) are whole numbers: a class [2, 3) is `2 signals` and [3, 6) is
  // `3 – 5 signals`, so that no count reads as in two classes (`2 – 3 signals`, `3 – 6 signals`).
  const whole = Boolean(indicator?.unit_singular);
  const items = colors.map((color, i) => {
    let low = i === 0 ? scale.min : breaks[i - 1];
    let high = i === colors.length - 1 ? scale.max : breaks[i];
    if (whole && Math.ceil(low) <= (i === colors.length - 1 ? high : Math.ceil(high) - 1)) {
      low = Math.ceil(low);
      high = i === colors.length - 1 ? high : Math.ceil(high) - 1;
    }
    const range = whole
      ? `${formatNumber(low, 0)} – ${formatValue(high, indicator)}`
      : `${formatValue(low, indicator)} – ${formatValue(high, indicator)}`;
    return h(
      'li',
      {},
      h('span', { class: `swatch c${i}`, 'data-color': color }),
      // A class of one value reads as that value, not as a range from it to itself.
      low === high ? formatValue(low, indicator) : range,
      counts ? h('span', { class: 'count' }, ` (${counts[i] ?? 0})`) : null,
    );
  });
  const method =
    scale.method === 'equal' ? 'equal intervals' : 'quantiles (about as many municipalities in each class)';
  const kind = scale.diverging
    ? `Diverging around the national median (${formatValue(breaks[CLASSES / 2 - 1], indicator)}): ` +
      `purple is better, orange is worse (${indicator.direction.replaceAll('_', ' ')}).`
    : 'Sequential: darker is higher.';
  const list = h(
    'ul',
    { class: 'legend' },
    items,
    missing
      ? h(
          'li',
          {},
          h('span', { class: `swatch ${missing === 'none' ? 'none' : 'missing'}` }),
          missing === 'none' ? 'none' : missing,
        )
      : null,
    stale
      ? h(
          'li',
          {},
          h('span', { class: 'swatch stale' }),
          stale === true ? 'older than the latest period (stale)' : stale,
        )
      : null,
  );
  // Swatch colours are set through the CSSOM (no inline style attribute in the markup).
  for (const swatch of list.querySelectorAll('[data-color]'))
    swatch.style.background = swatch.getAttribute('data-color');
  return h(
    'div',
    { class: 'legend-box' },
    h('p', { class: 'legend-title' }, legendTitle(indicator)),
    list,
    h('p', { class: 'legend-note' }, `${kind} Classes: ${method}.`),
  );
}

/** The indicator's name and unit, the unit left out where it repeats the name: `Signals`, not `Signals (signals)`. */
function legendTitle(indicator) {
  const unit = indicator.unit_display ?? indicator.unit;
  return !unit || unit.toLowerCase() === indicator.name.toLowerCase() ? indicator.name : `${indicator.name} (${unit})`;
}
