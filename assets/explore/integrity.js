/**
 * The integrity view (/explore/integrity): a map of the share of each municipality's contracts that detection
 * flagged with one integrity type (the explorer's own request, integrity-shares.ts: the `integrity` signals over the
 * contracts placed there), and every type's count beside it, each linked to its method on /docs. `data` picks the
 * real contracts or the generated ones (real by default when the service holds some), never both in one picture;
 * a municipality with too few contracts gets no share. State in the URL: ?data=…&type=….
 */

import { choropleth, projected } from '../draw/geo.js';
import { classify, legend } from '../draw/scale.js';
import {
  clear,
  config,
  explorerRequest,
  figure,
  formatCount,
  formatNumber,
  get,
  h,
  loadTopology,
  municipalityHref,
  readState,
  realData,
  reasonText,
  showError,
  table,
  view,
  writeState,
} from './common.js';
import { CAUTION, methodHref, methodLink } from './flags.js';

const held = await realData();
const DEFAULTS = { data: held.contracts ? 'real' : 'generated', type: '' };
const state = readState(DEFAULTS);
const root = view();
const byCode = new Map(config.municipalities.map((m) => [m.code, m]));
/** The fill of a municipality with contracts, but too few for a share: a plain grey, apart from every class. */
const TOO_FEW_FILL = '#c9ced4';
/**
 * None flagged (0 %): a class of its own, paler than every share above it (whose classes start a step darker than
 * the scale's palest: `palestApart`), so that the others keep their classes.
 */
const NONE_FILL = '#f3f1e4';
/** A municipality most of whose contracts the type could not assess: cross-hatched, neither 0 % nor a share. */
const UNASSESSABLE_FILL = 'url(#hatch-unassessable)';
const UNASSESSABLE = 'not assessable on these data';
const SHARE = {
  name: 'Share of contracts flagged',
  unit: 'percent',
  unit_display: '%',
  direction: 'neutral',
  value_domain: 'rate',
};

const controls = h('form', { class: 'controls', onsubmit: (e) => e.preventDefault() });
const stage = h('div', { class: 'stage' });

function buildControls(types) {
  // Each kind of data is offered where the service holds contracts of it (and the one the address names).
  const data = h(
    'select',
    { id: 'data', name: 'data' },
    held.contracts || state.data === 'real' ? h('option', { value: 'real' }, 'Real contracts (Portal BASE)') : null,
    held.generatedContracts || state.data === 'generated'
      ? h('option', { value: 'generated' }, 'Generated contracts (demo)')
      : null,
  );
  const type = h(
    'select',
    { id: 'type', name: 'type' },
    types.map((t) => h('option', { value: t.type }, `${t.label_en} (${t.code})`)),
  );
  controls.append(
    h('div', { class: 'field' }, h('label', { for: 'data' }, 'Data'), data),
    h('div', { class: 'field wide' }, h('label', { for: 'type' }, 'Integrity type'), type),
  );
  for (const input of [data, type]) {
    input.addEventListener('change', () => {
      state.data = data.value;
      state.type = type.value;
      writeState(state, DEFAULTS, true);
      draw();
    });
  }
}

/** The type shown: the one in the address, else the one that flags the most contracts of these data. */
function shownType(answer) {
  if (answer.types.some((t) => t.type === state.type)) return answer.types.find((t) => t.type === state.type);
  return answer.types.reduce((best, t) => (t.flagged > best.flagged ? t : best), answer.types[0]);
}

let drawing = 0;
async function draw() {
  const mine = ++drawing;
  stage.setAttribute('aria-busy', 'true');
  try {
    const req = explorerRequest(
      config.integritySharesPath,
      { data: state.data },
      'per municipality, its contracts and the integrity signals on them (GET /v1/signals?family=integrity lists ' +
        'the signals), of the data chosen',
    );
    const [answer, topology] = await Promise.all([get(req), loadTopology()]);
    if (mine !== drawing) return;
    if (!controls.hasChildNodes()) buildControls(answer.types);
    const type = shownType(answer);
    controls.querySelector('#data').value = answer.data;
    controls.querySelector('#type').value = type.type;
    document.getElementById('title').textContent = `Integrity flags: ${type.label_en}`;
    // No contracts of these data: the summary says so, and there is nothing to map.
    const pictures = answer.contracts ? [shareMap(topology, answer, type, req), everyType(answer, req)] : [];
    clear(stage).append(summary(answer, type), ...pictures);
    stage.setAttribute('data-ready', `${answer.data}|${type.type}`);
  } catch (error) {
    showError(stage, error);
  } finally {
    stage.removeAttribute('aria-busy');
  }
}

