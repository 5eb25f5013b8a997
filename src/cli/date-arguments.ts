/**
 * The CLI's one reader of date arguments, over the calendar of every other input (lib/calendar.ts): a day that
 * does not exist (`2024-02-30`, month 13) is a usage error, exit 2, before anything runs.
 */
import { InvalidArgumentError } from 'commander';
import { isCalendarPeriod, isDate } from '../lib/calendar.js';

/** `YYYY-MM-DD`, a day of the calendar (`--expires`). */
export function dayArgument(text: string): string {
  if (!isDate(text)) throw new InvalidArgumentError(`expected a day YYYY-MM-DD of the calendar, not "${text}"`);
  return text;
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` of the calendar (`--since`). */
export function periodArgument(text: string): string {
  if (!isCalendarPeriod(text)) {
    throw new InvalidArgumentError(`expected YYYY, YYYY-MM or YYYY-MM-DD of the calendar, not "${text}"`);
  }
  return text;
}
