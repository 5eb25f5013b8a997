/**
 * A buyer's integrity panel, on its entity page (docs/explorer.md): every integrity type run on its contracts of a
 * period (procurement_entity_red_flags) — each type with its counts per state and the link to its method — and the
 * flagged contracts, each opening its evidence per flagged type (procurement_red_flags, read when opened). The
 * period (a year, or publication dates from and to) is in the address: ?from=…&to=….
 */
import {
  cardMark,
  clear,
  contractHref,
  dataLinks,
  figure,
  formatCount,
  formatEuros,
  formatNumber,
  get,
  h,
  readState,
  request,
  showError,
  table,
  writeState,
} from './common.js';
import { CAUTION, evidence, methodHref } from './flags.js';

const DEFAULTS = { from: '', to: '' };

/** The panel of `entity` (its profile), drawn now and again whenever the period changes. */
export function buyerFlags(entity) {
  const state = readState(DEFAULTS);
  const years = (entity.by_year ?? [])
    .filter((y) => y.as_buyer_count > 0)
    .map((y) => String(y.year))
    .sort()
    .reverse();
  const holder = h('div', { class: 'flags-holder' }, h('p', { class: 'loading' }, 'Assessing its contracts…'));
  const year = h(
    'select',
    { id: 'flags-year', name: 'flags-year' },
    h('option', { value: '' }, 'All its contracts'),
    years.map((y) => h('option', { value: y }, y)),
    h('option', { value: 'custom' }, 'Dates below'),
  );
  const from = h('input', { id: 'flags-from', name: 'from', type: 'date', value: state.from });
  const to = h('input', { id: 'flags-to', name: 'to', type: 'date', value: state.to });
  const controls = h(
    'form',
    { class: 'controls', onsubmit: (e) => e.preventDefault() },
    h('div', { class: 'field' }, h('label', { for: 'flags-year' }, 'Period'), year),
    h('div', { class: 'field' }, h('label', { for: 'flags-from' }, 'Published from'), from),
    h('div', { class: 'field' }, h('label', { for: 'flags-to' }, 'to'), to),
  );
  const section = h('section', { id: 'buyer-flags', 'aria-label': 'Integrity flags as buyer' }, holder);

  const showYear = () => {
    const whole = /^(\d{4})-01-01$/.exec(state.from)?.[1];
    year.value = !state.from && !state.to ? '' : whole && state.to === `${whole}-12-31` ? whole : 'custom';
  };
  const changed = () => {
    writeState(state, DEFAULTS, true);
    draw();
  };
  year.addEventListener('change', () => {
    if (year.value === 'custom') return;
    state.from = year.value ? `${year.value}-01-01` : '';
    state.to = year.value ? `${year.value}-12-31` : '';
    from.value = state.from;
    to.value = state.to;
    changed();
  });
  for (const input of [from, to]) {
    input.addEventListener('change', () => {
      state.from = from.value;
      state.to = to.value;
      showYear();
      changed();
    });
  }

  let drawing = 0;
  async function draw() {
    const mine = ++drawing;
    section.removeAttribute('data-ready');
    section.setAttribute('aria-busy', 'true');
    const req = request(`/v1/procurement/entities/${encodeURIComponent(entity.nif)}/red-flags`, {
      from: state.from || undefined,
      to: state.to || undefined,
    });
    try {
      const answer = await get(req);
      if (mine !== drawing) return;
      const picture = panel(entity, answer, req);
      // The period is chosen under the panel's heading, and stays there whatever it shows.
      picture.querySelector('figcaption').after(controls);
      clear(holder).append(picture);
    } catch (error) {
      if (mine !== drawing) return;
      showError(holder, error);
      holder.prepend(controls);
    }
    section.removeAttribute('aria-busy');
    section.setAttribute('data-ready', `${state.from}|${state.to}`);
  }
  showYear();
  draw();
  return section;
}

/** Real, generated or both: the flagged contracts say which each is; the buyer's own mark, whether any is generated. */
function markOf(entity, answer) {
  const kinds = new Set(answer.flagged_contracts.map((c) => c.synthetic));
  if (kinds.size === 2 || (entity.synthetic && kinds.has(false))) return 'mixed';
  return entity.synthetic ?? kinds.has(true);
}

