/**
 * The choropleth of one indicator's snapshot over the 308 municipalities, with its legend: the explorer's map
 * view and the MCP Apps map view draw it alike. Classes by `method` (scale.js), diverging around the national
 * median of the values shown where the indicator has a direction; hover and keyboard figures (name, value, rank,
 * percentile, stale or as of); `open(code)` on click or Enter.
 */
import { formatNumber, formatValue, h } from './dom.js';
import { choropleth } from './geo.js';
import { classify, legend } from './scale.js';

export function snapshotMap(topology, rows, { indicator, method, fallbackAsOf, open }) {
  const byCode = new Map(rows.map((r) => [r.municipality, r]));
  const values = rows.map((r) => r.value);
  // The centre of a diverging scale: the national median of the values shown.
  const shown = values.filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  const centre = shown.length ? d3.quantileSorted(shown, 0.5) : null;
  const scale = classify(values, { indicator, method, centre });
  const ranked = rows.filter((r) => r.value !== null && r.value !== undefined).sort((a, b) => b.value - a.value);
  const rank = new Map();
  for (const [i, r] of ranked.entries()) {
    rank.set(r.municipality, i > 0 && r.value === ranked[i - 1].value ? rank.get(ranked[i - 1].municipality) : i + 1);
  }
  const counts = [];
  for (const r of rows) {
    const c = scale.classOf(r.value);
    if (c >= 0) counts[c] = (counts[c] ?? 0) + 1;
  }
  // What `is_stale` was judged against: the snapshot's own latest date (a past date's, on a past date's map).
  const asOf = d3.max(rows, (r) => r.reference_date) ?? fallbackAsOf;

  const map = choropleth(topology, {
    label: `Map of ${indicator.name} by municipality. Arrow keys move between municipalities, Enter opens one.`,
    style: (code) => {
      const row = byCode.get(code);
      const c = scale.classOf(row?.value);
      return { fill: c >= 0 ? scale.colors[c] : null, missing: c < 0, stale: row?.is_stale === true };
    },
    describe: (code, name) => {
      const row = byCode.get(code);
      if (!row || row.value === null || row.value === undefined) return [name, row?.district ?? '', 'no data'];
      return [
        name,
        row.district,
        formatValue(row.value, indicator),
        `rank ${rank.get(code)} of ${ranked.length} · percentile ${formatNumber(row.percentile, 1)}`,
        row.is_stale
          ? `stale: older than ${asOf}${row.reference_date ? ` (${row.reference_date})` : ''}`
          : `as of ${row.reference_date ?? asOf ?? ''}`,
      ].filter(Boolean);
    },
    open,
  });
  const element = h(
    'div',
    { class: 'map-and-legend' },
    map.element,
    legend(scale, indicator, counts, { stale: `older than ${asOf ?? 'the latest period'} (stale)` }),
  );
  return {
    element,
    rank,
    centre,
    shown: shown.length,
    missing: rows.length - shown.length,
    stale: rows.filter((r) => r.is_stale).length,
    asOf,
  };
}
