/**
 * The indicator map (/explore): any indicator of the catalogue (grouped by category, searchable), the latest
 * period or, where the API's snapshot takes one, a past one; a choropleth of the 308 municipalities in an honest
 * scale (scale.js), hover and keyboard figures (name, value, rank, percentile), click to open the municipality.
 * State in the URL: ?indicator=…&scale=quantile|equal&date=….
 */

import { projected } from '../draw/geo.js';
import { snapshotMap } from '../draw/snapshot-map.js';
import {
  clear,
  config,
  figure,
  formatNumber,
  formatValue,
  get,
  getPages,
  h,
  isSynthetic,
  loadTopology,
  municipalityHref,
  readState,
  request,
  showError,
  syntheticOf,
  table,
  view,
  writeState,
} from './common.js';

const DEFAULTS = { indicator: 'unemployment_rate', scale: 'quantile', date: '' };
const state = readState(DEFAULTS);
const root = view();
const controls = h('form', { class: 'controls', role: 'search', onsubmit: (e) => e.preventDefault() });
const stage = h('div', { class: 'stage' });
let catalogue = [];

async function start() {
  try {
    // The shapes are projected while the catalogue is on its way: they do not depend on the data.
    const [topology, indicators] = await Promise.all([
      loadTopology().then((t) => {
        projected(t);
        return t;
      }),
      getPages('/v1/indicators', { limit: 200 }),
    ]);
    catalogue = indicators.items;
    clear(root).append(controls, stage);
    buildControls();
    await draw(topology);
    window.addEventListener('popstate', () => {
      Object.assign(state, readState(DEFAULTS));
      syncControls();
      draw(topology);
    });
    for (const input of controls.querySelectorAll('select, input[type=radio]')) {
      input.addEventListener('change', () => {
        readControls();
        writeState(state, DEFAULTS, true);
        draw(topology);
      });
    }
  } catch (error) {
    showError(root, error);
  }
}

function buildControls() {
  const byCategory = d3.group(catalogue, (i) => i.category);
  const select = h(
    'select',
    { id: 'indicator', name: 'indicator' },
    [...byCategory].map(([category, items]) =>
      h(
        'optgroup',
        { label: category.replaceAll('_', ' ') },
        items
          .slice()
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((i) =>
            h(
              'option',
              { value: i.key, 'data-search': `${i.key} ${i.name} ${i.name_pt} ${i.category}`.toLowerCase() },
              i.name,
            ),
          ),
      ),
    ),
  );
  const search = h('input', {
    id: 'indicator-search',
    type: 'search',
    placeholder: 'Search indicators (English or Portuguese)',
    autocomplete: 'off',
    'aria-controls': 'indicator',
  });
  search.addEventListener('input', () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let first;
    for (const option of select.querySelectorAll('option')) {
      const hit = words.every((w) => option.getAttribute('data-search').includes(w));
      option.hidden = !hit;
      if (hit && !first) first = option;
    }
    for (const group of select.querySelectorAll('optgroup')) group.hidden = [...group.children].every((o) => o.hidden);
    if (first && select.selectedOptions[0]?.hidden) {
      select.value = first.value;
      select.dispatchEvent(new Event('change'));
    }
  });
  const scale = h(
    'fieldset',
    { class: 'scale' },
    h('legend', {}, 'Classes'),
    ['quantile', 'equal'].map((value) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name: 'scale', value, checked: state.scale === value }),
        value === 'quantile' ? ' quantiles' : ' equal intervals',
      ),
    ),
  );
  const period = config.snapshotTakesDate
    ? h(
        'label',
        { class: 'period' },
        'Period ',
        h(
          'select',
          { id: 'period', name: 'date' },
          h('option', { value: '' }, 'latest'),
          pastYears().map((y) => h('option', { value: `${y}-12-31` }, String(y))),
        ),
      )
    : h('p', { class: 'period', id: 'period-note' }, 'Period: the latest of each municipality');
  controls.append(
    h(
      'div',
      { class: 'field wide' },
      h('label', { for: 'indicator' }, 'Indicator'),
      h('label', { for: 'indicator-search', class: 'visually-hidden' }, 'Search indicators'),
      search,
      select,
    ),
    h('div', { class: 'field row' }, scale, period),
  );
  syncControls();
}

function pastYears() {
  const last = new Date().getUTCFullYear() - 1;
  return d3.range(last, last - 15, -1);
}

