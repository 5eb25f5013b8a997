import { ApiError } from '../../lib/errors.js';

/**
 * 422 on the low end's field when the low end of a range is beyond its high end (equal ends are a range of one).
 * `beyond` is the word the message uses: `after` for the dates of a series, `above` for the procurement filters'
 * amounts and dates (their messages have always said so).
 */
export function checkRange<T extends string | number>(
  low: T | undefined,
  high: T | undefined,
  lowField: string,
  highField: string,
  beyond: 'above' | 'after' = 'above',
): void {
  if (low !== undefined && high !== undefined && low > high) {
    throw new ApiError('validation-error', {
      detail: `\`${lowField}\` is ${beyond} \`${highField}\`.`,
      errors: [{ field: lowField, message: `must not be ${beyond} \`${highField}\`` }],
    });
  }
}
