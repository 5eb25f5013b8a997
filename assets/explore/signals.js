/**
 * The signals view (/explore/signals): what happened lately, and where — the latest 1 000 events (by event date,
 * not by when they were detected) among the signals matching the filters of /v1/signals (family, type, district or
 * municipality, lowest confidence, value tier, detected since), every family in its share, on a map, a timeline
 * and a table. State in the URL: ?family=…&type=…&district=…&municipality=…&min_confidence=…&value_tier=…&since=….
 */
import { timeline } from '../draw/charts.js';
import { choropleth, projected } from '../draw/geo.js';
import { classify, legend } from '../draw/scale.js';
import {
  chartWidth,
  clear,
  config,
  datasetSynthetic,
  datesUnbroken,
  eventDay,
  explorerRequest,
  figure,
  formatNumber,
  get,
  h,
  isSynthetic,
  loadTopology,
  municipalityHref,
  placeOfSignal,
  readState,
  request,
  showError,
  signalHref,
  signalsDataDefault,
  signalText,
  syntheticOf,
  table,
  view,
  writeState,
} from './common.js';

const DEFAULTS = {
  // Signals detected from real data when there are some, else from the generated (docs/explorer.md).
  data: await signalsDataDefault(),
  family: '',
  type: '',
  district: '',
  municipality: '',
  min_confidence: '',
  value_tier: '',
  since: '',
};
const state = readState(DEFAULTS);
const root = view();
const places = config.municipalities;
const byCode = new Map(places.map((m) => [m.code, m]));
const districts = [...new Set(places.map((m) => m.district))].sort((a, b) => a.localeCompare(b, 'pt'));
/** The latest events a view reads (the explorer's request answers up to 1 000), and those its table lists. */
const LATEST = 1000;
const TABLE_ROWS = 200;
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
    field(
      'data',
      'Data',
      select('data', [
        ['real', 'Real data'],
        ['generated', 'Generated data (demo)'],
      ]),
    ),
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
    field('since', 'Detected since', h('input', { id: 'since', name: 'since', type: 'date' })),
  );
  for (const name of Object.keys(DEFAULTS)) {
    const input = controls.querySelector(`#${name}`);
    input.value = state[name];
    input.addEventListener('change', () => {
      for (const n of Object.keys(DEFAULTS)) state[n] = controls.querySelector(`#${n}`).value;
      const typeFamily = types.find((t) => t.key === state.type)?.family;
      // /v1/signals refuses a type of another family than `family`: a choice of one follows the other.
      if (name === 'family' && state.type && typeFamily !== state.family) state.type = '';
      if (name === 'type' && state.family && typeFamily && typeFamily !== state.family) state.family = typeFamily;
      if (name === 'district') state.municipality = '';
      controls.querySelector('#type').value = state.type;
      controls.querySelector('#family').value = state.family;
      controls.querySelector('#municipality').value = state.municipality;
      writeState(state, DEFAULTS, true);
      draw();
    });
  }
}

function familyOfType(key) {
  return types.find((t) => t.key === key)?.family;
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
  };
}

