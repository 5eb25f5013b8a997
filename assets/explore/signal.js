/**
 * A signal (/explore/signals/{id}): the API's record of it — what happened, where and when, why it matters and
 * what to do, how sure the detection is, and the evidence behind it, each source linked where it has an address.
 */
import {
  clear,
  config,
  contractHref,
  eventDay,
  facts,
  figure,
  formatExactEuros,
  formatNumber,
  get,
  h,
  isSynthetic,
  linkedText,
  municipalityLink,
  partyLinks,
  placeOfSignal,
  request,
  showError,
  signalLabels,
  signalText,
  signalWords,
  table,
  view,
} from './common.js';

async function start() {
  const root = view();
  const req = request(`/v1/signals/${encodeURIComponent(config.id)}`);
  try {
    // The catalogues name the signal's family and type in words (never its keys, `direct_award_high_value`).
    const [s, labels] = await Promise.all([get(req), signalLabels()]);
    const about = await contractOf(s);
    const title = signalWords(s, 'title');
    const name = title.text ?? `Signal ${s.id}`;
    document.title = `${name} — munidata explorer`;
    const heading = document.getElementById('title');
    heading.textContent = name;
    if (title.lang) heading.setAttribute('lang', title.lang);
    const summary = signalWords(s, 'summary');
    const place = placeOfSignal(s);
    const synthetic = s.synthetic ?? isSynthetic(s);
    const lastChanged =
      s.last_seen_at !== s.first_seen_at ? `, last changed ${(s.last_seen_at ?? '').slice(0, 10)}` : '';
    clear(root).append(
      ...[
        figure({
          id: 'signal',
          title: 'What happened',
          subtitle: `${labels.family(s.family)} · ${labels.type(s.type)} · event date ${eventDay(s)}`,
          synthetic,
          requests: [req, ...about.requests],
          notes: amountsNote(s),
          body: h(
            'div',
            {},
            h('p', { class: 'summary', lang: summary.lang }, ...linkedText(summary.text ?? '')),
            facts([
              ['Where', place ? municipalityLink(place.code) : s.location_text],
              ['Contract', about.link],
              ['Buyer', about.contract && partyLinks(about.contract.buyers ?? [])],
              ['Supplier', about.contract && partyLinks(about.contract.suppliers ?? [])],
              ['Event date', s.event_date],
              ['Deadline', s.deadline_date],
              ['Amount', s.amount_eur === null ? null : `${formatExactEuros(s.amount_eur)} (without VAT)`],
              ['Stage', s.stage],
              ['Status', s.status],
              ['Confidence', formatNumber(s.confidence, 2)],
              ['Why it matters', signalText(s, 'why_it_matters')],
              ['Next step (in Portuguese)', portuguese(s.next_step_pt)],
              ['Detected', `${(s.first_seen_at ?? '').slice(0, 10)}${lastChanged}`],
              ['In Portuguese', s.title_en ? portuguese(s.title_pt) : null],
            ]),
            h(
              'p',
              {},
              h(
                'a',
                { href: `/explore/signals${place ? `?municipality=${place.code}` : ''}` },
                place ? `Latest signals in ${place.name}` : 'Latest signals',
              ),
            ),
          ),
        }),
        figure({
          id: 'signal-evidence',
          title: 'Evidence',
          synthetic,
          requests: [req],
          // A signal without evidence (an imported one may send none) says so: an empty table reads as a page
          // that failed to load, and no section at all leaves a reader looking for the sources elsewhere.
          body: s.evidence?.length
            ? evidenceTable(s.evidence, synthetic)
            : h('p', { class: 'no-evidence' }, NO_EVIDENCE),
        }),
      ].filter(Boolean),
    );
  } catch (error) {
    showError(root, error);
  }
  root.setAttribute('data-ready', 'true');
}

/** The evidence of a signal, one row per source. */
function evidenceTable(evidence, synthetic) {
  return table(
    [
      // A generated signal's sources are the demo's, at invented addresses that no browser can open.
      {
        label: 'Source',
        value: (e) => e.source_title ?? e.source_type,
        href: (e) => (synthetic ? undefined : e.source_url),
      },
      { label: 'Date', value: (e) => e.source_date ?? '—' },
      { label: 'Excerpt', value: (e) => portuguese(e.excerpt_pt) ?? '' },
      { label: 'Confidence', value: (e) => formatNumber(e.confidence, 2), numeric: true },
    ],
    evidence,
    undefined,
    { stack: true },
  );
}

const NO_EVIDENCE = 'No evidence recorded for this signal: its record names no source document or excerpt.';

/** A text the API has only in Portuguese, marked so for screen readers; null stays null. */
function portuguese(text) {
  return text ? h('span', { lang: 'pt' }, text) : null;
}

/**
 * Which amount form is whose: the title and summary are the API's texts, quoted as served (in English `€31,500`); the
 * page's own facts write an amount as every view of the explorer does, to the cent (`31 500,00 €`, docs/explorer.md).
 * Said only where the signal has an amount.
 */
function amountsNote(s) {
  if (s.amount_eur === null || s.amount_eur === undefined) return [];
  const texts = s.title_en
    ? "the API's English texts as it serves them, amounts in English form"
    : "the API's Portuguese texts as it serves them (it has none in English)";
  return [
    `The title and summary are ${texts}; the facts write amounts as the rest of the explorer does: ` +
      `${formatExactEuros(s.amount_eur)}.`,
  ];
}

/**
 * The contract the signal is about (its `contract_id`) and its parties, each linked to the explorer's page of it:
 * read only where the viewer's plan opens contracts; a contract the API no longer answers keeps its link alone.
 */
async function contractOf(s) {
  if (s.contract_id === null || s.contract_id === undefined || !config.domains.includes('procurement')) {
    return { requests: [], link: null, contract: null };
  }
  const req = request(`/v1/procurement/contracts/${encodeURIComponent(s.contract_id)}`);
  const contract = await get(req).catch(() => null);
  const name = contract?.object ?? `Contract ${s.contract_id}`;
  return { requests: contract ? [req] : [], link: h('a', { href: contractHref(s.contract_id) }, name), contract };
}

start();