function summary(answer, type) {
  const kind = answer.synthetic ? 'generated' : 'real';
  if (answer.contracts === 0) {
    return h(
      'p',
      { class: 'truncated', role: 'note' },
      h('strong', {}, `This service holds no ${kind} contracts: `),
      'there is nothing to map.',
      answer.synthetic ? ' The generated contracts are the demo’s: none is loaded here.' : null,
    );
  }
  const none = answer.types.every((t) => t.flagged === 0);
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'summary' },
      `${formatNumber(answer.contracts, 0)} ${kind} contracts; ${formatNumber(type.flagged, 0)} flagged by ` +
        `${type.label_en} (${type.code}). ${CAUTION}`,
    ),
    mostlyUnassessable(type.not_assessable, answer.sampled)
      ? h(
          'p',
          { class: 'truncated unassessable', role: 'note' },
          h('strong', {}, `${type.label_en} (${type.code}) cannot judge most of these contracts. `),
          `It could not assess ${formatNumber(type.not_assessable, 0)} of the ` +
            `${formatCount(answer.sampled, 'contract')} assessed (each municipality’s newest), most often because: “`,
          reasonText(type),
          `” A municipality where it could not assess most of them reads “${UNASSESSABLE}”, not 0 %.`,
        )
      : null,
    none
      ? h(
          'p',
          { class: 'truncated', role: 'note' },
          h('strong', {}, 'No integrity flag on these data yet. '),
          'Detection writes one integrity signal per flagged contract and type; until it has run on these ' +
            'contracts, every share reads 0 %. A contract’s own page and its buyer’s page assess them on request.',
        )
      : null,
  );
}

/** Whether a type could not assess most of the contracts assessed (`of` of them). */
function mostlyUnassessable(notAssessable, of) {
  return of > 0 && notAssessable * 2 > of;
}

/**
 * Each municipality's share for `type`: null when it has too few contracts for one, or when the type could not
 * assess most of its newest contracts (`unassessable`).
 */
function sharesOf(answer, type) {
  return new Map(
    answer.places
      .filter((p) => p.municipality !== null)
      .map((p) => {
        const flagged = p.flagged[type.type] ?? 0;
        const missed = p.not_assessable[type.type] ?? 0;
        const unassessable = p.judged && mostlyUnassessable(missed, p.sampled);
        const share = p.judged && !unassessable ? (flagged / p.contracts) * 100 : null;
        return [p.municipality, { ...p, count: flagged, missed, unassessable, share }];
      }),
  );
}

