/**
 * What every view of the explorer shares: its configuration, reading the explorer's data routes (the same requests
 * as /v1, answered for the session), the "data" link of each picture, the view's state in its URL, formatting,
 * tables, the synthetic-data label and the attribution. No framework: DOM calls and d3 (a global, served by us).
 */

import { dataMark } from '../draw/data-mark.js';
import { formatCount, formatEuros, formatExactEuros, formatNumber, formatValue, h, table } from '../draw/dom.js';

export { dataMark, formatCount, formatEuros, formatExactEuros, formatNumber, formatValue, h, table };

export const config = JSON.parse(document.getElementById('explore-config').textContent);

// ---------------------------------------------------------------------------------------------------------
// Elements
// ---------------------------------------------------------------------------------------------------------

export function clear(element) {
  element.replaceChildren();
  return element;
}

// ---------------------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------------------

/** The query string of a request, parameters in the order given; arrays repeat their parameter. */
export function queryString(params = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * One API request: its /v1 path and query, and where the explorer answers it as JSON and, when its operation
 * answers CSV (a list, the aggregate), as CSV; `csvUrl` is null otherwise.
 */
export function request(path, params = {}) {
  const v1 = `${path}${queryString(params)}`;
  return {
    v1,
    apiUrl: `${config.baseUrl}${v1}`,
    jsonUrl: `${config.apiPrefix}${v1}`,
    csvUrl: offersCsv(path) ? `${config.csvPrefix}${v1}` : null,
  };
}

/**
 * Whether the operation of a /v1 path answers CSV, from the page's `restPaths` (every operation's path pattern and
 * whether it does, explore-api.ts). A path that fits several patterns is the one with the fewest parameters (the
 * router's own choice: a fixed segment before a parameter).
 */
function offersCsv(path) {
  const segments = path.split('/');
  let best;
  for (const [pattern, csv] of Object.entries(config.restPaths ?? {})) {
    const parts = pattern.split('/');
    if (parts.length !== segments.length) continue;
    if (!parts.every((p, i) => (p.startsWith(':') ? segments[i] !== '' : p === segments[i]))) continue;
    const params = parts.filter((p) => p.startsWith(':')).length;
    if (!best || params < best.params) best = { params, csv };
  }
  return best?.csv ?? false;
}

/**
 * One of the explorer's own requests (no /v1 path answers it, docs/explorer.md): opened here with the session,
 * JSON only. `about` says what it is made of, in the "data" link.
 */
export function explorerRequest(path, params = {}, about = '') {
  return { v1: null, apiUrl: null, jsonUrl: `${config.apiPrefix}${path}${queryString(params)}`, csvUrl: null, about };
}

export class ApiProblem extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * GET one request's JSON. The browser's cache keeps the answer with its ETag and revalidates it with
 * If-None-Match: an unchanged answer comes back 304, free of quota (docs/explorer.md).
 */
export async function get(req) {
  const response = await fetch(req.jsonUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  // A session that ended sends the request to the sign-in page (303): go there, and come back after.
  if (
    response.status === 401 ||
    (response.redirected && new URL(response.url).pathname.startsWith('/console/sign-in'))
  ) {
    location.assign(`/console/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new ApiProblem(401, { title: 'Signed out' });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiProblem(response.status, body);
  return body;
}

/** Every page of a paged request (at most `maxPages`): the items, and whether more were left. */
export async function getPages(path, params, maxPages = 5) {
  const items = [];
  const requests = [];
  let cursor;
  for (let i = 0; i < maxPages; i++) {
    const req = request(path, { ...params, cursor });
    requests.push(req);
    const page = await get(req);
    items.push(...page.items);
    if (!page.has_more) return { items, requests, more: false };
    cursor = page.next_cursor;
  }
  return { items, requests, more: true };
}

// ---------------------------------------------------------------------------------------------------------
// The view's state, in its URL
// ---------------------------------------------------------------------------------------------------------

export function readState(defaults = {}) {
  const search = new URLSearchParams(location.search);
  const state = { ...defaults };
  for (const name of Object.keys(defaults)) {
    if (Array.isArray(defaults[name])) {
      const all = search.getAll(name);
      if (all.length > 0) state[name] = all;
    } else if (search.has(name)) state[name] = search.get(name);
  }
  return state;
}

/** Writes the state into the address (replacing the history entry unless `push`), leaving out defaults. */
export function writeState(state, defaults = {}, push = false) {
  const shown = {};
  for (const [name, value] of Object.entries(state)) {
    if (JSON.stringify(value) !== JSON.stringify(defaults[name])) shown[name] = value;
  }
  const url = `${location.pathname}${queryString(shown)}`;
  if (url !== location.pathname + location.search) history[push ? 'pushState' : 'replaceState'](null, '', url);
}

// ---------------------------------------------------------------------------------------------------------
// Formatting (Portuguese conventions: 1 234,5)
// ---------------------------------------------------------------------------------------------------------

export function yearOf(date) {
  return date ? date.slice(0, 4) : '';
}

// ---------------------------------------------------------------------------------------------------------
// Pieces of every picture
// ---------------------------------------------------------------------------------------------------------

/**
 * A picture: heading, notes (synthetic label, scale, caveats; each a text, or an array of texts and elements), the
 * drawing, a table beside it (the text alternative) and the "data" links naming the exact API requests behind it.
 */
export function figure({ id, title, subtitle, synthetic, requests, body, table, notes = [], attribution = [] }) {
  const caption = h(
    'figcaption',
    {},
    h('h2', { id: `${id}-title` }, title),
    subtitle ? h('p', { class: 'subtitle' }, typeof subtitle === 'string' ? datesUnbroken(subtitle) : subtitle) : null,
  );
  const badge = dataMark(synthetic);
  return h(
    'figure',
    { class: 'picture', id, 'aria-labelledby': `${id}-title` },
    caption,
    badge,
    body,
    notes.length
      ? h(
          'ul',
          { class: 'notes' },
          notes.map((n) => h('li', {}, n)),
        )
      : null,
    table ? h('details', { class: 'table' }, h('summary', {}, 'Table'), table) : null,
    requests.length ? h('div', { class: 'data-links' }, dataLinks(requests)) : null,
    attribution.length ? h('p', { class: 'attribution' }, attribution.join(' ')) : null,
  );
}

/** The small mark of one card among others: "real data" or "generated data". */
export function cardMark(synthetic) {
  return h('p', { class: `card-mark ${synthetic ? 'synthetic' : 'real'}` }, synthetic ? 'generated data' : 'real data');
}

/**
 * What real data the service holds, from /v1/sources (free): whether any contracts and any series are real, and
 * whether any contracts are generated. The procurement and signals views show real data by default when there is
 * some (docs/explorer.md).
 */
let sourcesHeld;
function sources() {
  sourcesHeld ??= get(request('/v1/sources', {})).then((answer) => answer.items);
  return sourcesHeld;
}

let realHeld;
export function realData() {
  realHeld ??= sources()
    .then((items) => {
      const held = items.filter((i) => i.kind !== 'reference');
      const real = held.filter((i) => i.synthetic === false);
      return {
        contracts: real.some((i) => (i.records.contracts ?? 0) > 0),
        series: real.some((i) => (i.records.observations ?? 0) > 0),
        generatedContracts: held.some((i) => i.synthetic === true && (i.records.contracts ?? 0) > 0),
      };
    })
    // Unknown: every choice stays offered.
    .catch(() => ({ contracts: false, series: false, generatedContracts: true }));
  return realHeld;
}

/**
 * The publication dates the contracts of real or generated data (`synthetic`; both for 'mixed') span, from
 * /v1/sources (free): the earliest `from` and latest `to` of the procurement sources that hold contracts; null when
 * unknown. A year a chart draws that these dates do not cover whole is only part of a year.
 */
export async function contractsCoverage(synthetic) {
  const items = await sources().catch(() => []);
  const held = items.filter(
    (i) =>
      i.kind === 'procurement' &&
      (i.records?.contracts ?? 0) > 0 &&
      (synthetic === 'mixed' || i.synthetic === synthetic) &&
      i.coverage?.from &&
      i.coverage?.to,
  );
  if (held.length === 0) return null;
  return {
    from: held.map((i) => i.coverage.from).sort()[0],
    to: held
      .map((i) => i.coverage.to)
      .sort()
      .at(-1),
  };
}

/**
 * Chart rows of years (`x` a year) labelled, where the contracts held cover only part of the year, with the months
 * they do (`2024 (Jan–Feb)`), and the notes that say so, from the coverage /v1/sources serves (contractsCoverage).
 * Each row keeps its `year`, and has its `label` for a table. The notes' dates and the label's months are kept on one
 * line each (unbroken), so that a narrow screen never breaks 2024-02-29 at a hyphen.
 */
export async function yearsAsCovered(rows, synthetic) {
  const coverage = await contractsCoverage(synthetic);
  const labelled = rows.map((row) => {
    const part = partOfYear(row.x, coverage);
    const months = part ? `(${monthSpan(part)})` : null;
    return {
      ...row,
      x: part ? `${row.x} ${months}` : row.x,
      label: part ? [`${row.x} `, unbroken(months)] : row.x,
      year: row.x,
      part,
    };
  });
  const notes = labelled
    .filter((r) => r.part)
    .map((r) => [
      `${r.year} is only part of a year: the ${synthetic === true ? 'generated' : 'real'} contracts held were ` +
        'published ',
      unbroken(r.part.from),
      ' to ',
      unbroken(r.part.to),
      ' (their coverage in GET /v1/sources).',
    ]);
  return { rows: labelled, notes };
}

/**
 * A date or a span of months kept on one line by the style (`.date`, white-space: nowrap), not by other characters:
 * copied, it still has its own hyphens.
 */
function unbroken(text) {
  return h('span', { class: 'date' }, text);
}

/** A text with each of its dates (2026-11-27) unbroken: a subtitle's "published 2026-11-27" on a phone. */
export function datesUnbroken(text) {
  return text.split(/(\d{4}-\d{2}-\d{2})/).map((part, i) => (i % 2 ? unbroken(part) : part));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The months a part of a year spans: `Jan–Feb`, `Dec`. */
function monthSpan({ from, to }) {
  const [first, last] = [from, to].map((d) => MONTHS[Number(d.slice(5, 7)) - 1]);
  return first === last ? first : `${first}–${last}`;
}

/** The part of `year` that `coverage` spans, `{from, to}` (YYYY-MM-DD), when it is not the whole year; else null. */
function partOfYear(year, coverage) {
  if (!coverage) return null;
  const from = coverage.from > `${year}-01-01` ? coverage.from : `${year}-01-01`;
  const to = coverage.to < `${year}-12-31` ? coverage.to : `${year}-12-31`;
  return from === `${year}-01-01` && to === `${year}-12-31` ? null : { from, to };
}

/**
 * The "data" disclosure: each request as the API URL (to copy), opened here as JSON, and as CSV where its operation
 * answers CSV.
 */
export function dataLinks(requests) {
  const list = h('ul', {});
  for (const req of requests) {
    const json = h('a', { href: req.jsonUrl, class: 'json', target: '_blank', rel: 'noopener' }, 'JSON');
    list.append(
      req.apiUrl
        ? h(
            'li',
            {},
            h('code', { class: 'api-url' }, `GET ${req.apiUrl}`),
            ' ',
            json,
            req.csvUrl ? ' · ' : null,
            req.csvUrl ? h('a', { href: req.csvUrl, class: 'csv', target: '_blank', rel: 'noopener' }, 'CSV') : null,
          )
        : h(
            'li',
            { class: 'explorer-only' },
            h('code', { class: 'explorer-url' }, `GET ${req.jsonUrl}`),
            ' ',
            json,
            ' — ',
            req.about,
          ),
    );
  }
  return h(
    'details',
    { class: 'data' },
    h('summary', {}, 'data'),
    h('p', {}, 'The API requests behind this picture (send them with your API key; here they open with your session):'),
    list,
  );
}

/** A record's facts as a definition list: `[label, value]` pairs, a value a text or an element; empty ones left out. */
export function facts(pairs) {
  const shown = pairs.filter(([, value]) => value !== null && value !== undefined && value !== '');
  return h(
    'dl',
    { class: 'facts' },
    shown.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]),
  );
}

/** A municipality by its code, linked to its page: its name where the page knows the places, else the code. */
export function municipalityLink(code) {
  const place = (config.municipalities ?? []).find((m) => m.code === code);
  const href = municipalityHref(code);
  return href ? h('a', { href }, place?.name ?? code) : null;
}

export function showError(container, error) {
  clear(container).append(
    h(
      'div',
      { class: 'error', role: 'alert' },
      h('strong', {}, error.problem?.title ?? 'Something went wrong'),
      ' ',
      error.message,
    ),
  );
}

/** Which signals a view shows first: those detected from real data when the service holds any real data. */
export async function signalsDataDefault() {
  const held = await realData();
  return held.contracts || held.series ? 'real' : 'generated';
}

/** Whether a row or an indicator holds generated data: `synthetic` where answers carry it, else the source. */
export function isSynthetic(item) {
  if (!item) return false;
  if (typeof item.synthetic === 'boolean') return item.synthetic;
  if (typeof item.source === 'string') return item.source === 'demo' || /synthetic/i.test(item.source);
  const title = item.title_en ?? item.title_pt;
  return typeof title === 'string' && title.startsWith('[demo]');
}

/**
 * Whether answers hold generated data, as they say it: an answer's own `synthetic` (the aggregate), or any of its
 * items' or groups'; undefined when none says (answers of a service without the field).
 */
export function syntheticOf(...answers) {
  let said;
  for (const answer of answers) {
    const parts = [
      answer,
      ...(Array.isArray(answer) ? answer : []),
      ...(answer?.items ?? []),
      ...(answer?.groups ?? []),
    ];
    for (const part of parts) {
      if (typeof part?.synthetic === 'boolean') said = (said ?? false) || part.synthetic;
    }
  }
  return said;
}

/** Whether the store's data is generated, when the rows of a picture do not say (the indicator catalogue does). */
let catalogueSynthetic;
export async function datasetSynthetic() {
  catalogueSynthetic ??= get(request('/v1/indicators', { limit: 1 }))
    .then((page) => isSynthetic(page.items[0]))
    .catch(() => false);
  return catalogueSynthetic;
}

// Where each thing a picture names is shown on its own: null when the row does not name one (never `…/null`).
const hrefOf = (path) => (id) =>
  id === null || id === undefined || id === '' ? null : `${path}/${encodeURIComponent(id)}`;
export const municipalityHref = hrefOf('/explore/municipalities');
export const contractHref = hrefOf('/explore/contracts');
export const entityHref = hrefOf('/explore/entities');
export const signalHref = hrefOf('/explore/signals');

/**
 * A text of the API's with the service's requests it names (an integrity signal's "GET /v1/procurement/contracts/
 * 21161/red-flags", R048's "GET /v1/procurement/contracts?supplier=…") linked to the explorer's view of the same:
 * text and links as nodes, never markup.
 */
export function linkedText(text) {
  const parts = [];
  let at = 0;
  for (const found of text.matchAll(REQUESTS_NAMED)) {
    const [named, flagsOf, supplier] = found;
    const href = flagsOf ? `${contractHref(flagsOf)}#integrity` : entityHref(supplier);
    parts.push(text.slice(at, found.index), h('a', { href }, named));
    at = found.index + named.length;
  }
  parts.push(text.slice(at));
  return parts;
}

const REQUESTS_NAMED = /GET \/v1\/procurement\/contracts(?:\/(\d+)\/red-flags|\?supplier=([A-Za-z0-9-]+))/g;

/** The parties of a contract (buyers or suppliers) by name, each linked to its page where it has a tax number. */
export function partyLinks(parties) {
  return h(
    'span',
    {},
    parties.flatMap((p, i) => {
      const href = entityHref(p.nif);
      return [i > 0 ? ', ' : null, href ? h('a', { href }, p.name ?? p.nif) : (p.name ?? '—')];
    }),
  );
}

/**
 * The labels of the signal families and types (`GET /v1/signal-families`, `/v1/signal-types`), read once a page:
 * `family(key)` and `type(key)` name one in words ("High-value direct award"), never by its key.
 */
let signalCatalogues;
export function signalLabels() {
  signalCatalogues ??= Promise.all([get(request('/v1/signal-families')), get(request('/v1/signal-types'))]).then(
    ([families, types]) => ({
      family: (key) => families.find((f) => f.key === key)?.label_en ?? key,
      type: (key) => types.find((t) => t.key === key)?.label_en ?? key,
    }),
  );
  return signalCatalogues;
}

/**
 * The explorer's one rule for the API's words in two languages (docs/explorer.md, "A signal's words"): the English
 * text where the API has one, else the Portuguese, which `lang: 'pt'` marks so that a screen reader reads it as
 * Portuguese; `text` is null when it has neither.
 */
export function wordsIn(en, pt) {
  if (en) return { text: en, lang: null };
  return pt ? { text: pt, lang: 'pt' } : { text: null, lang: null };
}

/**
 * Words to show: the English text as it is, the Portuguese in a `<span lang="pt">`, each through `render` (the text
 * itself, or `linkedText`); else `fallback`.
 */
export function shownWords({ text, lang }, fallback = null, render = (t) => t) {
  if (text === null) return fallback;
  return lang ? h('span', { lang }, render(text)) : render(text);
}

/**
 * A signal's (or a case's) words: its English text (`title_en`, `summary_en`, …), else its Portuguese (`title_pt`…).
 * `field` is `title`, `summary` or `why_it_matters`.
 */
export function signalWords(item, field) {
  return wordsIn(item?.[`${field}_en`], item?.[`${field}_pt`]);
}

/** The same words to show (`shownWords`); else `fallback`. */
export function signalText(item, field, fallback = null) {
  return shownWords(signalWords(item, field), fallback);
}

/**
 * Why a red flag is in its state (procurement_red_flags: `reason`, in English, and `reason_pt`), by the same rule,
 * the requests it names linked (`linkedText`); else `fallback`.
 */
export function reasonText(assessment, fallback = null) {
  return shownWords(wordsIn(assessment?.reason, assessment?.reason_pt), fallback, linkedText);
}

/** When a signal's event happened (YYYY-MM-DD): its event date, or the day it was first seen when it has none. */
export function eventDay(signal) {
  return signal.event_date ?? signal.first_seen_at?.slice(0, 10) ?? '';
}

/** Signals name their municipality by its integer id: its place (code, name, district), or undefined. */
let placesById;
export function placeOfSignal(signal) {
  placesById ??= new Map((config.municipalities ?? []).map((m) => [m.id, m]));
  return placesById.get(signal.municipality_id);
}

export function view() {
  return document.getElementById('view');
}

/** The width, in CSS pixels, a chart of the view has: the whole column, or half of it beside another (wide screens). */
export function chartWidth(half = false) {
  const full = Math.max(300, Math.min(1180, view().clientWidth - 40));
  return half && window.innerWidth > 900 ? Math.floor((full - 40) / 2) : full;
}

let topologyPromise;
/** The boundaries (the explorer's asset), fetched once per page and cached by the browser with their ETag. */
export function loadTopology() {
  topologyPromise ??= fetch('/explore/assets/municipalities.topo.json').then((r) => r.json());
  return topologyPromise;
}
