/**
 * The three MCP Apps views (docs/mcp.md, "Apps"), each drawn from a tool result with the explorer's own drawing
 * modules (assets/draw/): the choropleth of an `indicators_snapshot`, the lines of an `indicators_series`, and a
 * buyer's panel from `procurement_entity_profile` (euros per year) or `procurement_entity_red_flags` (flags per
 * type). `ask(name, args)` calls a tool through the host, for the indicator's unit and direction; without it
 * (a host that relays no tool calls) the picture says the key and draws a sequential scale.
 */
import { horizontalBars, lineChart, PALETTE, stackedBars } from '../draw/charts.js';
import { dataMark, provenanceOf } from '../draw/data-mark.js';
import { formatEuros, formatNumber, formatValue, h, table } from '../draw/dom.js';
import { ENTITY_ROLES, entityYearRows } from '../draw/entity-years.js';
import { snapshotMap } from '../draw/snapshot-map.js';

const WIDTH = 720;

/** The indicator's catalogue entry, through the host; a neutral stand-in when the host cannot relay the call. */
async function indicatorOf(key, ask) {
  const stand = { key, name: key, name_pt: key, unit: '', direction: 'neutral', value_domain: 'other' };
  if (!key || !ask) return stand;
  try {
    const result = await ask('indicators_get', { key });
    return result?.isError ? stand : { ...stand, ...result.structuredContent };
  } catch {
    return stand;
  }
}

/** A view's figure: its title, what it covers, whether its data is real or generated (the answer says), the body. */
function titled(answer, title, subtitle, ...body) {
  const mark = dataMark(provenanceOf(answer));
  return h('section', { class: 'app-figure' }, h('h1', {}, title), h('p', { class: 'sub' }, subtitle), mark, ...body);
}

async function indicatorMap({ input, answer, ask, topology }) {
  const indicator = await indicatorOf(input.key, ask);
  const rows = answer.items ?? [];
  const drawn = snapshotMap(topology, rows, {
    indicator,
    method: 'quantile',
    fallbackAsOf: input.date,
    open: () => {},
  });
  const notes = [
    `Median ${formatValue(drawn.centre, indicator)}; ${drawn.shown} municipalities with a value.`,
    drawn.missing ? `${drawn.missing} without data (hatched grey), never shown as zero.` : null,
    drawn.stale ? `${drawn.stale} older than ${drawn.asOf} (stale, hatched over their colour).` : null,
    answer.has_more ? 'This page does not hold every municipality: call again with `limit` 308.' : null,
  ].filter(Boolean);
  return titled(
    answer,
    `${indicator.name} by municipality`,
    `${input.date ? `as of ${input.date}` : 'latest period'} · ${rows.length} municipalities`,
    drawn.element,
    h(
      'ul',
      { class: 'notes' },
      notes.map((n) => h('li', {}, n)),
    ),
  );
}

async function indicatorSeries({ input, answer, ask }) {
  const indicator = await indicatorOf(input.key, ask);
  const byPlace = new Map();
  for (const p of answer.items ?? []) {
    if (!byPlace.has(p.municipality)) byPlace.set(p.municipality, []);
    byPlace.get(p.municipality).push({ date: new Date(`${p.reference_date}T00:00:00Z`), value: p.value });
  }
  const series = [...byPlace].map(([code, points], i) => ({
    label: code,
    color: PALETTE[i % PALETTE.length],
    dashed: i % 2 === 1,
    dots: true,
    points,
  }));
  // The axis in plain numbers (the unit goes in the subtitle): "500 000 hab." would not fit its margin.
  const axis = (v) => formatNumber(v, Math.abs(v) >= 100 ? 0 : 2);
  const chart = series.length
    ? lineChart({ series, label: `${indicator.name} over time`, format: axis, width: WIDTH })
    : h('p', {}, 'No values in this answer.');
  const unit = indicator.unit_display ?? indicator.unit;
  return titled(
    answer,
    `${indicator.name} over time`,
    `${unit ? `${unit} · ` : ''}municipalities ${[...byPlace.keys()].join(', ')}`,
    chart,
  );
}

function entityPanel({ answer }) {
  if (answer.by_type) return redFlags(answer);
  const years = entityYearRows(answer);
  return titled(
    answer,
    answer.name,
    `Tax number ${answer.nif} · as buyer ${formatNumber(answer.contracts_as_buyer, 0)} contracts, ` +
      `${formatEuros(answer.total_as_buyer_eur)} · as supplier ${formatNumber(answer.contracts_as_supplier, 0)} ` +
      `contracts, ${formatEuros(answer.total_as_supplier_eur)}`,
    years.length
      ? stackedBars({
          rows: years,
          names: ENTITY_ROLES,
          label: `Contract euros per year of ${answer.name}`,
          format: formatEuros,
          width: WIDTH,
          height: 260,
        })
      : h('p', {}, 'No contracts.'),
  );
}

function redFlags(answer) {
  const period = `${answer.from ?? 'the start'} to ${answer.to ?? 'today'}`;
  const rows = answer.by_type.map((t) => ({ label: t.label_en, value: t.counts.flagged }));
  return titled(
    answer,
    `Integrity flags of ${answer.name}`,
    `${formatNumber(answer.contracts_flagged, 0)} of ${formatNumber(answer.contracts_assessed, 0)} contracts ` +
      `flagged, ${period}`,
    horizontalBars({
      rows,
      label: `Flagged contracts per integrity type`,
      format: (v) => formatNumber(v, 0),
      width: WIDTH,
    }),
    table(
      [
        { label: 'Type', value: (t) => t.label_en },
        { label: 'Flagged', value: (t) => formatNumber(t.counts.flagged, 0), numeric: true },
        { label: 'Not flagged', value: (t) => formatNumber(t.counts.not_flagged, 0), numeric: true },
        { label: 'Not assessable', value: (t) => formatNumber(t.counts.not_assessable, 0), numeric: true },
      ],
      answer.by_type,
      'Contracts per integrity type and state',
    ),
  );
}

export const VIEWS = {
  'indicator-map': indicatorMap,
  'indicator-series': indicatorSeries,
  'procurement-entity': entityPanel,
};