function shareMap(topology, answer, type, req) {
  const shares = sharesOf(answer, type);
  const judged = [...shares.values()].filter((p) => p.share !== null);
  const some = judged.filter((p) => p.share > 0);
  // The classes are those of the shares above 0: most municipalities may have none flagged, which would
  // otherwise take every quantile.
  const scale = classify(
    some.map((p) => p.share),
    { indicator: SHARE, method: 'quantile', palestApart: true },
  );
  const counts = [];
  for (const p of some) counts[scale.classOf(p.share)] = (counts[scale.classOf(p.share)] ?? 0) + 1;
  const few = [...shares.values()].filter((p) => !p.judged && p.contracts > 0);
  const unassessable = [...shares.values()].filter((p) => p.unassessable);
  const ofSample = (p) => `${formatNumber(p.missed, 0)} of its ${formatCount(p.sampled, 'newest contract')}`;
  const min = answer.min_contracts;
  projected(topology);
  const map = choropleth(topology, {
    label: `Map of the share of each municipality's contracts flagged ${type.label_en}. Arrow keys move, Enter opens.`,
    style: (code) => {
      const p = shares.get(code);
      if (!p || p.contracts === 0) return { missing: true };
      if (p.unassessable) return { fill: UNASSESSABLE_FILL };
      if (p.share === null) return { fill: TOO_FEW_FILL };
      return { fill: p.share === 0 ? NONE_FILL : scale.colors[scale.classOf(p.share)] };
    },
    describe: (code, name) => {
      const p = shares.get(code);
      const lines = [name, byCode.get(code)?.district ?? ''];
      if (!p || p.contracts === 0) return [...lines, 'no contracts'];
      if (p.unassessable) {
        return [
          ...lines,
          UNASSESSABLE,
          `${ofSample(p)} could not be assessed`,
          `${formatNumber(p.count, 0)} of ${formatCount(p.contracts, 'contract')} flagged`,
        ];
      }
      if (p.share === null) return [...lines, `too few contracts (${p.contracts}; a share needs ${min})`];
      return [
        ...lines,
        `${formatNumber(p.share, 1)} % flagged`,
        `${formatNumber(p.count, 0)} of ${formatCount(p.contracts, 'contract')}`,
      ];
    },
    open: (code) => location.assign(municipalityHref(code)),
  });
  const key = legend(scale, SHARE, counts, { missing: 'no contracts', stale: false });
  const swatch = (fill) => {
    const span = h('span', { class: 'swatch', 'data-color': fill });
    span.style.background = fill;
    return span;
  };
  // With no share above 0 there are no classes to show.
  if (some.length === 0) for (const item of key.querySelectorAll('ul.legend [data-color]')) item.closest('li').remove();
  const none = judged.length - some.length;
  key
    .querySelector('ul.legend')
    .prepend(h('li', {}, swatch(NONE_FILL), '0 % (none flagged)', h('span', { class: 'count' }, ` (${none})`)));
  key
    .querySelector('ul.legend')
    .append(
      h(
        'li',
        {},
        h('span', { class: 'swatch unassessable' }),
        UNASSESSABLE,
        h('span', { class: 'count' }, ` (${unassessable.length})`),
      ),
      h('li', {}, swatch(TOO_FEW_FILL), `too few contracts (under ${min})`),
    );
  const rows = [...shares.values()]
    .filter((p) => p.contracts > 0)
    .map((p) => ({ ...p, name: byCode.get(p.municipality)?.name ?? p.municipality }))
    .sort((a, b) => (b.share ?? -1) - (a.share ?? -1) || b.unassessable - a.unassessable || b.contracts - a.contracts);
  const unplaced = answer.places.find((p) => p.municipality === null);
  return figure({
    id: 'integrity-map',
    title: `Share of each municipality's contracts flagged: ${type.label_en}`,
    subtitle: `${type.code} · contracts flagged over contracts placed in the municipality, ${answer.data} data`,
    synthetic: answer.synthetic,
    body: h('div', { class: 'map-and-legend' }, map.element, key),
    notes: [
      h('span', {}, `${CAUTION} How ${type.label_en} is judged: `, methodLink(type.type, 'its method on /docs'), '.'),
      'Share = the contracts detection flagged with this type ÷ every contract of these data placed in the ' +
        'municipality — those the type could not assess (not assessable) included, so a low share is no clean bill.',
      'A contract is placed where its signals are filed: in its buyer’s municipality when the buyer is a council ' +
        'and the contract is executed there or names no place; else in the first municipality it is executed in.',
      unassessable.length
        ? h(
            'span',
            {},
            `Not assessable on these data (${unassessable.length} here, cross-hatched): the type could not assess ` +
              `most of the municipality’s newest contracts (up to ${answer.sample} of them assessed, as their red ` +
              'flags assess a contract), so a share would say more about the data than about the municipality. The ' +
              'reason given most often: “',
            reasonText(type),
            '”',
          )
        : null,
      `Municipalities with fewer than ${min} contracts (${few.length} here) show “too few contracts”, not a share; ` +
        'those without contracts are hatched.',
      unplaced
        ? `${formatCount(unplaced.contracts, 'contract')} ${unplaced.contracts === 1 ? 'names' : 'name'} ` +
          'no municipality ' +
          `(${formatNumber(unplaced.flagged[type.type] ?? 0, 0)} of them flagged): on no map.`
        : null,
    ].filter(Boolean),
    requests: [req],
    table: table(
      [
        { label: 'Municipality', value: (r) => r.name, href: (r) => municipalityHref(r.municipality) },
        { label: 'District', value: (r) => byCode.get(r.municipality)?.district ?? '' },
        { label: 'Contracts', value: (r) => formatNumber(r.contracts, 0), numeric: true },
        { label: 'Flagged', value: (r) => formatNumber(r.count, 0), numeric: true },
        {
          label: 'Share',
          value: (r) =>
            r.unassessable
              ? `not assessable (${ofSample(r)})`
              : r.share === null
                ? 'too few contracts'
                : `${formatNumber(r.share, 1)} %`,
          numeric: true,
        },
      ],
      rows,
      `Share of contracts flagged ${type.label_en}, by municipality`,
    ),
    attribution: [config.attribution.caop, ...(answer.synthetic ? [] : [config.attribution.base])],
  });
}

/** Every type: its flagged contracts among all of these data, its method, and its map. */
function everyType(answer, req) {
  return figure({
    id: 'integrity-types',
    title: 'Every integrity type',
    subtitle: `Contracts flagged among the ${formatNumber(answer.contracts, 0)} ${answer.data} contracts held`,
    synthetic: answer.synthetic,
    requests: [req],
    body: table(
      [
        { label: 'Type', value: (t) => `${t.label_en} (${t.code})`, href: (t) => methodHref(t.type) },
        { label: 'Flagged', value: (t) => formatNumber(t.flagged, 0), numeric: true },
        {
          label: 'Share',
          value: (t) => (answer.contracts ? `${formatNumber((t.flagged / answer.contracts) * 100, 2)} %` : '—'),
          numeric: true,
        },
        {
          label: 'Not assessable',
          value: (t) =>
            answer.sampled
              ? `${formatNumber((t.not_assessable / answer.sampled) * 100, 0)} % ` +
                `of the ${formatNumber(answer.sampled, 0)} assessed`
              : '—',
          numeric: true,
        },
        {
          label: 'Map',
          value: () => 'show on the map',
          href: (t) => `/explore/integrity?data=${answer.data}&type=${encodeURIComponent(t.type)}`,
        },
      ],
      answer.types,
      'Each integrity type: the contracts it flags, linked to its method',
      { stack: true },
    ),
  });
}

async function start() {
  loadTopology().then(projected);
  clear(root).append(controls, stage);
  window.addEventListener('popstate', () => {
    Object.assign(state, readState(DEFAULTS));
    draw();
  });
  await draw();
}

start();
