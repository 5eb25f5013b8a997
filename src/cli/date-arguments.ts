/**
 * The CLI's one reader of date arguments, over the calendar of every other input (lib/calendar.ts): a day that
 * does not exist (`2024-02-30`, month 13) is a usage error, exit 2, before anything runs.
 */
import { InvalidArgumentError } from 'commander';
import { isCalendarDay } from '../lib/calendar.js';

const PERIOD = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** `YYYY-MM-DD`, a day of the calendar (`--expires`). */
export function dayArgument(text: string): string {
  const m = PERIOD.exec(text);
  if (m === null || m[3] === undefined || !isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    throw new InvalidArgumentError(`expected a day YYYY-MM-DD of the calendar, not "${text}"`);
  }
  return text;
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of the calendar (`--since`). */
export function periodArgument(text: string): string {
  const m = PERIOD.exec(text);
  const [year, month, day] = [Number(m?.[1]), Number(m?.[2] ?? 1), Number(m?.[3] ?? 1)];
  if (m === null || !isCalendarDay(year, month, day)) {
    throw new InvalidArgumentError(`expected YYYY, YYYY-MM or YYYY-MM-DD of the calendar, not "${text}"`);
  }
  return text;
}
