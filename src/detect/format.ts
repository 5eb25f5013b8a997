/**
 * How signal texts write amounts, percentages, dates and lists, in Portuguese and in English. Written by hand
 * (not Intl) so that the same data gives the same bytes on every Node build, whatever its ICU data: a signal
 * whose text changed would count as updated.
 */

import { euros, grouped, type Lang } from '../lib/euros-text.js';
import { MONTHS_EN, MONTHS_PT } from '../lib/month-names.js';
import type { Frequency } from '../store/records.js';

export { euros, type Lang };

/** A change with its sign: `+12 345 €` / `+€12,345`, `-500 €`. */
export function signedEuros(amount: number, lang: Lang): string {
  return amount > 0 ? `+${euros(amount, lang)}` : euros(amount, lang);
}

/** `+12,3 %` / `+12.3%`, one decimal. */
export function signedPercent(value: number, lang: Lang): string {
  const rounded = Math.round(value * 10) / 10;
  const text = Math.abs(rounded).toFixed(1);
  const sign = rounded > 0 ? '+' : rounded < 0 ? '-' : '';
  return lang === 'pt' ? `${sign}${text.replace('.', ',')} %` : `${sign}${text}%`;
}

/**
 * A plain number as the language writes it, up to `digits` decimals: the trailing zeros of the decimals are dropped
 * (30.50 → `30,5`, 30.00 → `30`), never those of the whole part (18 690 stays `18 690`).
 */
export function number(value: number, lang: Lang, digits = 2): string {
  const fixed = value
    .toFixed(digits)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  const [whole, fraction] = fixed.replace('-', '').split('.');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  const w = grouped(Number(whole), lang === 'pt' ? ' ' : ',');
  return `${sign}${w}${fraction ? `${lang === 'pt' ? ',' : '.'}${fraction}` : ''}`;
}

/** `14 de julho de 2026` / `14 July 2026`. */
export function longDate(date: string, lang: Lang): string {
  const [y, m, d] = date.split('-').map(Number);
  return lang === 'pt' ? `${d} de ${MONTHS_PT[m - 1]} de ${y}` : `${d} ${MONTHS_EN[m - 1]} ${y}`;
}

/**
 * The period a reference date closes, as the series' frequency counts it: the year alone for an annual series
 * (`2024`), the month for a monthly one (`dezembro de 2024` / `December 2024`, December too).
 */
export function period(referenceDate: string, frequency: Frequency, lang: Lang): string {
  const [y, m] = referenceDate.split('-').map(Number);
  if (frequency === 'annual') return String(y);
  return lang === 'pt' ? `${MONTHS_PT[m - 1]} de ${y}` : `${MONTHS_EN[m - 1]} ${y}`;
}

/** A contract's buyer in Portuguese text when the record names none (lowercase: an article goes before it). */
export const UNNAMED_BUYER_PT = 'entidade adjudicante não identificada';

/** `A, B e C` / `A, B and C`; beyond `max` items, `A, B, C e mais 4` / `and 4 more`. */
export function list(items: readonly string[], lang: Lang, max = 5): string {
  const and = lang === 'pt' ? 'e' : 'and';
  if (items.length > max) {
    const more = items.length - max;
    return `${items.slice(0, max).join(', ')} ${and} ${lang === 'pt' ? `mais ${more}` : `${more} more`}`;
  }
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

/**
 * A text and its closing parenthetical apart — "Convites repetidos à mesma entidade (CCP art. 113.º n.º 2)" is the
 * text "Convites repetidos à mesma entidade" and the note "CCP art. 113.º n.º 2" — so that a sentence setting it in
 * parentheses joins the note with a comma rather than writing "(… (…))" or "(…) (…)". No parenthetical: note null.
 */
export function withoutNote(text: string): { text: string; note: string | null } {
  const parts = /^(.*\S)\s*\(([^()]*)\)$/.exec(text);
  return parts ? { text: parts[1], note: parts[2] } : { text, note: null };
}

/** `(text)`, a parenthetical of its own joined with a comma: "(ao abrigo de acordo-quadro, art.º 259.º)". */
export function parenthesised(text: string): string {
  const { text: lead, note } = withoutNote(text);
  return `(${note === null ? lead : `${lead}, ${note}`})`;
}