function syncControls() {
  controls.querySelector('#indicator').value = state.indicator;
  for (const radio of controls.querySelectorAll('input[name=scale]')) radio.checked = radio.value === state.scale;
  const period = controls.querySelector('#period');
  if (period) period.value = state.date;
}

function readControls() {
  state.indicator = controls.querySelector('#indicator').value;
  state.scale = controls.querySelector('input[name=scale]:checked')?.value ?? 'quantile';
  state.date = controls.querySelector('#period')?.value ?? '';
}

let drawing = 0;
async function draw(topology) {
  const mine = ++drawing;
  const indicator = catalogue.find((i) => i.key === state.indicator) ?? catalogue[0];
  state.indicator = indicator.key;
  stage.setAttribute('aria-busy', 'true');
  try {
    const snapshotParams = { limit: config.snapshotLimit ?? 200, ...(state.date ? { date: state.date } : {}) };
    const statsReq = request(`/v1/indicators/${indicator.key}/stats`);
    const [snapshot, stats] = await Promise.all([
      getPages(`/v1/indicators/${indicator.key}/snapshot`, snapshotParams),
      get(statsReq),
    ]);
    if (mine !== drawing) return;
    const started = performance.now();
    const picture = render(topology, indicator, snapshot, stats, statsReq);
    clear(stage).append(picture);
    document.title = `${indicator.name} — munidata explorer`;
    document.getElementById('title').textContent = `${indicator.name}`;
    window.exploreTimings = { mapRenderMs: performance.now() - started };
    stage.setAttribute('data-indicator', indicator.key);
    stage.setAttribute('data-scale', state.scale);
  } catch (error) {
    showError(stage, error);
  } finally {
    stage.removeAttribute('aria-busy');
  }
}

function render(topology, indicator, snapshot, stats, statsReq) {
  const rows = snapshot.items;
  const { element, rank, centre, shown, missing, stale, asOf } = snapshotMap(topology, rows, {
    indicator,
    method: state.scale,
    fallbackAsOf: stats.as_of,
    open: (code) => location.assign(municipalityHref(code)),
  });
  const synthetic = syntheticOf(rows) ?? isSynthetic(indicator);

  const notes = [
    state.date
      ? `National median ${formatValue(centre, indicator)}; ` +
        `${shown} municipalities with a value on or before ${state.date}.`
      : `National median ${formatValue(stats.median, indicator)}; ` +
        `${stats.count} municipalities with a value, as of ${stats.as_of ?? '—'}.`,
    missing ? `${missing} municipalities have no data (hatched grey), never shown as zero.` : null,
    stale ? `${stale} municipalities' latest value is older than ${asOf} (stale, hatched over their colour).` : null,
    indicator.treatment === 'normalized' || rows[0]?.treatment === 'normalized'
      ? 'Your plan serves a normalized 0–100 index instead of the values.'
      : null,
    indicator.source ? `Source: ${indicator.source}.` : null,
  ].filter(Boolean);

  const tableRows = rows
    .slice()
    .sort((a, b) => (rank.get(a.municipality) ?? 9999) - (rank.get(b.municipality) ?? 9999));
  const body = element;
  return figure({
    id: 'indicator-map',
    title: `${indicator.name} by municipality`,
    subtitle:
      `${indicator.name_pt} · ${indicator.unit_display ?? indicator.unit} · ` +
      `${state.date ? `as of ${state.date}` : 'latest period'}`,
    synthetic,
    body,
    notes,
    requests: [...snapshot.requests, statsReq],
    table: table(
      [
        { label: 'Municipality', value: (r) => r.name, href: (r) => municipalityHref(r.municipality) },
        { label: 'District', value: (r) => r.district },
        { label: 'Value', value: (r) => formatValue(r.value, indicator), numeric: true },
        { label: 'Rank', value: (r) => rank.get(r.municipality) ?? '—', numeric: true },
        { label: 'Percentile', value: (r) => formatNumber(r.percentile, 1), numeric: true },
        {
          label: 'Status',
          value: (r) => (r.value === null || r.value === undefined ? 'no data' : r.is_stale ? 'stale' : 'current'),
        },
      ],
      tableRows,
      `${indicator.name}, ${state.date ? `as of ${state.date}` : 'latest'}: the 308 municipalities by rank`,
    ),
    attribution: [config.attribution.caop, isSynthetic(indicator) ? '' : config.attribution.ine].filter(Boolean),
  });
}

start();
