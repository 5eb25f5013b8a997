/**
 * The explorer's charts, drawn as SVG with d3's scales, axes and shapes: lines over time (a municipality's series
 * with its district's and the national medians), stacked yearly bars, ranked horizontal bars, a timeline of dated
 * events and a sparkline. Colours are colour-blind-safe (Okabe–Ito); lines also differ by dash, not colour alone.
 */
import { h } from './dom.js';
import { periodOf } from './periods.js';

/** Okabe–Ito: distinguishable by the common colour-vision deficiencies. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
  '#999999',
];

function frame(width, height, label) {
  return d3.create('svg').attr('viewBox', `0 0 ${width} ${height}`).attr('role', 'img').attr('aria-label', label);
}

/**
 * Room left of the plot for the value axis's widest figure (11 px text, under 6.5 px a character): `1,5 mil M€`
 * needs more than the 64 px that hold `800 mil €`, and a figure wider than its room is cut at the picture's edge.
 */
function axisRoom(y, format) {
  const widest = Math.max(0, ...y.ticks(5).map((v) => String(format(v)).length));
  return Math.max(64, Math.ceil(widest * 6.5) + 12);
}

/** Horizontal lines at the value axis's ticks, across the plot, behind the marks. */
function gridLines(svg, y, left, right) {
  svg
    .append('g')
    .attr('class', 'grid')
    .selectAll('line')
    .data(y.ticks(5))
    .join('line')
    .attr('x1', left)
    .attr('x2', right)
    .attr('y1', y)
    .attr('y2', y);
}

function key(entries) {
  return h(
    'ul',
    { class: 'key' },
    entries.map(({ label, color, dashed }) => {
      const line = h('span', { class: `line${dashed ? ' dashed' : ''}` });
      line.style.borderTopColor = color;
      return h('li', {}, line, label);
    }),
  );
}

/**
 * Lines over time: `series` = [{label, color, dashed, points: [{date: Date, value}]}], each point dated the last
 * day of its period (periods.js); `format(value)` for the axis and the labels. A point is drawn on its period's
 * tick, and a missing period leaves its gap around that period's own tick.
 */
