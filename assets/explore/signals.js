/**
 * The signals view (/explore/signals): a map and a timeline of the signals matching the filters of /v1/signals
 * (family, type, district or municipality, lowest confidence, value tier, seen since). The most recent 1 000
 * matching signals are read (five pages of 200, newest first) and the pictures say when there were more.
 * State in the URL: ?family=…&type=…&district=…&municipality=…&min_confidence=…&value_tier=…&since=….
 */
import { timeline } from './charts.js';
import {
  chartWidth,
  clear,
  config,
  datasetSynthetic,
  figure,
  formatNumber,
  get,
  getPages,
  h,
  isSynthetic,
  municipalityHref,
  readState,
  request,
  showError,
  syntheticOf,
  table,
  view,
  writeState,
} from './common.js';
import { choropleth, loadTopology, projected } from './geo.js';
import { classify, legend } from './scale.js';

const DEFAULTS = { family: '', type: '', district: '', municipality: '', min_confidence: '', value_tier: '', since: '' };
const state = readState(DEFAULTS);
const root = view();
const places = config.municipalities;
const byCode = new Map(places.map((m) => [m.code, m]));
const districts = [...new Set(places.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt'));
const MAX_PAGES = 5;
const controls = h('form', { class: 'controls', onsubmit: (e) => e.preventDefault() });
const stage = h('div', { class: 'stage' });
let families = [];
let types = [];

function field(id, text, control) {
  return h('div', { class: 'field' }, h('label', { for: id }, text), control);
}

function buildControls() {
  const select = (id, options) =>
    h(
      'select',
      { id, name: id },
      options.map(([value, text]) => h('option', { value }, text)),
    );
  controls.append(
    field('family', 'Family', select('family', [['', 'All families'], ...families.map((f) => [f.key, f.label_en])])),
    field('type', 'Type', select('type', [['', 'All types'], ...types.map((t) => [t.key, t.label_en])])),
    field('district', 'District', select('district', [['', 'All of Portugal'], ...districts.map((d) => [d, d])])),
    field(
      'municipality',
      'Municipality',
      select('municipality', [
        ['', 'All'],
        ...places
          .slice()
          .sort((a, b) => a.name.localeCompare(b.name, 'pt'))
          .map((m) => [m.code, m.name]),
      ]),
    ),
    field(
      'min_confidence',
      'Confidence at least',
      select('min_confidence', [
        ['', 'any'],
        ['0.5', '0.5'],
        ['0.7', '0.7'],
        ['0.9', '0.9'],
      ]),
    ),
    field(
      'value_tier',
      'Value',
      select('value_tier', [
        ['', 'any'],
        ['small', 'small'],
        ['medium', 'medium'],
        ['large', 'large'],
        ['very_large', 'very large'],
      ]),
    ),
    field('since', 'Seen since', h('input', { id: 'since', name: 'since', type: 'date' })),
  );
  for (const name of Object.keys(DEFAULTS)) {
    const input = controls.querySelector(`#${name}`);
    input.value = state[name];
    input.addEventListener('change', () => {
      for (const n of Object.keys(DEFAULTS)) state[n] = controls.querySelector(`#${n}`).value;
      if (name === 'family' && state.type && types.find((t) => t.key === state.type)?.family !== state.family) state.type = '';
      if (name === 'district') state.municipality = '';
      controls.querySelector('#type').value = state.type;
      controls.querySelector('#municipality').value = state.municipality;
      writeState(state, DEFAULTS, true);
      draw();
    });
  }
}

/** The filters of /v1/signals from the view's state: a district is its municipalities. */
function filters() {
  const municipality = state.municipality
    ? state.municipality
    : state.district
      ? places.filter((m) => m.district === state.district).map((m) => m.code)
      : undefined;
  return {
    family: state.family || undefined,
    type: state.type || undefined,
    municipality,
    min_confidence: state.min_confidence || undefined,
    value_tier: state.value_tier || undefined,
    since: state.since ? `${state.since}T00:00:00Z` : undefined,
    limit: 200,
  };
}

let drawing = 0;
async function draw() {
  const mine = ++drawing;
  stage.setAttribute('aria-busy', 'true');
  try {
    const [list, topology] = await Promise.all([getPages('/v1/signals', filters(), MAX_PAGES), loadTopology()]);
    if (mine !== drawing) return;
    const synthetic = syntheticOf(list.items) ?? (list.items.some(isSynthetic) || (await datasetSynthetic()));
    const signals = list.items;
    const more = list.more ? ` — the ${formatNumber(signals.length, 0)} most recent; more match (see the data link)` : '';
    const typeLabel = new Map(types.map((t) => [t.key, t.label_en]));
    const familyLabel = new Map(families.map((f) => [f.key, f.label_en]));
    const perPlace = d3.rollup(
      signals.filter((s) => s.municipality_id !== null),
      (g) => g.length,
      (s) => s.municipality_id,
    );
    // Signals name municipalities by integer id (1–308, the order of the codes).
    const codes = places.map((m) => m.code);
    const countByCode = new Map([...perPlace].map(([id, n]) => [codes[id - 1], n]));
    const indicator = { name: 'Signals', unit: 'count', unit_display: 'signals', direction: 'neutral', value_domain: 'count' };
    const values = codes.map((c) => countByCode.get(c) ?? 0);
    const scale = classify(
      values.filter((v) => v > 0),
      { indicator, method: 'quantile' },
    );
    const counts = [];
    for (const v of values) {
      const c = v > 0 ? scale.classOf(v) : -1;
      if (c >= 0) counts[c] = (counts[c] ?? 0) + 1;
    }
    const map = choropleth(topology, {
      label: 'Map of the number of signals by municipality. Arrow keys move, Enter opens.',
      style: (code) => {
        const n = countByCode.get(code) ?? 0;
        return n > 0 ? { fill: scale.colors[scale.classOf(n)] } : { fill: '#f4f5f6' };
      },
      describe: (code, name) => [name, byCode.get(code)?.district ?? '', `${countByCode.get(code) ?? 0} signals in this selection`],
      open: (code) => location.assign(municipalityHref(code)),
    });
    const lanesBy = state.family || state.type ? 'type' : 'family';
    const events = signals.map((s) => ({
      date: new Date(s.event_date ?? s.first_seen_at),
      lane: s[lanesBy],
      label: `${(s.event_date ?? s.first_seen_at).slice(0, 10)} · ${byCode.get(codes[s.municipality_id - 1])?.name ?? ''} · ${s.title_en ?? s.title_pt}`,
    }));
    const lanes = [...new Set(events.map((e) => e.lane))].sort();
    const requests = list.requests;
    clear(stage).append(
      h('p', { class: 'summary' }, `${formatNumber(signals.length, 0)} signals${more}.`),
      h(
        'div',
        { class: 'grid-2 signals' },
        figure({
          id: 'signals-map',
          title: 'Where',
          subtitle: `Signals per municipality${more}`,
          synthetic,
          body: h('div', {}, map.element, legend(scale, indicator, counts, { missing: 'none', stale: false })),
          requests,
          table: table(
            [
              { label: 'Municipality', value: (r) => r.name, href: (r) => municipalityHref(r.code) },
              { label: 'District', value: (r) => r.district },
              { label: 'Signals', value: (r) => r.n, numeric: true },
            ],
            places
              .map((m) => ({ ...m, n: countByCode.get(m.code) ?? 0 }))
              .filter((r) => r.n > 0)
              .sort((a, b) => b.n - a.n),
          ),
          attribution: [config.attribution.caop],
        }),
        figure({
          id: 'signals-timeline',
          title: 'When',
          subtitle: `By event date, one lane per ${lanesBy}`,
          synthetic,
          body: events.length
            ? timeline({
                width: chartWidth(true),
                events,
                lanes,
                laneNames: (l) => (lanesBy === 'type' ? (typeLabel.get(l) ?? l) : (familyLabel.get(l) ?? l)),
                label: 'Signals over time',
              })
            : h('p', {}, 'No signal matches.'),
          requests,
          table: table(
            [
              { label: 'Date', value: (s) => (s.event_date ?? s.first_seen_at).slice(0, 10) },
              { label: 'Municipality', value: (s) => byCode.get(codes[s.municipality_id - 1])?.name ?? '—' },
              { label: 'Type', value: (s) => typeLabel.get(s.type) ?? s.type },
              { label: 'Signal', value: (s) => s.title_en ?? s.title_pt },
              { label: 'Confidence', value: (s) => formatNumber(s.confidence, 2), numeric: true },
            ],
            signals.slice(0, 200),
            signals.length > 200 ? 'The 200 most recent of the selection' : undefined,
          ),
        }),
      ),
    );
    stage.setAttribute('data-ready', JSON.stringify(filters()));
  } catch (error) {
    showError(stage, error);
  } finally {
    stage.removeAttribute('aria-busy');
  }
}

async function start() {
  try {
    loadTopology().then(projected);
    [families, types] = await Promise.all([get(request('/v1/signal-families')), get(request('/v1/signal-types'))]);
    clear(root).append(controls, stage);
    buildControls();
    window.addEventListener('popstate', () => {
      Object.assign(state, readState(DEFAULTS));
      for (const name of Object.keys(DEFAULTS)) controls.querySelector(`#${name}`).value = state[name];
      draw();
    });
    await draw();
  } catch (error) {
    showError(root, error);
  }
}

start();