/** "a, b and c" */
function listed(parts) {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

let drawing = 0;
async function draw() {
  const mine = ++drawing;
  stage.setAttribute('aria-busy', 'true');
  try {
    const f = filters();
    const v1 = request('/v1/signals', f);
    const latestReq = explorerRequest(
      config.latestSignalsPath,
      { ...f, data: state.data, limit: LATEST },
      `the explorer's own request: every page of GET ${v1.apiUrl} (send that one with your API key), ` +
        `keeping those with synthetic: ${state.data === 'generated'}, ` +
        'latest event first, with how many match per family and type.',
    );
    const [latest, topology] = await Promise.all([get(latestReq), loadTopology()]);
    if (mine !== drawing) return;
    const signals = latest.items;
    const synthetic = syntheticOf(signals) ?? (signals.some(isSynthetic) || (await datasetSynthetic()));
    const typeLabel = new Map(types.map((t) => [t.key, t.label_en]));
    const familyLabel = new Map(families.map((f) => [f.key, f.label_en]));
    const newest = signals.length ? eventDay(signals[0]) : '';
    const oldest = signals.length ? eventDay(signals.at(-1)) : '';
    const span = signals.length ? `, from ${oldest} to ${newest}` : '';
    const which =
      latest.matched > signals.length
        ? `The ${formatNumber(signals.length, 0)} latest events of ${formatNumber(latest.matched, 0)} matching signals`
        : `All ${formatNumber(signals.length, 0)} matching signals`;
    // Every family in proportion: how many match in all, and how many of them are among the latest shown.
    const shownPerFamily = d3.rollup(
      signals,
      (g) => g.length,
      (s) => s.family,
    );
    const proportions = Object.entries(latest.families)
      .sort(([, a], [, b]) => b - a)
      .map(
        ([family, n]) =>
          `${familyLabel.get(family) ?? family} ${formatNumber(n, 0)} ` +
          `(${formatNumber((n / latest.matched) * 100, 0)} %; ` +
          `${formatNumber(shownPerFamily.get(family) ?? 0, 0)} shown)`,
      );

    const countByCode = new Map();
    for (const s of signals) {
      const code = placeOfSignal(s)?.code;
      if (code) countByCode.set(code, (countByCode.get(code) ?? 0) + 1);
    }
    const codes = places.map((m) => m.code);
    const indicator = {
      name: 'Signals',
      unit: 'count',
      unit_display: 'signals',
      unit_singular: 'signal',
      direction: 'neutral',
      value_domain: 'count',
    };
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
      label: 'Map of the number of latest signals by municipality. Arrow keys move, Enter opens.',
      style: (code) => {
        const n = countByCode.get(code) ?? 0;
        return n > 0 ? { fill: scale.colors[scale.classOf(n)] } : { fill: '#f4f5f6' };
      },
      describe: (code, name) => [
        name,
        byCode.get(code)?.district ?? '',
        `${countByCode.get(code) ?? 0} of the latest events shown`,
      ],
      open: (code) => location.assign(municipalityHref(code)),
    });
    const lanesBy = state.family || state.type ? 'type' : 'family';
    const events = signals.map((s) => ({ date: new Date(eventDay(s)), lane: s[lanesBy] }));
    const lanes = [...new Set(events.map((e) => e.lane))].sort();
    const requests = [latestReq];
    clear(stage).append(
      h(
        'p',
        { class: 'summary' },
        datesUnbroken(`${which}${span}, ordered by event date (when it happened, not when it was detected).`),
      ),
      latest.matched ? h('p', { class: 'summary families' }, `Matching, by family: ${listed(proportions)}.`) : null,
      h(
        'div',
        { class: 'grid-2 signals' },
        figure({
          id: 'signals-map',
          title: 'Where',
          subtitle: `Where the ${formatNumber(signals.length, 0)} latest events happened${span}`,
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
          subtitle: `The same events per month of their event date, one lane per ${lanesBy}`,
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
        }),
      ),
      figure({
        id: 'signals-latest',
        title: 'What happened lately',
        subtitle:
          `The ${formatNumber(Math.min(TABLE_ROWS, signals.length), 0)} latest events, ` +
          'latest first; open one for its evidence',
        synthetic,
        body: table(
          [
            { label: 'Event date', value: (s) => eventDay(s) },
            {
              label: 'Municipality',
              value: (s) => placeOfSignal(s)?.name ?? s.location_text ?? '—',
              href: (s) => municipalityHref(placeOfSignal(s)?.code),
            },
            { label: 'Type', value: (s) => typeLabel.get(s.type) ?? s.type },
            {
              label: 'Signal',
              value: (s) => signalText(s, 'title', `Signal ${s.id}`),
              href: (s) => signalHref(s.id),
            },
            { label: 'Confidence', value: (s) => formatNumber(s.confidence, 2), numeric: true },
          ],
          signals.slice(0, TABLE_ROWS),
          `The latest events${span}, by event date`,
          { stack: true, tall: true },
        ),
        requests,
      }),
    );
    stage.setAttribute('data-ready', JSON.stringify(f));
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
    // An address naming a type under another family (shared, or typed) shows the type's family, as choosing the type
    // does: /v1/signals refuses the pair.
    if (state.family && state.type && familyOfType(state.type) && familyOfType(state.type) !== state.family) {
      state.family = familyOfType(state.type);
      writeState(state, DEFAULTS);
    }
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
