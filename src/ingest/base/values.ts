/**
 * Scalar values of the Portal BASE exports, as they come in the JSON files, the API and CSV/xlsx exports:
 * dates `DD/MM/YYYY` (modifications add ` 00:00:00`), `Sim`/`Não`, the literal `NULL`, numbers as JSON numbers
 * or as text with a decimal comma and thousands dots. Each parser returns the value, null for "nothing", or
 * throws a FieldError whose message names the offending text (the caller prefixes the field name).
 */
import { fold } from '../../lib/text-match.js';

export class FieldError extends Error {
  override name = 'FieldError';
}

/**
 * Texts that mean "nothing" in BASE files: the literal NULL of the database dumps, '-', 'Inexistente' (PrecoBase)
 * and the portal's own 'Não aplicável.' (its framework-agreement fields on a contract outside any framework).
 */
const NOTHING = new Set(['', 'null', '-', 'inexistente', 'nao aplicavel', 'nao aplicavel.']);

/** The longest NOTHING marker: a text without combining marks keeps its length once its accents are taken off. */
const LONGEST_NOTHING = Math.max(...[...NOTHING].map((m) => m.length));
const COMBINING_MARK = /\p{M}/u;

/** Whether a trimmed text is one of the NOTHING markers (compared without case or accents). */
function isNothing(trimmed: string): boolean {
  // Most texts are names and descriptions longer than any marker: no normalizing them (a tenth of an import's time).
  if (trimmed.length > LONGEST_NOTHING && !COMBINING_MARK.test(trimmed)) return false;
  return NOTHING.has(fold(trimmed));
}

/** `&amp;` and friends: BASE stores some names HTML-escaped ("HIGINO PINHEIRO &amp; IRMÃO, LDA"). */
const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** A quoted rendering of a raw value for messages. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * The portal's HTML line break, `<br>` (`<br/>`, `<br />`, any case): its free texts carry them as they were typed
 * into its forms (461 of the 21,748 objects of January–February 2024, "…afeto ao Ministério da<br>Justiça…").
 */
const HTML_BREAK = /<br\s*\/?>/gi;

/**
 * Trimmed, entity-decoded text on one line (line breaks, `<br>` and tabs become spaces; runs of spaces are kept as
 * published); null for the "nothing" markers. Numbers become their decimal text.
 */
export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(text).filter((v): v is string => v !== null);
    return parts.length === 0 ? null : parts.join(' | ');
  }
  if (typeof value !== 'string') throw new FieldError(`${shown(value)} is not text`);
  const trimmed = decodeEntities(
    value
      .replace(HTML_BREAK, ' ')
      .replace(/[\r\n\t\v\f]+/g, ' ')
      .trim(),
  );
  return isNothing(trimmed) ? null : trimmed;
}

/** Like text(), for long free texts: keeps the line breaks (normalised to \n; `<br>` is one). */
export function longText(value: unknown): string | null {
  if (typeof value !== 'string') return text(value);
  const trimmed = decodeEntities(value.replace(HTML_BREAK, '\n').replace(/\r\n?/g, '\n').trim());
  return isNothing(trimmed) ? null : trimmed;
}

/** `Sim` → true, `Não`/`Nao` → false (any case); JSON booleans and true/false as they are. */
export function yesNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const t = text(value);
  if (t === null) return null;
  const folded = fold(t);
  if (folded === 'sim' || folded === 'true') return true;
  if (folded === 'nao' || folded === 'false') return false;
  throw new FieldError(`${shown(value)} is not Sim or Não`);
}

/**
 * An amount. JSON numbers as they are; text in the Portuguese form (`105.000,00`, `105000,00`) or with a
 * decimal point (`419000.0`, the API's `85000.00`); English thousands (`1,234,567.89`) too. A lone dot followed
 * by exactly three digits (`105.000`) could be either a thousands dot or a decimal point: refused, not guessed.
 * A lone comma is always the decimal comma (`105,5`, `105,000` = 105).
 */
