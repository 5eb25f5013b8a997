/**
 * What the pages that show integrity flags share (docs/integrity.md): the words for the three states, the caution
 * every such picture carries, the link to a type's method on /docs, and one assessment's evidence — why, the values
 * compared, the thresholds, the corpus statistics and the contracts it rests on.
 */
import { config, contractHref, facts, formatNumber, h, reasonText } from './common.js';

export const STATE_WORDS = { flagged: 'flagged', not_flagged: 'not flagged', not_assessable: 'not assessable' };

export const CAUTION = 'A flag is an indicator for a closer look, never an accusation.';

/** Where /docs gives a type's method, fields, thresholds and legal basis. */
export function methodHref(type) {
  return `${config.integrityMethodPrefix}${encodeURIComponent(type)}`;
}

export function methodLink(type, text = 'method') {
  return h('a', { href: methodHref(type), class: 'method' }, text);
}

/** `price_to_base_ratio` → "price to base ratio". */
function words(key) {
  return key.replaceAll('_', ' ');
}

function valueText(value) {
  if (value === null || value === undefined) return 'not in the record';
  return typeof value === 'number' ? formatNumber(value, 4) : String(value);
}

/** A record of named values as "name: value" lines, or null when it has none. */
function namedValues(record) {
  const entries = Object.entries(record ?? {});
  if (entries.length === 0) return null;
  return h(
    'ul',
    { class: 'named' },
    entries.map(([key, value]) => h('li', {}, h('span', { class: 'name' }, words(key)), ' ', valueText(value))),
  );
}

/** The contracts an assessment rests on, each linked to its page: this one first, then those compared with. */
function cited(assessment, contractId) {
  if (!assessment.cites?.length) return null;
  return h(
    'span',
    {},
    assessment.cites.flatMap((id, i) => [
      i > 0 ? ', ' : null,
      h('a', { href: contractHref(id) }, id === contractId ? `${id} (this one)` : String(id)),
    ]),
  );
}

/** One assessment's evidence, as the API gives it (procurement_red_flags), with the link to its method. */
export function evidence(assessment, contractId) {
  return h(
    'div',
    { class: 'evidence', 'data-type': assessment.type },
    h(
      'h4',
      {},
      `${assessment.label_en} (${assessment.code} v${assessment.version}) — ${STATE_WORDS[assessment.state]} `,
      methodLink(assessment.type),
    ),
    facts([
      ['Why', reasonText(assessment)],
      ['Values compared', namedValues(assessment.values)],
      ['Thresholds', namedValues(assessment.thresholds)],
      ['Against the corpus', namedValues(assessment.corpus)],
      ['Rests on contracts', cited(assessment, contractId)],
      ['Legal basis', assessment.legal_basis],
      ['What the data cannot tell', assessment.caveat_en],
    ]),
  );
}
