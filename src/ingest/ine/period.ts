/**
 * INE period labels (the keys of `Dados`/`Pref`) → our `reference_date`, the LAST day of the period
 * (docs/decisions.md, Formats: year 2021 → 2021-12-31, March 2024 → 2024-03-31).
 *
 * Recognised (case-insensitive, extra spaces ignored):
 * - year: "2022" → 2022-12-31
 * - quarter: "1.º Trimestre de 2026", "1º trimestre de 2026", "1st Quarter 2026" → 2026-03-31
 * - semester: "1.º Semestre de 2024", "2nd semester of 2024" → 2024-06-30 / 2024-12-31
 * - month: "Janeiro de 2024", "janeiro 2024", "January 2024" → 2024-01-31 (Fevereiro de 2024 → 2024-02-29)
 * - split year: "2021/2022", "2021 / 2022" → 2022-08-31.
 *   Decision: INE uses split years for school years (ano letivo, Sept–Aug), which end on 31 August of the later
 *   year. The later year's 12-31 would lie outside the period, breaking the "last day" rule, and could collide
 *   with a calendar-year point. Agricultural/other split years end on other days; they get the same date
 *   (their true end cannot be told from the label). Only consecutive years are accepted ("2011/2021" → null).
 * Anything else → null: the importer reports it and never guesses.
 */
import { MONTHS_EN, MONTHS_PT } from '../../lib/month-names.js';

/** Period labels come folded to lower case. */
const PT_MONTHS: readonly string[] = MONTHS_PT;
const EN_MONTHS = MONTHS_EN.map((m) => m.toLowerCase());

// "1.º", "1º", "1.°", "1o", "1." (PT) or "1st", "2nd", "3rd", "4th" (EN), then the period word, optional "de"/"of".
const ORDINAL = String.raw`([1-4])\s*(?:\.?\s*[º°ªo]|st|nd|rd|th|\.)?`;
const QUARTER = new RegExp(String.raw`^${ORDINAL}\s*(?:trimestre|quarter)\s+(?:(?:de|of)\s+)?(\d{4})$`);
const SEMESTER = new RegExp(String.raw`^${ORDINAL}\s*(?:semestre|semester|half)\s+(?:(?:de|of)\s+)?(\d{4})$`);
const MONTH = /^(\p{L}+)\s+(?:(?:de|of)\s+)?(\d{4})$/u;
const SPLIT_YEAR = /^(\d{4})\s*\/\s*(\d{4})$/;

export function periodToReferenceDate(label: string): string | null {
  const s = label.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

  if (/^\d{4}$/.test(s)) return monthEnd(Number(s), 12);

  let m = QUARTER.exec(s);
  if (m) return monthEnd(Number(m[2]), Number(m[1]) * 3);

  m = SEMESTER.exec(s);
  if (m) return Number(m[1]) <= 2 ? monthEnd(Number(m[2]), Number(m[1]) * 6) : null;

  m = MONTH.exec(s);
  if (m) {
    const index = Math.max(PT_MONTHS.indexOf(m[1]), EN_MONTHS.indexOf(m[1]));
    return index >= 0 ? monthEnd(Number(m[2]), index + 1) : null;
  }

  m = SPLIT_YEAR.exec(s);
  if (m && Number(m[2]) === Number(m[1]) + 1) return `${m[2]}-08-31`;

  return null;
}

/** The last day of a month; Date.UTC with day 0 of the next month gets leap years right. */
function monthEnd(year: number, month: number): string {
  const day = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
