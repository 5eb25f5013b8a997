/**
 * A municipality's page (/explore/municipalities/{code or slug}): key figures with their trend, a series chart
 * for any indicator beside its district's and the national medians, procurement (euros per year by procedure
 * type, top suppliers, latest contracts), signals and cases on a timeline, and its neighbours on a small map.
 * Each part is shown when the plan includes its domain. State in the URL: ?indicator=….
 */

import { horizontalBars, lineChart, PALETTE, sparkline, stackedBars, timeline } from '../draw/charts.js';
import { neighbourMap } from '../draw/geo.js';
import {
  cardMark,
  chartWidth,
  clear,
  config,
  contractHref,
  datasetSynthetic,
  entityHref,
  eventDay,
  explorerRequest,
  figure,
  formatEuros,
  formatNumber,
  formatValue,
  get,
  getPages,
  h,
  isSynthetic,
  loadTopology,
  municipalityHref,
  partyLinks,
  readState,
  request,
  showError,
  signalHref,
  signalLabels,
  signalsDataDefault,
  signalText,
  syntheticOf,
  table,
  view,
  writeState,
  yearsAsCovered,
} from './common.js';
import { FAMILIES, procedureFamily } from './procedures.js';

const municipality = config.municipality;
const DEFAULTS = { indicator: 'population' };
const state = readState(DEFAULTS);
const root = view();
/** The latest signals the page reads (by event date). */
const LATEST_SIGNALS = 200;
const KEY_FIGURES = [
  'population',
  'unemployment_rate',
  'purchasing_power_index',
  'average_monthly_earnings',
  'ageing_index',
  'median_housing_price_m2',
  'municipal_debt_per_capita',
  'direct_award_share',
];

async function start() {
  const parts = {
    intro: h(
      'p',
      { class: 'subtitle' },
      `${municipality.district} · code ${municipality.code} · `,
      h('a', { href: '/explore' }, 'back to the map'),
    ),
    figures: h('section', { 'aria-labelledby': 'figures-title' }),
    series: h('section', {}),
    procurement: h('section', {}),
    signals: h('section', {}),
    neighbours: h('section', {}),
  };
  clear(root).append(...Object.values(parts));
  try {
    const catalogue = (await getPages('/v1/indicators', { limit: 200 })).items;
    const tasks = [
      keyFigures(parts.figures, catalogue),
      seriesChart(parts.series, catalogue),
      neighbours(parts.neighbours),
    ];
    if (config.domains.includes('procurement')) tasks.push(procurement(parts.procurement));
    if (config.domains.includes('signals')) tasks.push(signals(parts.signals));
    await Promise.all(tasks);
  } catch (error) {
    showError(root, error);
  }
  root.setAttribute('data-ready', 'true');
}

// ---------------------------------------------------------------------------------------------------------

async function keyFigures(section, catalogue) {
  const latestReq = request(`/v1/municipalities/${municipality.code}/indicators`);
  const latest = await get(latestReq);
  const byKey = new Map(catalogue.map((i) => [i.key, i]));
  const keys = KEY_FIGURES.filter((k) => byKey.has(k));
  const seriesReqs = keys.map((k) =>
    request(`/v1/indicators/${k}/series`, { municipality: municipality.code, limit: 200 }),
  );
  const series = await Promise.all(seriesReqs.map((r) => get(r).then((page) => page.items)));
  const cards = keys.map((k, i) => {
    const indicator = byKey.get(k);
    const points = series[i];
    // The trend compares the two latest values there are: a gap in the series is skipped, not read as a change.
    const known = points.filter((p) => p.value !== null && p.value !== undefined);
    const last = known.at(-1);
    const previous = known.at(-2);
    const synthetic = isSynthetic(indicator);
    return {
      synthetic,
      card: h(
        'a',
        { class: 'figure-card', href: `?indicator=${k}#series`, 'data-indicator': k },
        h('p', { class: 'name' }, indicator.name),
        h('p', { class: 'value' }, formatValue(last?.value ?? null, indicator)),
        trend(indicator, previous, last),
        sparkline(points.map((p) => ({ date: new Date(p.reference_date), value: p.value }))),
        cardMark(synthetic),
      ),
    };
  });
  // Real and generated series never in one grid: the real ones first, under a heading that says so, then the
  // generated, under one that says they are not published figures (each card keeps its own mark as well).
  const real = cards.filter((c) => !c.synthetic).map((c) => c.card);
  const generated = cards.filter((c) => c.synthetic).map((c) => c.card);
  const synthetic = real.length && generated.length ? 'mixed' : generated.length > 0;
  section.append(
    figure({
      id: 'figures',
      title: 'Key figures',
      subtitle: 'The latest value of each, with the change from the period before; the line is its whole series.',
      synthetic,
      body: h('div', {}, figureGroup('real', real), figureGroup('generated', generated)),
      requests: [latestReq, ...seriesReqs],
      table: table(
        [
          { label: 'Indicator', value: (r) => r.name, href: (r) => `?indicator=${r.indicator}#series` },
          { label: 'Category', value: (r) => r.category.replaceAll('_', ' ') },
          { label: 'Value', value: (r) => formatValue(r.value, byKey.get(r.indicator)), numeric: true },
          { label: 'As of', value: (r) => r.reference_date },
          { label: 'Data', value: (r) => (isSynthetic(byKey.get(r.indicator)) ? 'generated' : 'real') },
        ],
        latest,
        `Every indicator's latest value in ${municipality.name}`,
      ),
    }),
  );
}

