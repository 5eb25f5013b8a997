/**
 * INE period labels (the keys of `Dados`/`Pref`) → our `reference_date`, the LAST day of the period
 * (docs/decisions.md, Formats). Years, quarters, semesters and months in Portuguese or English; a split year
 * (`2021/2022`, a school year) ends on 31 August of the later year. Anything else → null: the importer reports
 * it and never guesses. The labels recognised and why August: docs/data.md, "Importing INE data", Periods.
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
