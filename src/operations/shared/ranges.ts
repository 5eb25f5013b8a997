import { ApiError } from '../../lib/errors.js';

/**
 * 422 on the low end's field when the low end of a range is beyond its high end (equal ends are a range of one). One
 * wording for every range, the word by what the ends are: a date is `after` another, an amount `above` another
 * ("`from` is after `to`." wherever a `from`/`to` is taken).
 */
export function checkRange<T extends string | number>(
  low: T | undefined,
  high: T | undefined,
  lowField: string,
  highField: string,
): void {
  if (low !== undefined && high !== undefined && low > high) {
    const beyond = typeof low === 'number' ? 'above' : 'after';
    throw new ApiError('validation-error', {
      detail: `\`${lowField}\` is ${beyond} \`${highField}\`.`,
      errors: [{ field: lowField, message: `must not be ${beyond} \`${highField}\`` }],
    });
  }
}