function panel(entity, answer, req) {
  const period =
    answer.from || answer.to
      ? `published ${answer.from ? `from ${answer.from}` : ''}${answer.to ? ` to ${answer.to}` : ''}`
      : 'of every date';
  const synthetic = markOf(entity, answer);
  return figure({
    id: 'integrity-flags',
    title: 'Integrity flags of its contracts as buyer',
    subtitle:
      `${formatCount(answer.contracts_assessed, 'contract')} ${period} assessed, ` +
      `${formatNumber(answer.contracts_flagged, 0)} flagged by at least one type. ${CAUTION}`,
    synthetic,
    requests: [req],
    body: h(
      'div',
      {},
      answer.truncated
        ? h(
            'p',
            { class: 'truncated', role: 'note' },
            h('strong', {}, 'Only the newest contracts: '),
            `the period holds more than ${formatNumber(answer.contracts_assessed, 0)} contracts, and only the newest ` +
              `${formatNumber(answer.contracts_assessed, 0)} were assessed. Narrow the period to see the older ones.`,
          )
        : null,
      typesTable(answer),
      flaggedList(answer, synthetic === 'mixed'),
    ),
    notes: [
      'Every type is run on every contract: flagged, not flagged, or not assessable when the record lacks what the ' +
        'type reads (never flagged on a missing field). Each type links to its method, fields, thresholds and legal ' +
        'basis.',
      'A contract opens to show, for each type that flagged it, why: the values compared, the thresholds and the ' +
        'contracts it rests on (one more API request each).',
    ],
  });
}

function typesTable(answer) {
  return table(
    [
      { label: 'Type', value: (t) => `${t.label_en} (${t.code})`, href: (t) => methodHref(t.type) },
      { label: 'Flagged', value: (t) => formatNumber(t.counts.flagged, 0), numeric: true },
      { label: 'Not flagged', value: (t) => formatNumber(t.counts.not_flagged, 0), numeric: true },
      { label: 'Not assessable', value: (t) => formatNumber(t.counts.not_assessable, 0), numeric: true },
    ],
    answer.by_type,
    'Each integrity type and how many of the contracts assessed are in each state',
    { stack: true },
  );
}

function flaggedList(answer, mixed) {
  if (answer.flagged_contracts.length === 0) {
    return h('p', { class: 'none-flagged' }, 'No contract of the period is flagged by any type.');
  }
  const labelOf = new Map(answer.by_type.map((t) => [t.type, t.label_en]));
  return h(
    'div',
    { class: 'flagged' },
    h('h3', {}, `Flagged contracts (${formatNumber(answer.flagged_contracts.length, 0)}), newest first`),
    h(
      'ul',
      { class: 'flagged-contracts scroll tall' },
      answer.flagged_contracts.map((c) => flaggedContract(c, labelOf, mixed)),
    ),
  );
}

/** One flagged contract: what, when and how much; opened, the evidence of each type that flagged it. */
function flaggedContract(c, labelOf, mixed) {
  const content = h('div', { class: 'evidence-list' }, h('p', { class: 'loading' }, 'Loading the evidence…'));
  const details = h(
    'details',
    { class: 'flagged-contract', 'data-contract': c.id },
    h(
      'summary',
      {},
      h('span', { class: 'date' }, c.published_on ?? '—'),
      ' ',
      h('a', { href: contractHref(c.id) }, c.object),
      ' ',
      h('span', { class: 'price' }, formatEuros(c.price_eur)),
      h(
        'span',
        { class: 'types' },
        c.flagged_types.map((t) => h('span', { class: 'flag' }, labelOf.get(t) ?? t)),
      ),
      mixed ? cardMark(c.synthetic) : null,
    ),
    content,
  );
  let loaded = false;
  details.addEventListener('toggle', async () => {
    if (!details.open || loaded) return;
    loaded = true;
    const req = request(`/v1/procurement/contracts/${encodeURIComponent(c.id)}/red-flags`);
    try {
      const flags = await get(req);
      const flagged = flags.assessments.filter((a) => a.state === 'flagged');
      clear(content).append(...flagged.map((a) => evidence(a, c.id)), dataLinks([req]));
      content.setAttribute('data-ready', 'true');
    } catch (error) {
      showError(content, error);
    }
  });
  return h('li', {}, details);
}
