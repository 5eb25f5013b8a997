/**
 * The figures of a reason in both languages (assessment.ts, `Said`): euros, shares and counts as each language writes
 * them (`€20,000` and `20 000 €`, `12.5 %` and `12,5 %`), so that a check writes its sentence once with both.
 */
import { euros } from '../lib/euros-text.js';
import { MONTHS_PT } from '../lib/month-names.js';
import type { Said } from './assessment.js';

export function eurosSaid(value: number): Said {
  return { en: euros(value, 'en'), pt: euros(value, 'pt') };
}

/**
 * A day: in English as the record gives it (`2024-02-05`, what `values` holds), in Portuguese as the press writes it
 * (`5 de fevereiro de 2024`), never an ISO date in the middle of a Portuguese sentence.
 */
export function dateSaid(date: string): Said {
  const [y, m, d] = date.split('-').map(Number);
  return { en: date, pt: `${d} de ${MONTHS_PT[m - 1]} de ${y}` };
}

/**
 * A ratio as a percentage to one decimal: `0.125` → `12.5 %`, `12,5 %`. A share too small to show at one decimal
 * says so (`under 0.1 %`, `menos de 0,1 %`) rather than `0 %`, which would read as none at all.
 */
export function percentSaid(ratio: number): Said {
  const percent = Math.round(ratio * 1000) / 10;
  if (percent === 0 && ratio > 0) return { en: 'under 0.1 %', pt: 'menos de 0,1 %' };
  return { en: `${percent} %`, pt: `${String(percent).replace('.', ',')} %` };
}

/** A count and its noun in either language, singular for one: `1 contract`, `3 contratos` (never `contract(s)`). */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A number with the Portuguese decimal comma: `2.5` → `2,5`. */
export function decimalPt(n: number): string {
  return String(n).replace('.', ',');
}