export function amount(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FieldError(`${shown(value)} is not a number`);
    return value;
  }
  const t = text(value);
  if (t === null) return null;
  const s = t.replace(/[\s\u00a0]/g, '').replace(/€|EUR$/i, '');
  let normal: string | null = null;
  if (/^[-+]?\d+$/.test(s)) normal = s;
  else if (/^[-+]?\d{1,3}(\.\d{3})+,\d+$/.test(s)) normal = s.replace(/\./g, '').replace(',', '.');
  else if (/^[-+]?\d{1,3}(\.\d{3}){2,}$/.test(s)) normal = s.replace(/\./g, '');
  else if (/^[-+]?\d+,\d+$/.test(s)) normal = s.replace(',', '.');
  else if (/^[-+]?\d{1,3}(,\d{3})+\.\d+$/.test(s) || /^[-+]?\d{1,3}(,\d{3}){2,}$/.test(s)) normal = s.replace(/,/g, '');
  else if (/^[-+]?[1-9]\d{0,2}\.\d{3}$/.test(s)) {
    throw new FieldError(`${shown(value)} is ambiguous (thousands dot or decimal point?)`);
  } else if (/^[-+]?\d*\.\d+$/.test(s)) normal = s;
  if (normal === null) throw new FieldError(`${shown(value)} is not a number`);
  const n = Number(normal);
  if (!Number.isFinite(n)) throw new FieldError(`${shown(value)} is not a number`);
  return n;
}

/** An amount in euros: a number that is not negative, rounded to cents. */
export function euros(value: unknown): number | null {
  const n = amount(value);
  if (n === null) return null;
  if (n < 0) throw new FieldError(`${shown(value)} is negative`);
  return Math.round(n * 100) / 100;
}

/**
 * A whole number that is not negative (days). `90`, `90.0`, `"90"`, `"90,0"`, and `"90 dias"` as the portal's pages
 * write a period (`"1 dia"`). Another unit (`"3 meses"`) is refused, not converted.
 */
export function wholeNumber(value: unknown): number | null {
  const n = amount(typeof value === 'string' ? value.replace(/\s*dias?\.?\s*$/i, '') : value);
  if (n === null) return null;
  if (!Number.isInteger(n) || n < 0) throw new FieldError(`${shown(value)} is not a whole number`);
  return n;
}

/**
 * A calendar date as `YYYY-MM-DD`, from `DD/MM/YYYY`, `DD/MM/YYYY HH:MM[:SS]` (the time is dropped) or ISO
 * `YYYY-MM-DD[THH:MM:SS…]`. The date must exist (`31/02/2024` does not).
 */
export function date(value: unknown): string | null {
  const t = text(value);
  if (t === null) return null;
  let y: number;
  let m: number;
  let d: number;
  const pt = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.exec(t);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(t);
  if (pt) [d, m, y] = [Number(pt[1]), Number(pt[2]), Number(pt[3])];
  else if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else throw new FieldError(`${t} is not a date`);
  if (y < 1900 || y > 2199 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m))
    throw new FieldError(`${t} is not a date`);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY-MM-DD` plus a number of days. */
export function addDays(isoDate: string, days: number): string {
  const t = Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The items of a multi-valued field: a JSON array as it is; a text as the xlsx export flattened it, joined with
 * `|` (` | `), or with `;` when every piece looks like an item (so a `;` inside one name does not split it).
 */
export function items(value: unknown, looksLikeItem: (piece: string) => boolean = () => true): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((v) => text(v)).filter((v): v is string => v !== null);
  const t = typeof value === 'string' ? value.trim() : text(value);
  if (t === null) return [];
  if (t.startsWith('[') && t.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed)) return items(parsed);
    } catch {
      // not a JSON array written into a cell: read it as text
    }
  }
  const whole = text(t);
  if (whole === null) return [];
  if (whole.includes('|'))
    return whole
      .split('|')
      .map((p) => text(p))
      .filter((v): v is string => v !== null);
  if (whole.includes(';')) {
    const pieces = whole
      .split(';')
      .map((p) => text(p))
      .filter((v): v is string => v !== null);
    if (pieces.length > 1 && pieces.every(looksLikeItem)) return pieces;
  }
  return [whole];
}