const FIGURE_GROUPS = {
  real: 'Real data, as published by their source',
  generated: 'Demo data, generated for this example: not published figures',
};

/** One kind of key figures under its heading (none when the page has no figure of that kind). */
function figureGroup(kind, cards) {
  if (cards.length === 0) return null;
  return h(
    'section',
    { class: `figure-group ${kind}`, 'data-kind': kind, 'aria-labelledby': `figures-${kind}-title` },
    h('h3', { id: `figures-${kind}-title` }, FIGURE_GROUPS[kind]),
    h('div', { class: 'figures' }, cards),
  );
}

function trend(indicator, previous, last) {
  if (!previous || !last || previous.value === null || last.value === null)
    return h('p', { class: 'trend flat' }, 'no earlier value');
  const change = last.value - previous.value;
  const relative = previous.value !== 0 ? (change / Math.abs(previous.value)) * 100 : null;
  const better =
    indicator.direction === 'neutral' || change === 0
      ? null
      : change > 0 === (indicator.direction === 'higher_is_better');
  const arrow = change > 0 ? '▲' : change < 0 ? '▼' : '■';
  const words =
    `${arrow} ${change > 0 ? '+' : ''}${formatNumber(relative ?? change, 1)}` +
    `${relative === null ? '' : ' %'} since ${previous.reference_date.slice(0, 4)}`;
  return h(
    'p',
    { class: `trend ${better === null ? 'flat' : better ? 'up' : 'down'}` },
    words,
    better === null ? '' : better ? ' (better)' : ' (worse)',
  );
}

// ---------------------------------------------------------------------------------------------------------

async function seriesChart(section, catalogue) {
  const holder = h('div', { id: 'series' });
  const select = h(
    'select',
    { id: 'series-indicator' },
    [...d3.group(catalogue, (i) => i.category)].map(([category, items]) =>
      h(
        'optgroup',
        { label: category.replaceAll('_', ' ') },
        items.map((i) => h('option', { value: i.key }, i.name)),
      ),
    ),
  );
  select.value = catalogue.some((i) => i.key === state.indicator) ? state.indicator : 'population';
  select.addEventListener('change', () => {
    state.indicator = select.value;
    writeState(state, DEFAULTS, true);
    draw();
  });
  section.append(
    h(
      'form',
      { class: 'controls', onsubmit: (e) => e.preventDefault() },
      h('div', { class: 'field' }, h('label', { for: 'series-indicator' }, 'Series'), select),
    ),
    holder,
  );

  async function draw() {
    const indicator = catalogue.find((i) => i.key === select.value);
    const seriesReq = request(`/v1/indicators/${indicator.key}/series`, {
      municipality: municipality.code,
      limit: 200,
    });
    const mediansReq = config.mediansOperation
      ? request(`/v1/indicators/${indicator.key}/medians`, { district: municipality.district })
      : null;
    try {
      const [series, medians] = await Promise.all([get(seriesReq), mediansReq ? get(mediansReq) : []]);
      const points = series.items.map((p) => ({ date: new Date(p.reference_date), value: p.value }));
      const national = medians.map((m) => ({ date: new Date(m.reference_date), value: m.national_median }));
      const district = medians.map((m) => ({ date: new Date(m.reference_date), value: m.district_median }));
      const format = (v) => formatValue(v, indicator);
      const lines = [
        { label: municipality.name, color: PALETTE[0], points, width: 2.6, dots: true, className: 'own' },
        mediansReq
          ? {
              label: `${municipality.district} median`,
              color: PALETTE[1],
              dashed: true,
              points: district,
              className: 'district',
            }
          : null,
        mediansReq
          ? {
              label: 'national median',
              color: PALETTE[7],
              dashed: true,
              width: 1.4,
              points: national,
              className: 'national',
            }
          : null,
      ].filter(Boolean);
      const byDate = new Map(medians.map((m) => [m.reference_date, m]));
      const beside = mediansReq
        ? `, beside the medians of the ${municipality.district} district's municipalities and of all 308`
        : '';
      const chart =
        points.length > 0
          ? lineChart({
              width: chartWidth(),
              height: Math.min(320, Math.round(chartWidth() * 0.45)),
              series: lines,
              label: `${indicator.name} in ${municipality.name} over time`,
              format: (v) => formatNumber(v, 2),
            })
          : h('p', {}, 'No data for this indicator.');
      clear(holder).append(
        figure({
          id: 'series-chart',
          title: `${indicator.name} in ${municipality.name}`,
          subtitle: `${indicator.unit_display ?? indicator.unit}, by reference period${beside}`,
          synthetic: isSynthetic(indicator) || series.items.some((p) => p.synthetic === true),
          body: chart,
          requests: [seriesReq, mediansReq].filter(Boolean),
          table: table(
            [
              { label: 'Period', value: (p) => p.reference_date },
              { label: municipality.name, value: (p) => format(p.value), numeric: true },
              {
                label: `${municipality.district} median`,
                value: (p) => format(byDate.get(p.reference_date)?.district_median ?? null),
                numeric: true,
              },
              {
                label: 'National median',
                value: (p) => format(byDate.get(p.reference_date)?.national_median ?? null),
                numeric: true,
              },
            ],
            series.items,
            `${indicator.name}: ${municipality.name} and the medians`,
          ),
        }),
      );
      holder.setAttribute('data-indicator', indicator.key);
    } catch (error) {
      showError(holder, error);
    }
  }
  await draw();
}

