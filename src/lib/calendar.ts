/**
 * The one reader of dates and date-times given as input, on every channel and in the CLI (docs/api.md, Input
 * values): a date is `YYYY-MM-DD` of the Gregorian calendar (no 2024-02-30, no month 13); a date-time is RFC 3339
 * (`2026-07-14T09:30:00Z`, a fraction, any offset `±HH:MM`). A leap second (`:60`) is read as the instant after
 * the minute's second 59, as POSIX time (and JavaScript) counts it: JavaScript's own parser gives NaN for it.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PERIOD = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether year-month-day is a day of the calendar. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** `YYYY-MM-DD` naming a day of the calendar. */
export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` naming a year, a month or a day of the calendar (`--since`). */
export function isCalendarPeriod(text: string): boolean {
  const m = PERIOD.exec(text);
  return m !== null && isCalendarDay(Number(m[1]), Number(m[2] ?? 1), Number(m[3] ?? 1));
}

/** The milliseconds since the epoch of an RFC 3339 date-time, or undefined when it is not one. */
export function instantMs(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const [sign, offsetHour, offsetMinute] = [m[8], Number(m[9] ?? 0), Number(m[10] ?? 0)];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  if (offsetHour > 23 || offsetMinute > 59) return undefined;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads the years 0–99 as 1900–1999
  at.setUTCHours(hour, minute, second, Math.floor(Number(m[7] ?? 0) * 1000));
  const offset = (sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute) * 60_000;
  return at.getTime() - offset;
}

/** Whether `text` is an RFC 3339 date-time (leap seconds included). */
export function isDateTime(text: string): boolean {
  return instantMs(text) !== undefined;
}

/** Calendar days from one `YYYY-MM-DD` to another (negative when `to` is the earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