export function lineChart({ series, label, format, width = 640, height = 280 }) {
  const margin = { top: 12, right: 16, bottom: 26, left: 64 };
  const all = series.flatMap((s) => s.points).filter((p) => p.value !== null && p.value !== undefined);
  const period = periodOf(series.flatMap((s) => s.points.map((p) => p.date)));
  const at = (p) => period.start(p.date);
  const [lo, hi] = d3.extent(all, (p) => p.value);
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.08;
  const y = d3
    .scaleLinear()
    .domain([lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad])
    .nice()
    .range([height - margin.bottom, margin.top]);
  margin.left = axisRoom(y, format);
  const x = d3
    .scaleUtc()
    .domain(d3.extent(all, at))
    .range([margin.left, width - margin.right]);
  const svg = frame(width, height, label);
  gridLines(svg, y, margin.left, width - margin.right);
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height - margin.bottom})`)
    .call(period.axis(d3.axisBottom(x), x, Math.max(2, Math.floor(width / 70))).tickSizeOuter(0));
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).ticks(5).tickFormat(format));
  const line = d3
    .line()
    .defined((p) => p.value !== null && p.value !== undefined)
    .x((p) => x(at(p)))
    .y((p) => y(p.value));
  for (const s of series) {
    svg
      .append('path')
      .attr('fill', 'none')
      .attr('stroke', s.color)
      .attr('stroke-width', s.width ?? 2)
      .attr('stroke-dasharray', s.dashed ? '5 4' : null)
      .attr('d', line(s.points))
      .attr('class', `series ${s.className ?? ''}`);
    if (s.dots) {
      svg
        .append('g')
        .selectAll('circle')
        .data(s.points.filter((p) => p.value !== null && p.value !== undefined))
        .join('circle')
        .attr('cx', (p) => x(at(p)))
        .attr('cy', (p) => y(p.value))
        .attr('r', 3)
        .attr('fill', s.color)
        .attr('data-period', (p) => period.label(p.date))
        .append('title')
        .text((p) => `${period.label(p.date)}: ${format(p.value)}`);
    }
  }
  return h('div', { class: 'chart' }, svg.node(), key(series));
}

/** A tiny line without axes, for the key figures: `points` = [{date, value}], each on its period as in lineChart. */
export function sparkline(points, color = '#1f5f8b') {
  const width = 120;
  const height = 28;
  const known = points.filter((p) => p.value !== null && p.value !== undefined);
  // Stretched to its card's width: the stroke keeps its width (non-scaling), only the time axis stretches.
  const svg = frame(width, height, '').attr('aria-hidden', 'true').attr('preserveAspectRatio', 'none');
  if (known.length < 2) return svg.node();
  const period = periodOf(points.map((p) => p.date));
  const at = (p) => period.start(p.date);
  const x = d3
    .scaleUtc()
    .domain(d3.extent(known, at))
    .range([2, width - 2]);
  const y = d3
    .scaleLinear()
    .domain(d3.extent(known, (p) => p.value))
    .range([height - 3, 3]);
  svg
    .append('path')
    .attr('fill', 'none')
    .attr('stroke', color)
    .attr('stroke-width', 1.6)
    .attr('vector-effect', 'non-scaling-stroke')
    .attr(
      'd',
      d3
        .line()
        .defined((p) => p.value !== null && p.value !== undefined)
        .x((p) => x(at(p)))
        .y((p) => y(p.value))(points),
    );
  return svg.node();
}

/**
 * Stacked vertical bars: `rows` = [{x, parts: {name: value}}], `names` in stacking order (colours follow it);
 * `format` for the axis.
 */
export function stackedBars({ rows, names, label, format, width = 640, height = 300 }) {
  // A label that says which part of its year a bar covers takes a second line (twoLineTicks).
  const margin = { top: 12, right: 12, bottom: rows.some((r) => r.x.includes(' (')) ? 40 : 26, left: 64 };
  const colors = new Map(names.map((n, i) => [n, PALETTE[i % PALETTE.length]]));
  const stack = d3
    .stack()
    .keys(names)
    .value((row, name) => row.parts[name] ?? 0)(rows);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(stack.at(-1) ?? [], (d) => d[1]) || 1])
    .nice()
    .range([height - margin.bottom, margin.top]);
  margin.left = axisRoom(y, format);
  const x = d3
    .scaleBand()
    .domain(rows.map((r) => r.x))
    .range([margin.left, width - margin.right])
    .padding(0.2);
  const svg = frame(width, height, label);
  gridLines(svg, y, margin.left, width - margin.right);
  for (const layer of stack) {
    svg
      .append('g')
      .attr('fill', colors.get(layer.key))
      .selectAll('rect')
      .data(layer)
      .join('rect')
      .attr('x', (d) => x(d.data.x))
      .attr('width', x.bandwidth())
      .attr('y', (d) => y(d[1]))
      .attr('height', (d) => Math.max(0, y(d[0]) - y(d[1])))
      .append('title')
      .text((d) => `${d.data.x} · ${layer.key}: ${format(d.data.parts[layer.key] ?? 0)}`);
  }
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickSizeOuter(0))
    .call(twoLineTicks);
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).ticks(5).tickFormat(format));
  return h('div', { class: 'chart' }, svg.node(), key(names.map((n) => ({ label: n, color: colors.get(n) }))));
}

/**
 * A band's label on two lines where it says which part of its year the bar covers: `2024` over `Jan–Feb`. On one
 * line, `2020 (Jul–Dec)` is wider than its band on a phone and runs into its neighbours.
 */
function twoLineTicks(axis) {
  axis.selectAll('.tick text').each(function () {
    const text = d3.select(this);
    const whole = text.text();
    const cut = whole.indexOf(' (');
    if (cut < 0) return;
    text.text(null);
    text.append('tspan').attr('x', 0).text(whole.slice(0, cut));
    text
      .append('tspan')
      .attr('x', 0)
      .attr('dy', '1.1em')
      .text(whole.slice(cut + 2).replace(/\)$/, ''));
  });
}

/**
 * A bar's label cut with an ellipsis where it is wider than `room` (user units of a picture whose labels are 12 px):
 * measured in the page's own font, since a fixed width per character (6.6 px) left labels of wide letters
 * (`33 Equipamento médico, medicamentos e produtos p`) cut by the picture's edge, ellipsis and all. The table beside
 * the picture has them whole. Without a canvas to measure with, the estimate stands.
 */
function fitted(label, room) {
  const width = textWidth();
  if (!width) return label.length > room / 6.6 ? `${label.slice(0, Math.floor(room / 6.6) - 1)}…` : label;
  if (width(label) <= room) return label;
  let kept = label.length - 1;
  while (kept > 1 && width(`${label.slice(0, kept).trimEnd()}…`) > room) kept--;
  return `${label.slice(0, kept).trimEnd()}…`;
}

let measuring;
/** The width of a text at 12 px in the font of the page's charts, or undefined where nothing can measure it. */
function textWidth() {
  if (measuring !== undefined) return measuring || undefined;
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) {
    measuring = false;
    return undefined;
  }
  context.font = `12px ${getComputedStyle(document.body).fontFamily}`;
  measuring = (text) => context.measureText(text).width;
  return measuring;
}

/**
 * Ranked horizontal bars: `rows` = [{label, value, href?}], longest first; labels above their bars (narrow screens).
 */
export function horizontalBars({ rows, label, format, width = 640, color = '#0072B2' }) {
  const band = 34;
  const height = rows.length * band + 8;
  const x = d3
    .scaleLinear()
    .domain([0, d3.max(rows, (r) => r.value) || 1])
    .range([0, width - 110]);
  const svg = frame(width, height, label);
  const row = svg
    .selectAll('g')
    .data(rows)
    .join('g')
    .attr('transform', (_, i) => `translate(0,${i * band + 4})`);
  // A row that names a thing with a page of its own (a supplier) links its label there, by its whole name; the
  // picture is then a group of links, not an image, which a screen reader reads as one thing, naming no link in it.
  if (rows.some((r) => r.href)) svg.attr('role', 'group');
  row.each(function (r) {
    const holder = r.href
      ? d3.select(this).append('a').attr('href', r.href).attr('aria-label', r.label)
      : d3.select(this);
    holder.append('text').attr('x', 0).attr('y', 11).attr('class', 'bar-label').text(fitted(r.label, width));
  });
  row
    .append('rect')
    .attr('x', 0)
    .attr('y', 15)
    .attr('height', 13)
    .attr('width', (r) => Math.max(1, x(r.value)))
    .attr('fill', color);
  row
    .append('text')
    .attr('x', (r) => Math.max(1, x(r.value)) + 6)
    .attr('y', 26)
    .attr('class', 'bar-value')
    .text((r) => format(r.value));
  return h('div', { class: 'chart' }, svg.node());
}

/**
 * A timeline: dated events counted per month on lanes (`lanes` in order), one strip of bars each, the months in
 * the same places on every lane; `events` = [{date: Date, lane, label}]. A bar's title gives its month and count.
 */
export function timeline({ events, lanes, label, width = 640, laneNames = (l) => l }) {
  const margin = { top: 8, right: 14, bottom: 26, left: 14 };
  const laneHeight = 52;
  const height = margin.top + lanes.length * laneHeight + margin.bottom;
  const [first, last] = d3.extent(events, (e) => e.date);
  const months = d3.utcMonth.range(d3.utcMonth.floor(first), d3.utcMonth.offset(d3.utcMonth.floor(last), 1));
  const x = d3
    .scaleUtc()
    .domain([months[0], d3.utcMonth.offset(months.at(-1), 1)])
    .range([margin.left, width - margin.right]);
  const colors = new Map(lanes.map((l, i) => [l, PALETTE[i % PALETTE.length]]));
  const counts = d3.rollup(
    events,
    (g) => g.length,
    (e) => e.lane,
    (e) => +d3.utcMonth.floor(e.date),
  );
  const most = d3.max([...counts.values()].flatMap((m) => [...m.values()])) || 1;
  const svg = frame(width, height, label);
  lanes.forEach((lane, i) => {
    const top = margin.top + i * laneHeight;
    const base = top + laneHeight - 6;
    const y = d3
      .scaleLinear()
      .domain([0, most])
      .range([base, top + 16]);
    const own = counts.get(lane) ?? new Map();
    svg
      .append('text')
      .attr('x', margin.left)
      .attr('y', top + 11)
      .attr('class', 'lane-label')
      .text(`${laneNames(lane)} · ${d3.sum(own.values())}`);
    svg
      .append('line')
      .attr('x1', margin.left)
      .attr('x2', width - margin.right)
      .attr('y1', base)
      .attr('y2', base)
      .attr('stroke', '#d8dde2');
    svg
      .append('g')
      .attr('fill', colors.get(lane))
      .selectAll('rect')
      .data([...own])
      .join('rect')
      .attr('x', ([month]) => x(new Date(month)) + 0.5)
      .attr('width', ([month]) => Math.max(1, x(d3.utcMonth.offset(new Date(month), 1)) - x(new Date(month)) - 1))
      .attr('y', ([, n]) => y(n))
      .attr('height', ([, n]) => base - y(n))
      .append('title')
      .text(([month, n]) => `${new Date(month).toISOString().slice(0, 7)}: ${n}`);
  });
  svg
    .append('g')
    .attr('class', 'axis')
    .attr('transform', `translate(0,${height - margin.bottom})`)
    .call(monthAxis(x, Math.max(2, Math.floor(width / 80))));
  return h(
    'div',
    { class: 'chart' },
    svg.node(),
    h('p', { class: 'chart-note' }, `Signals per month; the tallest bar is ${most}.`),
  );
}

/**
 * The time axis of bars per month: a tick where a month (or a year) begins, its name centred over the bars it
 * names — "Oct" over October's bar, "2025" over 2025's — and none past the last bar.
 */
function monthAxis(x, most) {
  const end = x.range()[1];
  const steps = [
    ...[1, 2, 3, 6].map((n) => [d3.utcMonth.every(n), d3.utcMonth]),
    ...[1, 2, 5, 10].map((n) => [d3.utcYear.every(n), d3.utcYear]),
  ];
  const centre = (t, unit) => (x(t) + Math.min(end, x(unit.offset(t, 1)))) / 2;
  const [ticks, unit] = steps
    .map(([step, unit]) => [x.ticks(step).filter((t) => x(t) < end - 1), unit])
    .find(([t]) => t.length <= most) ?? [[], d3.utcYear];
  const label =
    unit === d3.utcYear
      ? d3.utcFormat('%Y')
      : (t, i) => d3.utcFormat(i === 0 || t.getUTCMonth() === 0 ? '%b %Y' : '%b')(t);
  return (g) => {
    g.call(d3.axisBottom(x).tickValues(ticks).tickFormat(label).tickSizeOuter(0));
    g.selectAll('.tick text').attr('x', (t) => centre(t, unit) - x(t));
  };
}