// ---------------------------------------------------------------------------------------------------------

async function procurement(section) {
  const byYearReq = request('/v1/procurement/aggregate', {
    executed_in: municipality.code,
    group_by: ['year', 'procedure_type'],
  });
  const suppliersReq = request('/v1/procurement/aggregate', { executed_in: municipality.code, group_by: 'supplier' });
  const contractsReq = request('/v1/procurement/contracts', { municipality: municipality.code, limit: 10 });
  const [byYear, suppliers, contracts] = await Promise.all([get(byYearReq), get(suppliersReq), get(contractsReq)]);
  const synthetic =
    syntheticOf(byYear, suppliers, contracts) ?? (contracts.items.some(isSynthetic) || (await datasetSynthetic()));
  const years = d3.rollup(
    byYear.groups,
    (groups) =>
      d3.rollup(
        groups,
        (g) => d3.sum(g, (x) => x.total_eur),
        (x) => procedureFamily(x.key.procedure_type),
      ),
    (g) => String(g.key.year),
  );
  // A year the data does not cover whole (the real contracts held span two months, say) is drawn as such.
  const { rows, notes: partNotes } = await yearsAsCovered(
    [...years]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([year, parts]) => ({ x: year, parts: Object.fromEntries(parts) })),
    synthetic,
  );
  const top = suppliers.groups
    .slice()
    .sort((a, b) => b.total_eur - a.total_eur)
    .slice(0, 10)
    .map((g) => ({
      // No tax number: the suppliers the portal withheld (RGPD) and contracts that name none, together.
      label: g.labels?.supplier ?? g.key.supplier ?? 'Not named (withheld or unpublished)',
      value: g.total_eur,
      nif: g.key.supplier ?? '—',
      count: g.count,
      href: entityHref(g.key.supplier),
    }));
  section.append(
    h(
      'div',
      { class: 'grid-2' },
      figure({
        id: 'procurement-years',
        title: 'Public contracts by year',
        subtitle: `Euros (without VAT) of the contracts executed in ${municipality.name}, by procedure type`,
        synthetic,
        body: rows.length
          ? stackedBars({
              width: chartWidth(true),
              rows,
              names: FAMILIES,
              label: `Contract euros per year in ${municipality.name}`,
              format: formatEuros,
            })
          : h('p', {}, 'No contracts.'),
        requests: [byYearReq],
        notes: partNotes,
        table: table(
          [
            { label: 'Year', value: (r) => r.label },
            ...FAMILIES.map((f) => ({ label: f, value: (r) => formatEuros(r.parts[f] ?? 0), numeric: true })),
          ],
          rows,
          'Contract euros per year and procedure type',
        ),
        attribution: synthetic ? [] : [config.attribution.base],
      }),
      figure({
        id: 'procurement-suppliers',
        title: 'Top suppliers',
        subtitle: `The ten suppliers with the most euros in contracts executed in ${municipality.name}, all years`,
        synthetic,
        body: top.length
          ? horizontalBars({
              width: chartWidth(true),
              rows: top,
              label: 'Top suppliers by contract euros',
              format: formatEuros,
            })
          : h('p', {}, 'No contracts.'),
        requests: [suppliersReq],
        table: table(
          [
            { label: 'Supplier', value: (r) => r.label, href: (r) => r.href },
            { label: 'NIF', value: (r) => r.nif },
            { label: 'Contracts', value: (r) => r.count, numeric: true },
            { label: 'Euros', value: (r) => formatEuros(r.value), numeric: true },
          ],
          top,
        ),
      }),
    ),
    figure({
      id: 'latest-contracts',
      title: 'Latest contracts',
      subtitle: 'The ten most recently published',
      synthetic,
      body: table(
        [
          { label: 'Published', value: (c) => c.published_on ?? '—' },
          { label: 'Object', value: (c) => c.object, href: (c) => contractHref(c.id) },
          { label: 'Procedure', value: (c) => c.procedure_type },
          { label: 'Supplier', value: (c) => partyLinks(c.suppliers) },
          { label: 'Price', value: (c) => formatEuros(c.price_eur), numeric: true },
        ],
        contracts.items,
        `Latest contracts executed in ${municipality.name}`,
        { stack: true },
      ),
      requests: [contractsReq],
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------

async function signals(section) {
  // The latest events by event date, as the signals view reads them (docs/explorer.md, Signals).
  // Those detected from real data when the service holds some, else from the generated: never both in one picture.
  const data = await signalsDataDefault();
  const v1 = request('/v1/signals', { municipality: municipality.code });
  const signalsReq = explorerRequest(
    config.latestSignalsPath,
    { municipality: municipality.code, data, limit: LATEST_SIGNALS },
    `the explorer's own request: every page of GET ${v1.apiUrl} (send that one with your API key), ` +
      `keeping those with synthetic: ${data === 'generated'}, latest event first.`,
  );
  const casesReq = request('/v1/signal-cases', { municipality: municipality.code, limit: 20 });
  const [latest, allCases, labels] = await Promise.all([get(signalsReq), get(casesReq), signalLabels()]);
  const cases = { ...allCases, items: allCases.items.filter((c) => isSynthetic(c) === (data === 'generated')) };
  const synthetic = data === 'generated';
  const events = latest.items.map((s) => ({ date: new Date(eventDay(s)), lane: s.family }));
  const lanes = [...new Set(events.map((e) => e.lane))].sort();
  const which =
    latest.matched > latest.items.length
      ? `The ${latest.items.length} latest of the ${formatNumber(latest.matched, 0)} signals in ${municipality.name}`
      : `The ${latest.items.length} signals in ${municipality.name}`;
  section.append(
    figure({
      id: 'signals-timeline',
      title: 'Signals and cases',
      subtitle:
        `${which} detected from ${data} data, by family, per month of their event date (when it happened, not ` +
        'when it was detected)',
      synthetic,
      body: events.length
        ? timeline({
            width: chartWidth(),
            events,
            lanes,
            laneNames: labels.family,
            label: `Signals in ${municipality.name} over time`,
          })
        : h('p', {}, 'No signals.'),
      requests: [signalsReq, casesReq],
      table: h(
        'div',
        {},
        table(
          [
            { label: 'Event date', value: (s) => eventDay(s) },
            {
              label: 'Signal',
              value: (s) => signalText(s, 'title', `Signal ${s.id}`),
              href: (s) => signalHref(s.id),
            },
            { label: 'Confidence', value: (s) => formatNumber(s.confidence, 2), numeric: true },
          ],
          latest.items,
          `The latest signals in ${municipality.name}, latest event first`,
        ),
        table(
          [
            { label: 'Case', value: (c) => signalText(c, 'title', `Case ${c.id}`) },
            { label: 'Status', value: (c) => c.status },
            { label: 'Signals', value: (c) => c.source_count ?? '', numeric: true },
            { label: 'Last seen', value: (c) => (c.last_seen_at ?? '').slice(0, 10) },
          ],
          cases.items,
          `Signal cases in ${municipality.name}, newest first`,
        ),
      ),
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------

async function neighbours(section) {
  const topology = await loadTopology();
  const { svg, neighbours: around } = neighbourMap(topology, municipality.code, {
    label: `${municipality.name} and its neighbours`,
    open: (code) => location.assign(municipalityHref(code)),
  });
  section.append(
    figure({
      id: 'neighbours',
      title: 'Neighbours',
      subtitle: around.length
        ? `${around.length} municipalities share a border with ${municipality.name}`
        : `${municipality.name} shares no land border`,
      body: svg,
      requests: [],
      table: table([{ label: 'Neighbour', value: (n) => n.name, href: (n) => municipalityHref(n.dico) }], around),
      attribution: [config.attribution.caop],
    }),
  );
}

start();
