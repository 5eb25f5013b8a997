/**
 * The procurement view (/explore/procurement): the aggregate operation as pictures — euros by year and procedure
 * type, by CPV division, by procedure — nationally or for one district (its municipalities as `executed_in`), with
 * the aggregate's own filters (publication dates `from`, `to`), and a map of the direct-award share of each
 * municipality's contract euros. `data` picks real contracts (`source=base`, the default when the service holds
 * some) or the generated ones (`source=demo`), never both in one picture. State in the URL:
 * ?district=…&from=…&to=…&data=….
 */
import { horizontalBars, stackedBars } from '../draw/charts.js';
import { choropleth, projected } from '../draw/geo.js';
import { classify, legend } from '../draw/scale.js';
import {
  chartWidth,
  clear,
  config,
  datasetSynthetic,
  datesUnbroken,
  figure,
  formatCount,
  formatEuros,
  formatNumber,
  get,
  h,
  loadTopology,
  municipalityHref,
  readState,
  realData,
  request,
  showError,
  syntheticOf,
  table,
  view,
  writeState,
} from './common.js';
import { FAMILIES, procedureFamily } from './procedures.js';

/** Which contracts: real ones when there are some (docs/explorer.md), else the generated ones. */
const DATA_SOURCE = { real: 'base', generated: 'demo' };
const DEFAULTS = { district: '', from: '', to: '', data: (await realData()).contracts ? 'real' : 'generated' };
const state = readState(DEFAULTS);
const root = view();
const places = config.municipalities;
const districts = [...new Set(places.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt'));

const controls = h('form', { class: 'controls', onsubmit: (e) => e.preventDefault() });
const stage = h('div', { class: 'stage' });

function buildControls() {
  const district = h(
    'select',
    { id: 'district', name: 'district' },
    h('option', { value: '' }, 'All of Portugal'),
    districts.map((d) => h('option', { value: d }, d)),
  );
  const from = h('input', { id: 'from', name: 'from', type: 'date' });
  const to = h('input', { id: 'to', name: 'to', type: 'date' });
  const data = h(
    'select',
    { id: 'data', name: 'data' },
    h('option', { value: 'real' }, 'Real contracts (Portal BASE)'),
    h('option', { value: 'generated' }, 'Generated contracts (demo)'),
  );
  controls.append(
    h('div', { class: 'field' }, h('label', { for: 'data' }, 'Data'), data),
    h('div', { class: 'field' }, h('label', { for: 'district' }, 'District'), district),
    h('div', { class: 'field' }, h('label', { for: 'from' }, 'Published from'), from),
    h('div', { class: 'field' }, h('label', { for: 'to' }, 'to'), to),
  );
  data.value = state.data;
  district.value = state.district;
  from.value = state.from;
  to.value = state.to;
  for (const input of [data, district, from, to]) {
    input.addEventListener('change', () => {
      state.data = data.value;
      state.district = district.value;
      state.from = from.value;
      state.to = to.value;
      writeState(state, DEFAULTS, true);
      draw();
    });
  }
}

function filters() {
  const executedIn = state.district
    ? places.filter((m) => m.district === state.district).map((m) => m.code)
    : undefined;
  return {
    executed_in: executedIn,
    from: state.from || undefined,
    to: state.to || undefined,
    source: DATA_SOURCE[state.data] ?? DATA_SOURCE.real,
  };
}

let drawing = 0;
async function draw() {
  const mine = ++drawing;
  stage.setAttribute('aria-busy', 'true');
  const where = state.district ? `the ${state.district} district` : 'Portugal';
  const period =
    state.from || state.to
      ? ` published ${state.from ? `from ${state.from}` : ''}${state.to ? ` to ${state.to}` : ''}`
      : '';
  try {
    const f = filters();
    const yearsReq = request('/v1/procurement/aggregate', { ...f, group_by: ['year', 'procedure_type'] });
    const cpvReq = request('/v1/procurement/aggregate', { ...f, group_by: 'cpv_division' });
    const procReq = request('/v1/procurement/aggregate', { ...f, group_by: 'procedure_type' });
    const mapReq = request('/v1/procurement/aggregate', { ...f, group_by: ['municipality', 'procedure_type'] });
    const [years, cpv, procedures, byPlace, topology] = await Promise.all([
      get(yearsReq),
      get(cpvReq),
      get(procReq),
      get(mapReq),
      loadTopology(),
    ]);
    if (mine !== drawing) return;
    // The aggregate says whether it counts generated contracts; a service whose answers do not say: the catalogue.
    const synthetic = syntheticOf(years, cpv, procedures, byPlace) ?? (await datasetSynthetic());
    const attribution = synthetic ? [] : [config.attribution.base];
    const totals = years.totals;
    document.getElementById('title').textContent = `Public contracts in ${state.district || 'Portugal'}`;

    const yearRows = [
      ...d3.rollup(
        years.groups,
        (g) =>
          d3.rollup(
            g,
            (x) => d3.sum(x, (y) => y.total_eur),
            (x) => procedureFamily(x.key.procedure_type),
          ),
        (g) => String(g.key.year ?? 'unknown'),
      ),
    ]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([x, parts]) => ({ x, parts: Object.fromEntries(parts) }));
    const cpvRows = cpv.groups
      .slice()
      .sort((a, b) => b.total_eur - a.total_eur)
      .slice(0, 12)
      .map((g) => ({
        label: `${g.key.cpv_division ?? '—'} ${g.labels?.cpv_division ?? 'unknown'}`,
        value: g.total_eur,
        count: g.count,
      }));
    const procRows = procedures.groups
      .slice()
      .sort((a, b) => b.total_eur - a.total_eur)
      .map((g) => ({ label: g.key.procedure_type ?? 'unknown', value: g.total_eur, count: g.count }));

    clear(stage).append(
      h(
        'p',
        { class: 'summary' },
        datesUnbroken(
          `${formatCount(totals.count, 'contract')}, ${formatEuros(totals.total_eur)} (without VAT), ` +
            `executed in ${where}${period}.`,
        ),
      ),
      figure({
        id: 'by-year',
        title: 'Euros per year, by procedure type',
        subtitle: `Contracts executed in ${where}${period}; procedure types gathered into five families`,
        synthetic,
        body: stackedBars({
          width: chartWidth(),
          height: 300,
          rows: yearRows,
          names: FAMILIES,
          label: `Contract euros per year in ${where}`,
          format: formatEuros,
        }),
        requests: [yearsReq],
        table: table(
          [
            { label: 'Year', value: (r) => r.x },
            ...FAMILIES.map((f) => ({ label: f, value: (r) => formatEuros(r.parts[f] ?? 0), numeric: true })),
          ],
          yearRows,
          `Contract euros per year and procedure family in ${where}`,
        ),
        attribution,
      }),
      h(
        'div',
        { class: 'grid-2' },
        figure({
          id: 'by-cpv',
          title: 'What is bought: CPV divisions',
          subtitle: 'The twelve divisions with the most euros',
          synthetic,
          body: horizontalBars({
            width: chartWidth(true),
            rows: cpvRows,
            label: `Contract euros by CPV division in ${where}`,
            format: formatEuros,
          }),
          requests: [cpvReq],
          table: table(
            [
              { label: 'CPV division', value: (r) => r.label },
              { label: 'Contracts', value: (r) => formatNumber(r.count, 0), numeric: true },
              { label: 'Euros', value: (r) => formatEuros(r.value), numeric: true },
            ],
            cpvRows,
          ),
          attribution,
        }),
        figure({
          id: 'by-procedure',
          title: 'How it is bought: procedure types',
          subtitle: 'As published, by euros',
          synthetic,
          body: horizontalBars({
            width: chartWidth(true),
            rows: procRows.slice(0, 12),
            label: `Contract euros by procedure type in ${where}`,
            format: formatEuros,
            color: '#009E73',
          }),
          requests: [procReq],
          table: table(
            [
              { label: 'Procedure type', value: (r) => r.label },
              { label: 'Contracts', value: (r) => formatNumber(r.count, 0), numeric: true },
              { label: 'Euros', value: (r) => formatEuros(r.value), numeric: true },
            ],
            procRows,
          ),
          attribution,
        }),
      ),
      directAwardMap(topology, byPlace, mapReq, synthetic, where, period),
    );
    stage.setAttribute('data-ready', state.district || 'all');
  } catch (error) {
    showError(stage, error);
  } finally {
    stage.removeAttribute('aria-busy');
  }
}

function directAwardMap(topology, byPlace, mapReq, synthetic, where, period) {
  const perPlace = d3.rollup(
    byPlace.groups,
    (g) => {
      const total = d3.sum(g, (x) => x.total_eur);
      const direct = d3.sum(
        g.filter((x) => procedureFamily(x.key.procedure_type) === 'Direct award'),
        (x) => x.total_eur,
      );
      return { total, direct, count: d3.sum(g, (x) => x.count), share: total > 0 ? (direct / total) * 100 : null };
    },
    (g) => g.key.municipality,
  );
  const indicator = {
    name: 'Direct-award share of contract euros',
    unit: 'percent',
    unit_display: '%',
    direction: 'neutral',
    value_domain: 'rate',
  };
  const values = [...perPlace.values()].map((p) => p.share);
  const scale = classify(values, { indicator, method: 'quantile' });
  const nameOf = new Map(places.map((m) => [m.code, m]));
  const counts = [];
  for (const v of values) {
    const c = scale.classOf(v);
    if (c >= 0) counts[c] = (counts[c] ?? 0) + 1;
  }
  const map = choropleth(topology, {
    label: `Map of the direct-award share of contract euros by municipality, ${where}. Arrow keys move, Enter opens.`,
    style: (code) => {
      const c = scale.classOf(perPlace.get(code)?.share);
      return { fill: c >= 0 ? scale.colors[c] : null, missing: c < 0 };
    },
    describe: (code, name) => {
      const p = perPlace.get(code);
      if (!p || p.share === null) return [name, nameOf.get(code)?.district ?? '', 'no contracts in this selection'];
      return [
        name,
        nameOf.get(code)?.district ?? '',
        `${formatNumber(p.share, 1)} % of ${formatEuros(p.total)} by direct award`,
        formatCount(p.count, 'contract'),
      ];
    },
    open: (code) => location.assign(municipalityHref(code)),
  });
  const rows = [...perPlace]
    // Contracts whose place of execution names no municipality are a row of their own, without a page to open.
    .map(([code, p]) => ({
      code,
      name: code ? (nameOf.get(code)?.name ?? code) : 'No municipality given',
      district: nameOf.get(code)?.district ?? '',
      ...p,
    }))
    .sort((a, b) => (b.share ?? -1) - (a.share ?? -1));
  return figure({
    id: 'direct-award-map',
    title: 'Direct-award share by municipality',
    subtitle:
      `Share of each municipality's contract euros awarded by direct award ("ajuste direto"), ` +
      `contracts executed in ${where}${period}`,
    synthetic,
    body: h(
      'div',
      { class: 'map-and-legend' },
      map.element,
      legend(scale, indicator, counts, { missing: 'no contracts', stale: false }),
    ),
    notes: [
      'A contract executed in several municipalities counts in each of them. ' +
        'Municipalities without contracts in the selection are hatched grey.',
    ],
    requests: [mapReq],
    table: table(
      [
        { label: 'Municipality', value: (r) => r.name, href: (r) => municipalityHref(r.code) },
        { label: 'District', value: (r) => r.district },
        {
          label: 'Direct-award share',
          value: (r) => (r.share === null ? '—' : `${formatNumber(r.share, 1)} %`),
          numeric: true,
        },
        { label: 'Contracts', value: (r) => formatNumber(r.count, 0), numeric: true },
        { label: 'Euros', value: (r) => formatEuros(r.total), numeric: true },
      ],
      rows,
    ),
    attribution: [config.attribution.caop, ...(synthetic ? [] : [config.attribution.base])],
  });
}

async function start() {
  loadTopology().then(projected);
  clear(root).append(controls, stage);
  buildControls();
  window.addEventListener('popstate', () => {
    Object.assign(state, readState(DEFAULTS));
    for (const name of Object.keys(DEFAULTS)) controls.querySelector(`#${name}`).value = state[name];
    draw();
  });
  await draw();
}

start();
